/**
 * The signed-in identity a recording shows: a GET on a literal path in a collection's item slot (`/users/me`,
 * `/users/current.json` beside `/users/{id}.json`) answering one entity of that collection, the same one every
 * time. Its id is the session's: a created field holding it in every create (a comment's `author`) is the
 * signed-in user, a constant of the twin's one session, however well a counter also fits it.
 */
import type { FoundCollection } from "./collections.js";
import { itemEntity } from "./collections.js";
import type { EndpointGroup } from "./endpoint-index.js";

/** One session identity: the collection, the id (as JSON) and the route that showed it. */
export interface SessionIdentity {
  collection: string;
  id: string | number;
  route: string;
  /** The strings the entity holds (3+ characters): what a create writing the signed-in user copies (`author_name`). */
  strings: ReadonlySet<string>;
}

/** True when `g`'s path is `item`'s with a literal where the item holds its id (and the item's suffix after it). */
function inIdSlot(g: EndpointGroup, item: EndpointGroup): string | null {
  if (g.literals.length !== item.literals.length || g.params.length !== item.params.length - 1) return null;
  let literal: string | null = null;
  const last = item.literals.lastIndexOf(null);
  for (let i = 0; i < item.literals.length; i++) {
    const want = item.literals[i];
    const got = g.literals[i];
    if (want === null && i === last) {
      const suffix = item.suffixes[item.suffixes.length - 1] ?? "";
      if (got === null || got === undefined || !got.endsWith(suffix) || got.length === suffix.length)
        return null;
      literal = got.slice(0, got.length - suffix.length);
    } else if (want !== got) return null;
  }
  // A number there is an id the reads never linked, not a name for the signed-in one.
  return literal !== null && !/^\d+$/.test(literal) ? literal : null;
}

/** Every session identity the recording shows, one per collection, in collection order. */
export function sessionIdentities(groups: EndpointGroup[], found: FoundCollection[]): SessionIdentity[] {
  const out: SessionIdentity[] = [];
  for (const col of found) {
    if (!col.item) continue;
    for (const g of groups) {
      if (g.method !== "GET" || inIdSlot(g, col.item) === null) continue;
      const ok = g.observations.filter((o) => o.status >= 200 && o.status < 300);
      if (ok.length === 0 || ok.length !== g.observations.length) continue;
      const entities = ok.map((o) =>
        o.response.kind === "json" ? itemEntity(o.response.value, col.itemEnvelope) : null,
      );
      const ids = entities.map((e) => {
        const id = e?.[col.idField];
        return typeof id === "string" || (typeof id === "number" && Number.isInteger(id)) ? id : null;
      });
      const first = ids[0];
      if (first === null || first === undefined || !ids.every((id) => id === first)) continue;
      const strings = new Set(
        Object.values(entities[0] ?? {}).filter((v): v is string => typeof v === "string" && v.length >= 3),
      );
      out.push({ collection: col.name, id: first, route: `GET ${g.template}`, strings });
      break;
    }
  }
  return out;
}
