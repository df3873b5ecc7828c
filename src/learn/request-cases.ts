/**
 * Fields of a write that depend on one value of its request (issue 10 item 2, creates of every shape): Jupyter's
 * `POST /api/contents/{dir}` with `{type: "file", ext: ".txt"}` makes `untitled.txt` with text content, and with
 * `{type: "notebook"}` makes `Untitled.ipynb` with a notebook's JSON, so no one rule explains their name, content,
 * format or size, and the write was withheld as conflicting. When one request field tells the observations apart —
 * every success sent it, as a short token or a boolean, with two values or more, and it names a field of the
 * collection that several entities share a value of (a kind: `type: file`, never a title) — and every field no rule explains
 * over all of them is explained, value by value, by the writes that sent that value, those fields become `cases`
 * rules keyed by it. The twin answers a recorded value by its own rule and any other value (or none) with an
 * explained miss. Refused when two request fields would each tell the cases apart: the recording does not say
 * which one the app reads.
 */
import type { FieldRule } from "../model/model-schema.js";
import { canonicalJsonCompact } from "../util/canonical-json.js";
import { isCredentialName } from "../util/credential-name.js";
import { pointerOf } from "../util/json-pointer.js";
import { type FieldContext, inferFieldRule } from "./infer-field-rule.js";
import { isKindValue } from "./value-kinds.js";

/**
 * The request keys (top level) every context sent as a kind value, with two values or more, that name a field of
 * the collection several entities share a value of (`categories`).
 */
function discriminators(contexts: FieldContext[], categories: ReadonlySet<string>): string[] {
  const first = contexts[0]?.request;
  if (!first) return [];
  return Object.keys(first)
    .filter((k) => categories.has(k) && !isCredentialName(k))
    .filter((k) => {
      const values = contexts.map((c) =>
        c.request && Object.hasOwn(c.request, k) ? c.request[k] : undefined,
      );
      return values.every(isKindValue) && new Set(values.map((v) => canonicalJsonCompact(v))).size >= 2;
    })
    .sort();
}

/** The contexts grouped by the value each sent at `key` (canonical JSON), in the order the values were first sent. */
function groupsBy(contexts: FieldContext[], key: string): Map<string, FieldContext[]> {
  const out = new Map<string, FieldContext[]>();
  for (const c of contexts) {
    const v = canonicalJsonCompact(c.request![key]);
    out.set(v, [...(out.get(v) ?? []), c]);
  }
  return out;
}

/** Each field's `cases` rule under `key`, or null when some value's writes leave a field unexplained. */
function casesUnder(
  key: string,
  fields: string[],
  contexts: FieldContext[],
  windowMs: number,
): Map<string, FieldRule> | null {
  const groups = [...groupsBy(contexts, key)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const out = new Map<string, FieldRule>();
  for (const f of fields) {
    const cases: { value: string; rule: FieldRule }[] = [];
    for (const [value, group] of groups) {
      const verdict = inferFieldRule(f, group, windowMs);
      if (!verdict.ok) return null;
      cases.push({ value, rule: verdict.rule });
    }
    out.set(f, { kind: "cases", pointer: pointerOf(key), cases });
  }
  return out;
}

/** How the fields no one rule explains are explained by one request value, or why they are not. */
export type RequestCases =
  | { ok: true; pointer: string; rules: Map<string, FieldRule> }
  | { ok: false; ambiguous: string[] | null };

/**
 * The `cases` rule of each of `fields` (the fields of a write no one rule explains over `contexts`), keyed by the
 * one request field whose values tell them apart; `ambiguous` names the keys when two or more would.
 */
export function requestCases(
  fields: string[],
  contexts: FieldContext[],
  windowMs: number,
  categories: ReadonlySet<string>,
): RequestCases {
  if (fields.length === 0 || contexts.length < 2) return { ok: false, ambiguous: null };
  const found: { key: string; rules: Map<string, FieldRule> }[] = [];
  for (const key of discriminators(contexts, categories)) {
    const rules = casesUnder(key, fields, contexts, windowMs);
    if (rules) found.push({ key, rules });
  }
  if (found.length === 1) return { ok: true, pointer: pointerOf(found[0]!.key), rules: found[0]!.rules };
  return { ok: false, ambiguous: found.length > 1 ? found.map((f) => f.key) : null };
}

/**
 * The fields one rule explained over every write, re-judged under the cases' key once one tells the writes apart: a
 * field whose rule in each value's own writes differs from the one rule becomes a `cases` rule too (session-6 review
 * H3: Jupyter's name was one rule, `"untitled" + ext` else `Untitled.ipynb`, whose fallback only notebooks showed, so
 * a file sent without `ext` was named `Untitled.ipynb` and a notebook sent `ext: ".txt"` `untitled.txt`). A field some
 * value's writes leave unexplained keeps the one rule, which explains them all.
 */
export function refineUnderCases(
  pointer: string,
  rules: ReadonlyMap<string, FieldRule>,
  contexts: FieldContext[],
  windowMs: number,
): Map<string, FieldRule> {
  const key = pointer.slice(1);
  const out = new Map<string, FieldRule>();
  for (const [f, rule] of rules) {
    if (rule.kind === "cases" || f === key) continue;
    const per = casesUnder(key, [f], contexts, windowMs)?.get(f);
    if (per?.kind !== "cases") continue;
    const whole = canonicalJsonCompact(rule);
    if (per.cases.some((c) => canonicalJsonCompact(c.rule) !== whole)) out.set(f, per);
  }
  return out;
}
