/**
 * The guard on a served write's query: the twin applies a write's recorded effect only to a query its recorded
 * writes sent (`WriteRule.query`). Another parameter, another value, or the lack of one every recorded write sent
 * may make the app do another thing (WordPress trashes a post a `DELETE` without `force=true` asks it to), so it
 * is named, as a read's unknown parameter is, and nothing is written.
 */
import type { WriteRule } from "../../model/model-schema.js";

/** One query parameter of a write the recording does not tell the effect of, with what the recording sent. */
export interface UnlearnedWriteParam {
  param: string;
  seen: string[];
  explain: string;
}

/**
 * The parameters of `query` that differ from every recorded write of `rule` (a name or value never recorded, or a
 * parameter every recorded write sent and this one lacks), each once, in the request's order then the rule's.
 * `skip` names parameters that are never the write's (a credential sent in the query).
 */
export function unlearnedWriteQuery(
  rule: WriteRule,
  query: readonly [string, string][],
  skip: ReadonlySet<string> = new Set(),
): UnlearnedWriteParam[] {
  const recorded = new Map((rule.query ?? []).map((q) => [q.param, q]));
  const where = `${rule.tool_name}'s recorded writes`;
  const out = new Map<string, UnlearnedWriteParam>();
  for (const [k, v] of query) {
    if (skip.has(k) || out.has(k)) continue;
    const q = recorded.get(k);
    if (!q) out.set(k, { param: k, seen: [], explain: `${where} never sent "${k}"` });
    else if (!q.redacted && !q.values.includes(v))
      out.set(k, {
        param: k,
        seen: q.values,
        explain: `${where} sent "${k}" only as ${q.values.map((s) => JSON.stringify(s)).join(", ")}; what the app does with ${JSON.stringify(v)} was never recorded`,
      });
  }
  const sent = new Set(query.map(([k]) => k));
  for (const q of rule.query ?? [])
    if (!q.absent && !sent.has(q.param) && !skip.has(q.param))
      out.set(q.param, {
        param: q.param,
        seen: q.values,
        explain: `every one of ${where} sent "${q.param}"${q.redacted ? "" : ` (${q.values.map((s) => JSON.stringify(s)).join(", ")})`}; what the app does without it was never recorded`,
      });
  return [...out.values()];
}
