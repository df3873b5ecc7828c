/**
 * Which query parameters of a request a collection's state-backed reads
 * cannot answer: with a learned query language (`query`), those with a leaf
 * no confirmed rule fits; in older models, any parameter that is not a
 * confirmed filter or the pagination. Serve answers such a read from the
 * recording (the exact request) or with an `unlearned_query` miss, and
 * coverage lists the parameters; both use this one definition.
 */
import type { Collection, Entity } from "./model-schema.js";
import { queryLeaves } from "./query-language.js";
import { planQuery } from "./query-plan.js";

/** The query parameter names a list read of a model without `query` is answered from state with. */
export function understoodQueryParams(c: Collection): Set<string> {
  const names = new Set(c.filters.map((f) => f.param));
  if (c.pagination) names.add(c.pagination.limit_param).add(c.pagination.offset_param);
  return names;
}

/** The names of the request's query parameters a list read of the collection cannot answer from state. */
export function unlearnedQueryParams(c: Collection, query: [string, string][], sample: Entity[]): string[] {
  if (!c.query) {
    const known = understoodQueryParams(c);
    return [...new Set(query.map(([k]) => k).filter((k) => !known.has(k)))];
  }
  const planned = planQuery(c.query, queryLeaves(query), sample);
  return "unlearned" in planned ? [...new Set(planned.unlearned.map((l) => query[l.pair]![0]))] : [];
}
