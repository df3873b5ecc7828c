/**
 * A query parameter whose value adds leaves to the list envelope and changes nothing else (issue 17 item 2):
 * `meta=total_count` answering `{data, meta: {total_count: 8}}` where the plain list answers `{data}`. Learned by
 * hypothesis, per value: the parameter is the one every answer holding a key no plain list held sends, no answer
 * without it holds such a key, and every answer of one value adds the same keys (`findEnvelopeParam`); the reads,
 * that parameter taken out, are then explained by the query language as any read is; and each leaf the value adds
 * is, in every read of it, one of the counts of that read against the state of its moment: the matches before the
 * page (`total`), the entities on the page (`count`), the entities the plain list of the scope shows
 * (`scope_total`). A leaf no count explains in some read rejects the value (its reads replay, other values are
 * `unlearned_query`); counts every read leaves alike are all kept, and serve answers only where they agree.
 */
import type { Entity, QueryRule } from "../model/model-schema.js";
import type { QueryLeaf } from "../model/query-language.js";
import {
  type EnvelopeCount,
  type EnvelopeMeasures,
  envelopeCountWords,
  planQuery,
  runQueryPlan,
  shownByDefault,
} from "../model/query-plan.js";

type Query = { rules: QueryRule[]; default_filter: { field: string; value: unknown }[] };

/** A 2xx list read as this hypothesis sees it: its query pairs and its JSON answer. */
export interface EnvelopeSample {
  query: [string, string][];
  body: unknown;
}

/** The parameter that adds envelope keys, and per value the top-level keys it adds (sorted). */
export interface EnvelopeParam {
  name: string;
  adds: Map<string, string[]>;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** The answer's top-level keys no plain list answer held, sorted. */
function extraKeys(body: unknown, plainKeys: ReadonlySet<string>): string[] {
  return isObject(body)
    ? Object.keys(body)
        .filter((k) => !plainKeys.has(k))
        .sort()
    : [];
}

/**
 * The one plain-named parameter (no brackets) every answer holding an extra key sends once, whose every value adds
 * one set of keys in every read of it, and without which no answer holds an extra key; null when none, when two fit
 * alike (the recording does not say which adds them), or when no plain list shows the envelope.
 */
export function findEnvelopeParam(
  reads: readonly EnvelopeSample[],
  plainKeys: ReadonlySet<string>,
): EnvelopeParam | null {
  if (plainKeys.size === 0) return null;
  const extras = reads.map((r) => extraKeys(r.body, plainKeys));
  const adding = reads.filter((_, i) => extras[i]!.length > 0);
  if (adding.length === 0) return null;
  const once = (r: EnvelopeSample, n: string) => r.query.filter(([k]) => k === n).length === 1;
  const names = [...new Set(adding[0]!.query.map(([k]) => k))]
    .filter((n) => !/[[\]]/.test(n) && adding.every((r) => once(r, n)))
    .sort();
  const fits: EnvelopeParam[] = [];
  for (const name of names) {
    const adds = new Map<string, string[]>();
    let ok = true;
    reads.forEach((r, i) => {
      const sent = r.query.filter(([k]) => k === name);
      const keys = extras[i]!.join("\u0000");
      if (sent.length === 0) {
        if (keys !== "") ok = false;
        return;
      }
      if (sent.length > 1) {
        if (keys !== "") ok = false;
        return;
      }
      const value = sent[0]![1];
      const prev = adds.get(value);
      if (prev === undefined) adds.set(value, extras[i]!);
      else if (prev.join("\u0000") !== keys) ok = false;
    });
    // A value that adds nothing is no part of this hypothesis (its reads are read as any other).
    for (const [v, keys] of adds) if (keys.length === 0) adds.delete(v);
    if (ok && adds.size > 0) fits.push({ name, adds });
  }
  return fits.length === 1 ? fits[0]! : null;
}

/** The query without the parameter's leaves (the read as its other parameters alone explain it). */
export function withoutParam(leaves: QueryLeaf[], query: [string, string][], name: string): QueryLeaf[] {
  return leaves.filter((l) => query[l.pair]?.[0] !== name);
}

/** How deep under an added key its counts are looked for (`meta.page.total`: 3). */
const MAX_DEPTH = 3;

/** The leaves of an added key by RFC 6901 pointer; `false` when one is no integer (a text, a list). */
function countLeaves(value: unknown, pointer: string, depth: number, out: Map<string, number>): boolean {
  if (isObject(value)) {
    if (depth >= MAX_DEPTH) return false;
    for (const [k, v] of Object.entries(value))
      if (!countLeaves(v, `${pointer}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`, depth + 1, out))
        return false;
    return true;
  }
  if (typeof value !== "number" || !Number.isInteger(value)) return false;
  out.set(pointer, value);
  return true;
}

/** One read of a value of the parameter: its answer, its leaves without the parameter, the state of its moment. */
export interface EnvelopeRead {
  value: string;
  body: unknown;
  leaves: QueryLeaf[];
  base: Entity[];
}

const COUNTS: EnvelopeCount[] = ["total", "count", "scope_total"];

/** A read's counts against the state of its moment under the learned rules; null when the rules do not plan it. */
function measure(query: Query, read: EnvelopeRead): EnvelopeMeasures | null {
  const planned = planQuery(query, read.leaves, read.base.slice(0, 50));
  if ("unlearned" in planned) return null;
  const ran = runQueryPlan(planned.plan, read.base);
  if ("ambiguous" in ran) return null;
  return {
    total: ran.total,
    count: ran.rows.length,
    scope_total: shownByDefault(query.default_filter, read.base).length,
  };
}

/**
 * The envelope rules the reads of each value confirm: every added leaf an integer that is, in every read of the value,
 * one of its counts (some read above 1, as a 0 or 1 fits by chance); the values whose reads confirm none (or that
 * the rules do not plan) are `rejected`.
 */
export function confirmEnvelopeParam(
  param: EnvelopeParam,
  reads: readonly EnvelopeRead[],
  query: Query,
): { rules: QueryRule[]; rejected: Set<string> } {
  const rules: QueryRule[] = [];
  const rejected = new Set<string>();
  for (const [value, keys] of [...param.adds].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const mine = reads.filter((r) => r.value === value);
    const fields = mine.length > 0 ? confirmValue(mine, keys, query) : null;
    if (!fields) {
      rejected.add(value);
      continue;
    }
    const shown = fields
      .map((f) => `${f.pointer.slice(1).replaceAll("/", ".")} (${envelopeCountWords(f.of)})`)
      .join(", ");
    const open = fields.some((f) => f.of.length > 1)
      ? "; where the recording did not tell counts apart, only a read they agree on is answered"
      : "";
    rules.push({
      kind: "envelope",
      path: [param.name],
      value,
      fields,
      explain: `${param.name}=${value} adds ${shown} to the list answer and changes nothing else; confirmed by ${mine.length} read${mine.length === 1 ? "" : "s"}${open}.`,
    });
  }
  return { rules, rejected };
}

function confirmValue(
  reads: readonly EnvelopeRead[],
  keys: string[],
  query: Query,
): { pointer: string; of: EnvelopeCount[] }[] | null {
  const measured: { leaves: Map<string, number>; m: EnvelopeMeasures }[] = [];
  for (const r of reads) {
    const m = measure(query, r);
    if (!m || !isObject(r.body)) return null;
    const leaves = new Map<string, number>();
    for (const k of keys)
      if (!countLeaves(r.body[k], `/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`, 1, leaves)) return null;
    measured.push({ leaves, m });
  }
  const pointers = [...measured[0]!.leaves.keys()];
  if (pointers.length === 0) return null;
  const out: { pointer: string; of: EnvelopeCount[] }[] = [];
  for (const pointer of pointers) {
    if (!measured.every((x) => x.leaves.has(pointer))) return null;
    const values = measured.map((x) => x.leaves.get(pointer)!);
    if (!values.some((v) => v > 1)) return null;
    const of = COUNTS.filter((k) => measured.every((x, i) => x.m[k] === values[i]));
    if (of.length === 0) return null;
    out.push({ pointer, of });
  }
  if (measured.some((x) => x.leaves.size !== pointers.length)) return null;
  return out;
}
