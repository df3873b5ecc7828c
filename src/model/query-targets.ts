/**
 * The entities a write by query selects (`PATCH /articles?id=eq.3`, `DELETE /articles?status=eq.draft`: a database
 * over HTTP names its targets by a filter, not a path): the collection's confirmed query rules, the ones its reads
 * are answered by, applied to the scope's entities. Only filters select; a query that also sorts, pages, projects
 * or searches, or holds a leaf no rule fits, selects nothing the twin may write (the caller explains it). Pure:
 * shared by learning (which confirms the selection against the recording) and serving (which applies it).
 */

import { prefixedLeaves } from "./count-read.js";
import type { Collection, Entity } from "./model-schema.js";
import { planQuery, runQueryPlan } from "./query-plan.js";

/** The selected entities, in the order given; or why the query selects none the twin may write. */
export type QueryTargets =
  | { rows: Entity[] }
  | { why: "unlearned" | "not_a_filter" | "ambiguous"; detail: string };

/**
 * The entities of `rows` (a scope, in list order) the query's filters select, the query read under `prefix` in the
 * collection's query language (`["filter"]`: `where={…}` as `filter={"where": {…}}`).
 */
export function queryTargets(
  query: Collection["query"],
  rows: Entity[],
  params: [string, string][],
  idField: string,
  prefix: readonly string[] = [],
): QueryTargets {
  if (!query) return { why: "unlearned", detail: "the collection's reads confirmed no query rule" };
  const leaves = prefixedLeaves(params, [...prefix]);
  if (leaves.length === 0) return { why: "not_a_filter", detail: "the request has no query" };
  const planned = planQuery(query, leaves, rows);
  if ("unlearned" in planned)
    return {
      why: "unlearned",
      detail: `no query rule the reads confirmed fits ${planned.unlearned.map((l) => JSON.stringify(l.path.slice(prefix.length).join("."))).join(", ")}`,
    };
  const p = planned.plan;
  const extra = [
    p.sort !== null ? "a sort" : null,
    p.limit !== null || p.offset !== 0 || p.page !== null || p.after !== null ? "a page" : null,
    p.projection !== null ? "a projection" : null,
    p.searches.length > 0 ? "a search" : null,
  ].filter((x) => x !== null);
  if (extra.length > 0 || p.filters.length === 0)
    return {
      why: "not_a_filter",
      detail:
        extra.length > 0
          ? `the query holds ${extra.join(" and ")} beside its filters`
          : "the query holds no filter",
    };
  const run = runQueryPlan(p, rows, idField);
  if ("ambiguous" in run) return { why: "ambiguous", detail: run.ambiguous };
  return { rows: run.rows };
}
