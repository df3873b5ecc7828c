/**
 * Groups of filter conditions: an array under a group token (`or`, `$or`, `and`, `$and`) whose elements are
 * branches, each the conjunction of its own conditions (`filter={"where":{"or":[{"id":1},{"id":3}]}}`, or
 * `filter[where][or][0][id]=1&filter[where][or][1][id]=3`). A leaf under such a group carries the steps down to
 * it (which group, which branch, whether any or all branches must hold); the conditions then form a tree that
 * learn tests its hypotheses with and serve answers with alike. The token is read by its spelling, as operators
 * are; the recorded answers confirm or refuse the reading (src/learn/query-hypotheses.ts).
 */
import { fieldValue, type QueryOp, type QueryScalar, valuePasses } from "./query-language.js";

/** Whether a group holds when any of its branches does (`or`) or only when all of them do (`and`). */
export type GroupMode = "any" | "all";

/** One step from a group down to one of its branches. */
export interface BranchStep {
  /** The query path up to and including the group token (`["filter","where","or"]`), as JSON text. */
  group: string;
  branch: number;
  mode: GroupMode;
}

/** One filter condition, with the group steps it sits under (none for a condition of the query itself). */
export interface GroupedFilter {
  field: string;
  op: QueryOp;
  values: QueryScalar[];
  within?: BranchStep[];
}

const GROUP_SPELLINGS: Record<string, GroupMode> = { or: "any", and: "all" };

/** The mode a group token spells (`or`, `$or`, `_or` → any; `and`, `$and`, `_and` → all), or null. */
export function groupToken(token: string): GroupMode | null {
  const m = /^[$_]?(or|and)$/i.exec(token);
  return m ? GROUP_SPELLINGS[m[1]!.toLowerCase()]! : null;
}

const INDEX = /^\d{1,4}$/;

/** True when position `i` of a path is a branch index: an array index right after a group token. */
export function isBranchAt(path: readonly string[], i: number): boolean {
  return i > 0 && INDEX.test(path[i]!) && groupToken(path[i - 1]!) !== null;
}

/** The group steps among the first `upTo` names of a path (the names before its field). */
export function branchSteps(path: readonly string[], upTo: number = path.length): BranchStep[] {
  const out: BranchStep[] = [];
  for (let i = 1; i < upTo; i++)
    if (isBranchAt(path, i))
      out.push({
        group: JSON.stringify(path.slice(0, i)),
        branch: Number(path[i]),
        mode: groupToken(path[i - 1]!)!,
      });
  return out;
}

/** True when a leaf's path lies inside the group a step names (any of its branches). */
export function underGroup(path: readonly string[], group: string): boolean {
  const prefix = JSON.parse(group) as string[];
  return (
    path.length > prefix.length + 1 &&
    prefix.every((p, i) => p === path[i]) &&
    isBranchAt(path, prefix.length)
  );
}

function passesAt(e: Record<string, unknown>, filters: readonly GroupedFilter[], depth: number): boolean {
  const groups = new Map<string, { mode: GroupMode; branches: Map<number, GroupedFilter[]> }>();
  for (const f of filters) {
    const step = f.within?.[depth];
    if (!step) {
      if (!valuePasses(fieldValue(e, f.field), f.op, f.values)) return false;
      continue;
    }
    const g = groups.get(step.group) ?? { mode: step.mode, branches: new Map() };
    groups.set(step.group, g);
    g.branches.set(step.branch, [...(g.branches.get(step.branch) ?? []), f]);
  }
  for (const g of groups.values()) {
    const held = [...g.branches.values()].map((b) => passesAt(e, b, depth + 1));
    if (g.mode === "any" ? !held.some(Boolean) : !held.every(Boolean)) return false;
  }
  return true;
}

/**
 * Whether an entity passes a query's filters: every condition of the query itself, and every group (any or all of
 * its branches, each branch the conjunction of its conditions and inner groups).
 */
export function passesFilters(e: Record<string, unknown>, filters: readonly GroupedFilter[]): boolean {
  return passesAt(e, filters, 0);
}

/** The groups (their path text) the filters sit under, outermost first, each once. */
export function groupsOf(filters: readonly GroupedFilter[]): string[] {
  return [...new Set(filters.flatMap((f) => (f.within ?? []).map((s) => s.group)))];
}
