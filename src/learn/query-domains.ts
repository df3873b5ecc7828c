/**
 * The values a list read's query parameters may take, learned from the recording's refused list reads (a 400 to
 * `per_page=0`, `categories=abc`, a page past the last), so the twin answers such a value with the app's recorded
 * refusal instead of a list the app never gave (docs/specs/learn/spec.md "Query value domains"). A refused read
 * teaches only when one of its parameters alone holds a value no accepted read held, at a path accepted reads did
 * use: that parameter is what was refused. Its kind is told by the accepted values beside it:
 * - `integers`: every accepted value was integers (a list's elements at its separator), the refused one holds a
 *   non-integer; the refusal is kept for the position of that element (the answer may name it: `categories[0]`);
 * - `past_last_page`: a page leaf whose refused page started past the last match (of a non-empty result) while every
 *   accepted page started within the matches (or on none);
 * - `range`: every accepted value one integer, the refused one an integer below the least or above the greatest
 *   accepted (every value from it on outward is refused so; those between stay open).
 * Rejected: an attribution to two parameters (the evidence does not say which was refused), refusals of one kind
 * and path answered differently, a refused integer between accepted ones (no interval), a page refusal at a path
 * whose accepted reads showed a page past the matches answered.
 */
import type { CannedResponse, QueryDomain } from "../model/model-schema.js";
import { elementShape, isIntegerValue } from "../model/query-domain.js";
import { leafValues, type QueryLeaf, type QueryScalar, queryText } from "../model/query-language.js";

/** Where a read's page starts against its matches: past the last, within them, or on none (null: no page). */
export type PageStand = "past" | "within" | "empty" | null;

/** An accepted (2xx) list read with a query: its leaves and where its page stood. */
export interface AcceptedQuery {
  leaves: QueryLeaf[];
  stand: PageStand;
}

/** A refused (4xx) list read with a query: its leaves, its answer, where its page would have stood, and its URL. */
export interface RefusedQuery {
  leaves: QueryLeaf[];
  answer: CannedResponse;
  stand: PageStand;
  url: string;
}

type Evidence =
  | { kind: "integers"; at: number; element: QueryScalar; refused: RefusedQuery }
  | { kind: "past"; refused: RefusedQuery }
  | { kind: "below" | "above"; n: number; refused: RefusedQuery }
  | { kind: "between" };

const keyOf = (path: string[]) => JSON.stringify(path);
const valueText = (v: QueryScalar | QueryScalar[]) =>
  Array.isArray(v) ? JSON.stringify(v.map(queryText)) : queryText(v);
const sameAnswer = (a: CannedResponse, b: CannedResponse) =>
  a.status === b.status &&
  a.content_type === b.content_type &&
  JSON.stringify(a.body) === JSON.stringify(b.body);
const isInt = (v: QueryScalar | QueryScalar[]) => !Array.isArray(v) && isIntegerValue(v);

/**
 * True when a refusal's body repeats the refused value as a token of its own (`{"limit":-1}` names -1; "between 1
 * and 100" does not name 0): such an answer is the app's to that value only.
 */
function names(answer: CannedResponse, value: string): boolean {
  if (value === "") return false;
  const text = typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body ?? null);
  const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?<![\\w.-])${escaped}(?![\\w.])`).test(text);
}

/** The one answer every piece of evidence gave, or null when they differ. */
function oneAnswer(refused: RefusedQuery[]): CannedResponse | null {
  const first = refused[0]?.answer;
  return first && refused.every((r) => sameAnswer(r.answer, first)) ? first : null;
}

function cites(refused: RefusedQuery[]): string {
  const urls = [...new Set(refused.map((r) => r.url))];
  return `${urls.slice(0, 3).join("; ")}${urls.length > 3 ? `; and ${urls.length - 3} more` : ""}`;
}

/**
 * The domains the refused reads teach, given the accepted reads, the separator each path's filter splits lists at
 * (`separators`, by the path as JSON) and which paths are page numbers (`pagePaths`).
 */
export function learnQueryDomains(
  accepted: AcceptedQuery[],
  refused: RefusedQuery[],
  separators: ReadonlyMap<string, string>,
  pagePaths: readonly string[][],
): QueryDomain[] {
  const seen = new Map<
    string,
    { path: string[]; values: (QueryScalar | QueryScalar[])[]; texts: Set<string> }
  >();
  for (const a of accepted)
    for (const l of a.leaves) {
      const k = keyOf(l.path);
      const s = seen.get(k) ?? { path: l.path, values: [], texts: new Set<string>() };
      s.values.push(l.value);
      s.texts.add(valueText(l.value));
      seen.set(k, s);
    }
  const pages = new Set(pagePaths.map(keyOf));
  const evidence = new Map<string, Evidence[]>();
  for (const r of refused) {
    const odd = r.leaves.filter((l) => !seen.get(keyOf(l.path))?.texts.has(valueText(l.value)));
    if (odd.length !== 1) continue;
    const leaf = odd[0]!;
    const k = keyOf(leaf.path);
    const values = seen.get(k)?.values;
    if (!values) continue;
    const sep = separators.get(k) ?? null;
    const ev = evidence.get(k) ?? [];
    evidence.set(k, ev);
    const elements = leafValues(leaf.value, sep);
    if (values.every((v) => leafValues(v, sep).every(isIntegerValue)) && !elements.every(isIntegerValue)) {
      const at = elements.findIndex((v) => !isIntegerValue(v));
      ev.push({ kind: "integers", at, element: elements[at]!, refused: r });
    } else if (values.every(isInt) && isInt(leaf.value)) {
      const n = Number(leaf.value);
      const nums = values.map(Number);
      if (pages.has(k) && r.stand === "past") ev.push({ kind: "past", refused: r });
      else if (n < Math.min(...nums)) ev.push({ kind: "below", n, refused: r });
      else if (n > Math.max(...nums)) ev.push({ kind: "above", n, refused: r });
      else ev.push({ kind: "between" });
    }
  }
  const out: QueryDomain[] = [];
  for (const [k, ev] of [...evidence].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const { path, values } = seen.get(k)!;
    const name = path.join(".");
    const ints = ev.flatMap((e) => (e.kind === "integers" ? [e] : []));
    const intAnswer = oneAnswer(ints.map((e) => e.refused));
    if (ints.length > 0 && intAnswer) {
      const ats = new Set(ints.map((e) => e.at));
      out.push({
        kind: "integers",
        path,
        separator: separators.get(k) ?? null,
        at: ats.size === 1 ? ints[0]!.at : null,
        shapes: [...new Set(ints.map((e) => elementShape(e.element)))].sort(),
        ...(ints.some((e) => names(e.refused.answer, queryText(e.element)))
          ? { names_value: true as const }
          : {}),
        answer: intAnswer,
        explain: `${name} held only integers in every accepted read, and a value holding a non-integer was refused with ${intAnswer.status} (${cites(ints.map((e) => e.refused))})`,
      });
    }
    const past = ev.flatMap((e) => (e.kind === "past" ? [e.refused] : []));
    const pastAnswer = oneAnswer(past);
    const answeredPast = accepted.some(
      (a) => a.stand === "past" && a.leaves.some((l) => keyOf(l.path) === k),
    );
    if (past.length > 0 && pastAnswer && !answeredPast)
      out.push({
        kind: "past_last_page",
        path,
        answer: pastAnswer,
        explain: `${name} asking a page past the last match was refused with ${pastAnswer.status} (${cites(past)}), and every accepted page started within the matches`,
      });
    if (ev.some((e) => e.kind === "between")) continue;
    const side = (kind: "below" | "above") => {
      const es = ev.flatMap((e) => (e.kind === kind ? [e] : []));
      const answer = oneAnswer(es.map((e) => e.refused));
      if (es.length === 0 || !answer) return null;
      const ns = es.map((e) => e.n);
      return {
        from: kind === "below" ? Math.max(...ns) : Math.min(...ns),
        answer,
        refused: es.map((e) => e.refused),
        names: es.some((e) => names(e.refused.answer, String(e.n))),
      };
    };
    const below = side("below");
    const above = side("above");
    if (!below && !above) continue;
    const nums = values.map(Number);
    const [min, max] = [Math.min(...nums), Math.max(...nums)];
    out.push({
      kind: "range",
      path,
      min,
      max,
      below: below ? { from: below.from, answer: below.answer } : null,
      above: above ? { from: above.from, answer: above.answer } : null,
      ...(below?.names || above?.names ? { names_value: true as const } : {}),
      explain: `${name} was accepted from ${min} to ${max}${below ? `, refused at ${below.from} and below` : ""}${above ? `, refused at ${above.from} and above` : ""} (${cites([...(below?.refused ?? []), ...(above?.refused ?? [])])})`,
    });
  }
  return out;
}
