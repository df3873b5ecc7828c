/**
 * Item reads with a query that null fields (`GET /api/contents/projects?content=0`: the folder without its
 * children): a projection, kept only when every recorded read with exactly those parameters answered the entity
 * the state held at that moment with the same fields null and every other field as it was. A query that changes
 * a value otherwise (`format=base64` re-encoding a text) explains nothing here: such reads stay replayed.
 */
import type { Collection, Entity, ItemEnvelope } from "../model/model-schema.js";
import { queryKey } from "../model/query-key.js";
import { itemEntity } from "./collections.js";
import type { Observation } from "./endpoint-index.js";

type Projection = NonNullable<Collection["item_projections"]>[number];

/** The fields the answer nulled where the state held a value, when every other field is as the state held it. */
function nulledFields(answer: Entity, held: Entity): string[] | null {
  const keys = Object.keys(answer);
  if (keys.length !== Object.keys(held).length || !keys.every((k) => k in held)) return null;
  const nulled: string[] = [];
  for (const k of keys) {
    if (answer[k] === null && held[k] !== null) nulled.push(k);
    else if (JSON.stringify(answer[k]) !== JSON.stringify(held[k])) return null;
  }
  return nulled.sort();
}

/** The projections the item reads with a query confirm, by query, sorted; an empty list when none. */
export function learnItemProjections(
  item: { observations: Observation[] },
  envelope: ItemEnvelope,
  held: ReadonlyMap<Observation, Entity | null>,
): Projection[] {
  const groups = new Map<string, { query: [string, string][]; reads: Observation[] }>();
  for (const o of item.observations) {
    if (!held.has(o)) continue;
    const key = queryKey(o.query);
    const g = groups.get(key) ?? { query: [...o.query].sort() as [string, string][], reads: [] };
    g.reads.push(o);
    groups.set(key, g);
  }
  const out: Projection[] = [];
  for (const [, g] of [...groups].sort(([a], [b]) => (a < b ? -1 : 1))) {
    let nulls: string[] | null = null;
    for (const o of g.reads) {
      const state = held.get(o) ?? null;
      const answer = itemEntity(o.response.kind === "json" ? o.response.value : undefined, envelope);
      const got = state && answer ? nulledFields(answer, state) : null;
      if (got === null || got.length === 0 || (nulls !== null && nulls.join() !== got.join())) {
        nulls = null;
        break;
      }
      nulls = got;
    }
    if (nulls === null) continue;
    const q = g.query.map(([k, v]) => `${k}=${v}`).join("&");
    const n = g.reads.length;
    out.push({
      query: g.query,
      nulls,
      explain: `?${q} answers the entity with ${nulls.map((f) => `"${f}"`).join(", ")} null and every other field as the state holds it, as ${n} recorded read${n === 1 ? "" : "s"} showed against the state of ${n === 1 ? "its" : "their"} moment`,
    });
  }
  return out;
}
