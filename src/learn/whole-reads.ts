/**
 * Reads that show a scope whole besides a plain list, and the order the state walk takes a write-free run of reads
 * in (issue 17 item 1):
 * - **Ordering-only reads**: a list read whose every parameter a confirmed sort rule of its collection takes (a
 *   sort, its companion direction), with no filter, search, page, cursor or projection among them, lists what the
 *   plain list lists, only in another order (`filter[order]=title ASC`). A first walk's rules confirm the sort; a
 *   second walk takes such reads, before any plain list of the scope, as whole (`learn.ts`, `state-walk.ts`: as
 *   `sorted-whole-reads.ts` does for a read its own answer proves sorted), kept only when its rules confirm the
 *   sort still.
 * - **Reads between two writes saw one state** (`state-walk.ts` `judgeUnjudged`): a query read of a scope not listed
 *   whole yet is judged against the scope's first whole list later in the same run of reads (a new user opening with
 *   `?tag=home`), when it started after the last write's answer ended.
 * Rejected: a read with any other parameter (`filter[order]=id DESC&filter[limit]=2`), a sort no read confirmed, a
 * sort inferred from a sibling (never proven here), a read past a write (any method but GET/HEAD/OPTIONS).
 */
import type { Collection, Entity } from "../model/model-schema.js";
import { queryLeaves } from "../model/query-language.js";
import { keepsWhole, planQuery } from "../model/query-plan.js";

type Query = NonNullable<Collection["query"]>;
/** The sort rules of one collection, as a query planned on their own. */
export type OrderingQuery = Query;

/** A collection's own confirmed sort rules (never an inferred one) as a query of their own; null when it has none. */
export function orderingQuery(query: Collection["query"]): Query | null {
  const rules = (query?.rules ?? []).filter((r) => r.kind === "sort" && r.inferred === undefined);
  return rules.length > 0 ? { rules, default_filter: [] } : null;
}

/**
 * True when the read's parameters are only a sort (and its direction) the ordering query confirms, naming fields of
 * the entities it answered: the answer is the plain list in another order.
 */
export function sortsOnlyByRule(ordering: Query, query: [string, string][], answered: Entity[]): boolean {
  if (query.length === 0) return false;
  const planned = planQuery(ordering, queryLeaves(query), answered);
  if ("unlearned" in planned) return false;
  const p = planned.plan;
  return p.sort !== null && p.sort.length > 0 && keepsWhole(p);
}
