/**
 * Collections an app reads only by id, with no list route (Jupyter's `/api/sessions/{id}` and `/api/kernels/{id}`,
 * created by `POST /api/sessions`): learned by hypothesis, never by a name.
 *
 * The hypothesis: a GET route `<base>/{id}` that no collection reads, with no GET at `<base>` in the recording,
 * whose every plain successful answer is one object holding a field equal to the id its path named; and a POST at
 * `<base>` whose successful answer is an object holding that field, with a value a later read of the route named
 * (the created entity read back by its id). Rejected: a route some answer of which lacks the field or holds another
 * value there, one with a list read (a collection of its own), a POST whose ids no read named afterwards, a path with
 * another parameter (a parent), or one with a suffix or a multi-segment id.
 *
 * No read lists such a collection, so the entities it holds beyond those the recording showed are unknown: its
 * model is `unlisted` (read-model.ts), an unknown id an explained miss; its list group is empty and names no route
 * (`itemOnly`), so no tool, hint or read names a `GET <base>` the app never answered. Pure.
 */
import type { EndpointGroup, Observation } from "./endpoint-index.js";
import { isObject, isUuid, snake } from "./value-kinds.js";

const PREFERRED_IDS = ["id", "uuid", "_id", "key", "slug"];

const okJson = (o: Observation) => o.status >= 200 && o.status < 300 && o.response.kind === "json";
const bodyOf = (o: Observation) => (o.response.kind === "json" ? o.response.value : undefined);
const isIdValue = (v: unknown): v is string | number =>
  typeof v === "string" || (typeof v === "number" && Number.isInteger(v));
const sameLiterals = (a: readonly (string | null)[], b: readonly (string | null)[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/** What findCollections needs to build a collection of one such route. */
export interface ItemOnlyCollection {
  name: string;
  idField: string;
  idKind: "int" | "uuid" | "string";
  /** An empty GET group at `<base>`: the collection's list, which no recording read and no tool serves. */
  list: EndpointGroup;
  item: EndpointGroup;
}

/** The field every plain successful read of `item` holds equal to its path's id, preferring the usual id names. */
function idFieldOf(item: EndpointGroup, param: string): string | null {
  const reads = item.observations.filter((o) => okJson(o) && o.query.length === 0);
  if (reads.length === 0 || !reads.every((o) => isObject(bodyOf(o)))) return null;
  const first = bodyOf(reads[0]!) as Record<string, unknown>;
  const fits = Object.keys(first).filter((k) =>
    reads.every((o) => {
      const v = (bodyOf(o) as Record<string, unknown>)[k];
      return isIdValue(v) && String(v) === o.pathParams[param];
    }),
  );
  return PREFERRED_IDS.find((k) => fits.includes(k)) ?? fits.sort()[0] ?? null;
}

/** True when some successful POST at `base` answered an id under `field` that a later read of `item` named. */
function createdAndReadBack(
  post: EndpointGroup | undefined,
  item: EndpointGroup,
  param: string,
  field: string,
) {
  if (!post) return false;
  return post.observations.some((o) => {
    const body = bodyOf(o);
    if (!okJson(o) || !isObject(body) || !isIdValue(body[field])) return false;
    const id = String(body[field]);
    return item.observations.some((r) => r.index > o.index && okJson(r) && r.pathParams[param] === id);
  });
}

/** Every item-only collection the recording confirms, in the groups' order; `taken` holds the names in use. */
export function itemOnlyCollections(
  groups: EndpointGroup[],
  claimed: ReadonlySet<EndpointGroup>,
  taken: Set<string>,
): ItemOnlyCollection[] {
  const out: ItemOnlyCollection[] = [];
  for (const item of groups) {
    if (item.method !== "GET" || claimed.has(item) || item.params.length !== 1) continue;
    if (item.literals.at(-1) !== null || item.suffixes[0] !== "" || item.multi[0]) continue;
    const base = item.literals.slice(0, -1);
    const word = base.at(-1);
    if (typeof word !== "string" || base.some((l) => l === null)) continue;
    if (groups.some((g) => g.method === "GET" && sameLiterals(g.literals, base))) continue;
    const param = item.params[0]!;
    const idField = idFieldOf(item, param);
    if (idField === null) continue;
    const post = groups.find((g) => g.method === "POST" && sameLiterals(g.literals, base));
    if (!createdAndReadBack(post, item, param, idField)) continue;
    const ids = item.observations
      .filter((o) => okJson(o) && o.query.length === 0)
      .map((o) => (bodyOf(o) as Record<string, unknown>)[idField]);
    const idKind = ids.every((v) => typeof v === "number") ? "int" : ids.every(isUuid) ? "uuid" : "string";
    let name = snake(word);
    for (let n = 2; taken.has(name); n++) name = `${snake(word)}_${n}`;
    taken.add(name);
    const template = `/${base.join("/")}`;
    const list: EndpointGroup = {
      key: `GET ${template}`,
      method: "GET",
      template,
      literals: base,
      params: [],
      suffixes: [],
      multi: [],
      toolName: "",
      observations: [],
    };
    out.push({ name, idField, idKind, list, item });
  }
  return out;
}
