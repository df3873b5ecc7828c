/**
 * Totals a list read's answer carries in its headers (`X-WP-Total: 3`, `X-WP-TotalPages: 2`,
 * `X-Total-Count`), learned by hypothesis: a header whose integer value, in every list read the state
 * serves, is the number of entities matching the read before its page (`total`) — or the number of
 * pages of the read's page size (`pages`: one page when the read sets no size, as the twin then
 * answers every match) — is kept, so serve's answers keep it in step with the state. A header some
 * read lacks, or one value that fits neither, keeps nothing.
 */
import type { Collection, Entity } from "../model/model-schema.js";
import { pageCount } from "../model/page-count.js";
import { planQuery, runQueryPlan } from "../model/query-plan.js";
import { listEntities } from "./collections.js";
import type { Observation } from "./endpoint-index.js";
import type { QueryRead } from "./query-hypotheses.js";

type TotalHeader = NonNullable<Collection["total_headers"]>[number];
type Query = NonNullable<Collection["query"]>;

/** A state-served list read: its total before the page, its page size, and its integer headers by name. */
interface Measured {
  total: number;
  limit: number | null;
  headers: Map<string, { name: string; n: number }>;
}

/** Per state-served list read, what it measured; null when one cannot be measured. */
function measured(
  reads: Observation[],
  queries: Map<Observation, QueryRead>,
  query: Query,
  itemsKey: string | null,
): Measured[] | null {
  const out: Measured[] = [];
  for (const o of reads) {
    let total: number;
    let limit: number | null = null;
    if (o.query.length === 0) {
      const got = listEntities(o.response.kind === "json" ? o.response.value : undefined, itemsKey);
      if (!got) return null;
      total = got.entities.length;
    } else {
      const read = queries.get(o);
      if (!read) return null;
      const planned = planQuery(query, read.leaves, read.base.slice(0, 50) as Entity[]);
      if ("unlearned" in planned) return null;
      const ran = runQueryPlan(planned.plan, read.base);
      if ("ambiguous" in ran) return null;
      total = ran.total;
      limit = planned.plan.limit;
    }
    const headers = new Map<string, { name: string; n: number }>();
    for (const h of o.record.response?.headers ?? [])
      if (/^\d+$/.test(h.value.trim()))
        headers.set(h.name.toLowerCase(), { name: h.name, n: Number(h.value) });
    out.push({ total, limit, headers });
  }
  return out;
}

/** The total headers every state-served list read confirms, by header name. */
export function learnTotalHeaders(
  reads: Observation[],
  queries: Map<Observation, QueryRead>,
  query: Query,
  itemsKey: string | null,
): TotalHeader[] {
  const ok = reads.filter((o) => o.status >= 200 && o.status < 300);
  const rows = ok.length > 0 ? measured(ok, queries, query, itemsKey) : null;
  if (!rows) return [];
  const out: TotalHeader[] = [];
  for (const [key, first] of [...rows[0]!.headers].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (key === "content-length" || !rows.every((r) => r.headers.has(key))) continue;
    const value = (r: Measured): number => r.headers.get(key)!.n;
    if (rows.every((r) => value(r) === r.total)) out.push({ name: first.name, of: "total" });
    else if (rows.every((r) => value(r) === pageCount(r.total, r.limit)))
      out.push({ name: first.name, of: "pages" });
  }
  return out;
}
