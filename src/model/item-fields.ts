/**
 * An item read's query as the collection's confirmed list rules read it, when they read it as a projection only
 * (`GET /todos/2?filter[fields][title]=true`: the `fields` rule the list reads confirmed): the fields the answer is
 * cut down to; null for any other query (a filter, a sort, a page, an unlearned leaf). Shared by learn (which
 * confirms it on recorded item reads, `src/learn/item-fields.ts`) and serve. Pure.
 */
import type { Collection, Entity } from "./model-schema.js";
import { queryLeaves } from "./query-language.js";
import { planQuery } from "./query-plan.js";

export function itemQueryFields(
  query: Collection["query"],
  request: [string, string][],
  entity: Entity,
): ReadonlySet<string> | null {
  if (!query || request.length === 0) return null;
  const planned = planQuery({ ...query, default_filter: [] }, queryLeaves(request), [entity]);
  if ("unlearned" in planned) return null;
  const p = planned.plan;
  const only =
    p.filters.length === 0 &&
    p.searches.length === 0 &&
    (p.sort === null || p.sort.length === 0) &&
    p.limit === null &&
    p.offset === 0 &&
    p.page === null &&
    p.after === null &&
    p.envelope === undefined;
  return only && p.projection !== null ? p.projection : null;
}
