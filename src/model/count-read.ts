/**
 * Reads that count a collection (`GET /todos/count` → `{"count": 4}`): the number of the
 * collection's entities a plain list would show, under the request's query read in the
 * collection's own query language after a prefix (`where={…}` read as the list's
 * `filter={"where": {…}}`). Learn confirms a count against the state of every recorded
 * moment; serve answers it from the episode's state by this one definition.
 */
import type { Collection, Entity } from "./model-schema.js";
import { type QueryLeaf, queryLeaves } from "./query-language.js";
import { planQuery, runQueryPlan } from "./query-plan.js";

/** The number a count answer holds and where, or null when the body is no count. */
export function countOf(body: unknown): { key: string | null; n: number } | null {
  if (typeof body === "number") return Number.isInteger(body) && body >= 0 ? { key: null, n: body } : null;
  if (body === null || typeof body !== "object" || Array.isArray(body)) return null;
  const keys = Object.keys(body);
  if (keys.length !== 1) return null;
  const n = (body as Record<string, unknown>)[keys[0]!];
  return typeof n === "number" && Number.isInteger(n) && n >= 0 ? { key: keys[0]!, n } : null;
}

/**
 * The leading literal paths of a collection's query rules (`[]`, `["filter"]`, `["filter", "where"]`), shortest
 * first: where a query read elsewhere than the list (a count, a write by query) may sit in the list's language.
 */
export function queryPrefixes(query: Collection["query"]): string[][] {
  const out = new Map<string, string[]>([["", []]]);
  for (const r of query?.rules ?? []) {
    const lits: string[] = [];
    for (const seg of r.path) {
      if (typeof seg !== "string" && !("literal" in seg)) break;
      lits.push(typeof seg === "string" ? seg : seg.literal);
      if (lits.length < r.path.length) out.set(lits.join("\u0000"), [...lits]);
    }
  }
  return [...out.values()].sort((a, b) => a.length - b.length || (a.join("/") < b.join("/") ? -1 : 1));
}

/** The request's query leaves read under `prefix` (the path the collection's list puts them under). */
export function prefixedLeaves(query: [string, string][], prefix: string[]): QueryLeaf[] {
  return queryLeaves(query).map((l) => ({ ...l, path: [...prefix, ...l.path] }));
}

/**
 * How many of `entities` the count read with `query` counts, or the query parameters the collection's query
 * language cannot read (a count is of every matching entity: pages do not cut it).
 */
export function countEntities(
  c: Collection,
  entities: Entity[],
  query: [string, string][],
  prefix: string[],
): { n: number } | { unlearned: string[] } {
  const rules = c.query ?? { rules: [], default_filter: [] };
  const planned = planQuery(rules, prefixedLeaves(query, prefix), entities.slice(0, 50));
  if ("unlearned" in planned)
    return { unlearned: [...new Set(planned.unlearned.map((l) => query[l.pair]![0]))] };
  // A value that adds a list envelope's leaves (`meta=total_count`) was never seen on a count read.
  const adds = planned.plan.envelope ?? [];
  if (adds.length > 0) return { unlearned: [...new Set(adds.map((a) => query[a.pair]![0]))] };
  const ran = runQueryPlan(planned.plan, entities);
  if ("ambiguous" in ran) return { unlearned: [...new Set(query.map(([k]) => k))] };
  return { n: ran.total };
}
