/**
 * Which query parameters a collection's state-backed reads understand: the
 * confirmed filters and pagination of its Model entry. Serve answers a read
 * with any other parameter from the recording (the exact request) or with an
 * `unlearned_query` miss, and coverage lists those parameters; both use this
 * one definition so they never disagree.
 */
import type { Collection } from "./model-schema.js";

/** The query parameter names a list read of the collection is answered from state with. */
export function understoodQueryParams(c: Collection): Set<string> {
  const names = new Set(c.filters.map((f) => f.param));
  if (c.pagination) names.add(c.pagination.limit_param).add(c.pagination.offset_param);
  return names;
}
