/**
 * A query's values against the domains the recording taught (`query.domains`, docs/specs/learn/spec.md "Query
 * value domains"): a value of a kind the app was recorded refusing gets that refusal; a value the evidence leaves
 * open (between the accepted and the refused ones, or a refusal whose answer depends on what the recording never
 * showed) is named as such, so serve explains it instead of answering the list. Shared by learn and serve.
 */
import type { CannedResponse, QueryDomain } from "./model-schema.js";
import { leafValues, type QueryLeaf, type QueryScalar } from "./query-language.js";

/** A leaf's verdict: refused with the recorded answer, or left open with the reason. */
export type DomainVerdict =
  | { refused: CannedResponse; leaf: QueryLeaf; domain: QueryDomain }
  | { open: string; leaf: QueryLeaf };

/** True for an integer, or text spelling one (`-3`, `12`). */
export function isIntegerValue(v: QueryScalar): boolean {
  return typeof v === "number" ? Number.isInteger(v) : typeof v === "string" && /^-?\d{1,15}$/.test(v);
}

const samePath = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** The shape of a non-integer element: a word (`abc`, `x_1`), empty, a decimal number, or other text (`1 2`, `*`, `1e0`). */
export function elementShape(v: QueryScalar): "word" | "empty" | "decimal" | "other" {
  const t = typeof v === "string" ? v : String(v);
  if (t === "") return "empty";
  if (/^-?\d+\.\d+$/.test(t)) return "decimal";
  return /^[A-Za-z_][\w-]*$/.test(t) ? "word" : "other";
}

/** The refusal of a value, or the open verdict when the recorded refusal named the value it refused. */
function refusal(d: QueryDomain, answer: CannedResponse, leaf: QueryLeaf): DomainVerdict {
  if (d.kind !== "past_last_page" && d.names_value)
    return {
      open: `the app's recorded refusal of ${leaf.path.join(".")} repeats the value it refused, so its answer to this value was never recorded`,
      leaf,
    };
  return { refused: answer, leaf, domain: d };
}

/** What one domain says of one leaf: refused, open, or nothing (the value is inside it, or not its kind). */
function judge(d: QueryDomain, leaf: QueryLeaf): DomainVerdict | null {
  if (d.kind === "past_last_page" || !samePath(d.path, leaf.path)) return null;
  const name = leaf.path.join(".");
  if (d.kind === "integers") {
    const elements = leafValues(leaf.value, d.separator);
    const at = elements.findIndex((v) => !isIntegerValue(v));
    if (at < 0) return null;
    // A repeated key, or an element of a shape no refusal held: what the app makes of it was never recorded.
    const shape = elementShape(elements[at]!);
    if (Array.isArray(leaf.value) || (d.shapes && !d.shapes.includes(shape)))
      return {
        open: Array.isArray(leaf.value)
          ? `${name} is sent more than once, which no recorded read did`
          : `${name} was refused for a non-integer ${d.shapes!.join(" or ")}, and this one is ${shape === "other" ? "other text" : `a${shape === "empty" ? "n" : ""} ${shape}`}, which no recorded read sent`,
        leaf,
      };
    if (d.at === null || d.at === at) return refusal(d, d.answer, leaf);
    return {
      open: `${name} was refused for a non-integer at position ${d.at} of its value; this one has it at ${at}, and the refusal names the position`,
      leaf,
    };
  }
  const elements = leafValues(leaf.value, null);
  if (elements.length !== 1 || !isIntegerValue(elements[0]!)) return null;
  const v = Number(elements[0]);
  if (v >= d.min && v <= d.max) return null;
  const side = v < d.min ? d.below : d.above;
  if (side === null) return null;
  if (v < d.min ? v <= side.from : v >= side.from) return refusal(d, side.answer, leaf);
  const [lo, hi] = v < d.min ? [side.from, d.min] : [d.max, side.from];
  return {
    open: `${name}=${v} lies between ${lo} and ${hi}: the recording ${v < d.min ? `refused ${lo} and accepted ${hi}` : `accepted ${lo} and refused ${hi}`}, and never showed where between them the app starts refusing`,
    leaf,
  };
}

/**
 * The verdicts of a query's leaves under the domains (those inside every domain give none). One refusal alone is
 * the app's answer; several (the app would name them all at once) or any open one leave the answer open.
 */
export function domainVerdicts(domains: readonly QueryDomain[], leaves: QueryLeaf[]): DomainVerdict[] {
  const out: DomainVerdict[] = [];
  const paths = leaves.map((l) => JSON.stringify(l.path));
  for (const [i, leaf] of leaves.entries())
    for (const d of domains) {
      // A key sent twice (`cat=abc&cat=2`): which one the app reads was never recorded.
      const twice = paths.indexOf(paths[i]!) !== paths.lastIndexOf(paths[i]!);
      const v =
        twice && d.kind !== "past_last_page" && samePath(d.path, leaf.path)
          ? { open: `${leaf.path.join(".")} is sent more than once, which no recorded read did`, leaf }
          : judge(d, leaf);
      if (v) {
        out.push(v);
        break;
      }
    }
  return out;
}

/**
 * What a past-last-page domain says of a read whose page starts at `offset` among `total` matches: refused when it
 * starts past a non-empty result, open when the result is empty (the recording never showed a page of nothing).
 */
export function pageVerdict(
  domains: readonly QueryDomain[],
  leaves: QueryLeaf[],
  offset: number,
  total: number,
): DomainVerdict | null {
  for (const d of domains) {
    if (d.kind !== "past_last_page") continue;
    const leaf = leaves.find((l) => samePath(l.path, d.path));
    if (!leaf || offset === 0) continue;
    if (total > 0 && offset >= total) return { refused: d.answer, leaf, domain: d };
    if (total === 0)
      return {
        open: `${d.path.join(".")} asks a later page of no matches: the recording refused pages past the last match, but never showed one past an empty result`,
        leaf,
      };
  }
  return null;
}
