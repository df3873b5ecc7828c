/**
 * Item reads with a query that null fields (`GET /api/contents/projects?content=0`: the folder without its
 * children): a projection, kept only when every recorded read with exactly those parameters answered the entity
 * the state held at that moment with the same fields null and every other field as it was. A read of an entity the
 * state did not know, or held with those fields null already (as a listing shows it), contradicts nothing when it
 * answers them null too; at least one read must null a field the state held. A query that changes a value otherwise
 * (`format=base64` re-encoding a text) explains nothing here: such reads stay replayed.
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
    const answers = g.reads.map((o) => ({
      state: held.get(o) ?? null,
      answer: itemEntity(o.response.kind === "json" ? o.response.value : undefined, envelope),
    }));
    // Each read the state could judge: the fields it nulled, or null when it changed anything else.
    const judged = answers.filter((r) => r.state !== null);
    const got = judged.map((r) => (r.answer ? nulledFields(r.answer, r.state!) : null));
    if (got.some((x) => x === null)) continue;
    const nulls = [...new Set(got.flatMap((x) => x!))].sort();
    // Confirmed by a read that nulled fields the state held; every read (one of an entity the state did not know,
    // or held those fields null already, as a listing shows it) answered them all null.
    if (nulls.length === 0 || !answers.every((r) => r.answer && nulls.every((f) => r.answer![f] === null)))
      continue;
    const n = got.filter((x) => x!.length > 0).length;
    const q = g.query.map(([k, v]) => `${k}=${v}`).join("&");
    out.push({
      query: g.query,
      nulls,
      explain: `?${q} answers the entity with ${nulls.map((f) => `"${f}"`).join(", ")} null and every other field as the state holds it, as ${n} recorded read${n === 1 ? "" : "s"} showed against the state of ${n === 1 ? "its" : "their"} moment`,
    });
  }
  return out;
}
