/**
 * The app's answer to a write naming an id it does not hold (`PUT /todos/99` answering 404 `Entity not found: Todo
 * with id 99`), for a collection whose recording holds no item read of an unknown id: learned from the refused
 * PUT/PATCH/DELETE observations on the item route's template whose id the recording never showed, when every one
 * answered alike up to the id it names. Serve answers a write of an id the state does not hold with it (naming the
 * requested id), never with the twin's own `{"error":"not_found"}`. Rejected: misses answered otherwise from one
 * another, a miss of an id the recording showed (a gone entity may be answered otherwise), a read's miss (the
 * collection's `not_found` then serves both, as before). Pure.
 */
import type { CannedResponse } from "../model/model-schema.js";
import type { CollectionState } from "./collection-state.js";
import type { Observation } from "./endpoint-index.js";
import { canned, notFoundId, sameMiss } from "./read-model.js";

const WRITES = new Set(["PUT", "PATCH", "DELETE"]);

/** The recorded answer to a write of an unknown id, and the id it names; null when the recording does not tell. */
export function writeNotFound(
  st: CollectionState,
  refused: Iterable<Observation>,
): { answer: CannedResponse; id: string | null } | null {
  const item = st.col.item;
  if (!item) return null;
  const idParam = item.params.at(-1) ?? "";
  const miss = new Set(st.col.missStatuses ?? [404, 410]);
  const misses = [...refused].filter(
    (o) =>
      WRITES.has(o.method) &&
      o.endpoint.template === item.template &&
      miss.has(o.status) &&
      o.pathParams[idParam] !== undefined &&
      !st.everSeen.has(o.pathParams[idParam]!),
  );
  if (misses.length === 0 || !misses.every((o) => sameMiss(misses[0]!, o, idParam))) return null;
  return { answer: canned(misses[0]!), id: notFoundId(misses, idParam) };
}
