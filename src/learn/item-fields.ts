/**
 * Item reads with the list's projection (`collections[].item_query_fields`): the collection's confirmed `fields`
 * rule answers item reads too when every recorded item read whose query that rule reads as a projection only, of an
 * entity the state held at that moment, answered exactly that entity cut down to those fields (`/todos/1?
 * filter[fields][title]=true` → `{"title": "Buy groceries"}`), one such read at least. Rejected: an answer holding
 * another field or value than the projection of the held entity; no read the state could judge. Pure.
 */
import { itemQueryFields } from "../model/item-fields.js";
import type { Collection, Entity, ItemEnvelope } from "../model/model-schema.js";
import { project } from "../model/query-language.js";
import { itemEntity } from "./collections.js";
import type { Observation } from "./endpoint-index.js";

const canonical = (e: Entity) => JSON.stringify(Object.entries(e).sort(([a], [b]) => (a < b ? -1 : 1)));

/** True when the recorded item reads confirm the list's projection on item reads (see the module). */
export function itemFieldsConfirmed(
  query: Collection["query"],
  item: { observations: Observation[] },
  envelope: ItemEnvelope,
  held: ReadonlyMap<Observation, Entity | null>,
): boolean {
  let confirmed = 0;
  for (const o of item.observations) {
    const state = held.get(o);
    if (!state || o.query.length === 0) continue;
    const fields = itemQueryFields(query, o.query, state);
    if (fields === null) continue;
    const answer = itemEntity(o.response.kind === "json" ? o.response.value : undefined, envelope);
    if (!answer || canonical(answer) !== canonical(project(state, fields))) return false;
    confirmed++;
  }
  return confirmed > 0;
}
