/**
 * A small parse of a JavaScript regular expression (no flags, as capture
 * compiles a scenario's pattern) into groups, alternatives and atoms with
 * their quantifiers: just enough structure for `regexRisk` to see nesting.
 * The pattern has already compiled, so the parse never has to report errors.
 */

/** A quantifier: its text, and how few and how many times it repeats (`max` Infinity when open). */
export interface Quantifier {
  src: string;
  min: number;
  max: number;
}

/** One element of a pattern: a character matcher, an assertion, a back-reference or a group; `src` leaves out the quantifier. */
export type RegexNode =
  | { kind: "char" | "assert" | "backref"; src: string; quant?: Quantifier }
  | { kind: "group"; src: string; lookaround: boolean; branches: RegexNode[][]; quant?: Quantifier };

const QUANT = /^(?:([*+?])|\{(\d+)(?:(,)(\d*))?\})(\??)/;

function quantifierAt(p: string, i: number): Quantifier | undefined {
  const m = QUANT.exec(p.slice(i));
  if (!m) return undefined;
  const [src, sym, lo, comma, hi] = m;
  if (sym === "*") return { src, min: 0, max: Infinity };
  if (sym === "+") return { src, min: 1, max: Infinity };
  if (sym === "?") return { src, min: 0, max: 1 };
  const min = Number(lo);
  return { src, min, max: comma === undefined ? min : hi === "" ? Infinity : Number(hi) };
}

/** The end (exclusive) of the escape starting at `p[i] === "\\"`, and its kind. */
function escapeAt(p: string, i: number): { end: number; kind: "char" | "assert" | "backref" } {
  const c = p[i + 1] ?? "";
  if (c === "b" || c === "B") return { end: i + 2, kind: "assert" };
  if (/[1-9]/.test(c))
    return { end: i + 1 + (/^\d+/.exec(p.slice(i + 1))?.[0].length ?? 1), kind: "backref" };
  if (c === "k" && p[i + 2] === "<" && p.includes(">", i))
    return { end: p.indexOf(">", i) + 1, kind: "backref" };
  if (c === "x" && /^[0-9a-fA-F]{2}/.test(p.slice(i + 2))) return { end: i + 4, kind: "char" };
  if (c === "u" && /^[0-9a-fA-F]{4}/.test(p.slice(i + 2))) return { end: i + 6, kind: "char" };
  if (c === "c" && /^[A-Za-z]/.test(p.slice(i + 2))) return { end: i + 3, kind: "char" };
  return { end: i + 2, kind: "char" };
}

/** The end (exclusive) of the character class starting at `p[i] === "["`. */
function classEnd(p: string, i: number): number {
  let j = i + 1;
  if (p[j] === "^") j++;
  for (; j < p.length; j++) {
    if (p[j] === "\\") j++;
    else if (p[j] === "]") return j + 1;
  }
  return p.length;
}

/** Groups nested deeper than this are not parsed: `parseRegex` returns undefined. */
export const MAX_GROUP_DEPTH = 64;

function parseBranches(p: string, start: number, depth: number): { branches: RegexNode[][]; end: number } {
  if (depth > MAX_GROUP_DEPTH) throw new RangeError("nested too deep");
  const branches: RegexNode[][] = [[]];
  let i = start;
  while (i < p.length && p[i] !== ")") {
    const c = p[i] as string;
    if (c === "|") {
      branches.push([]);
      i++;
      continue;
    }
    let node: RegexNode;
    if (c === "(") {
      const prefix = /^\(\?(?::|=|!|<=|<!|<[^>]*>)?/.exec(p.slice(i))?.[0] ?? "(";
      const inner = parseBranches(p, i + prefix.length, depth + 1);
      const end = Math.min(inner.end + 1, p.length);
      node = {
        kind: "group",
        src: p.slice(i, end),
        lookaround: /^\(\?(?:=|!|<=|<!)/.test(prefix),
        branches: inner.branches,
      };
      i = end;
    } else if (c === "[") {
      const end = classEnd(p, i);
      node = { kind: "char", src: p.slice(i, end) };
      i = end;
    } else if (c === "\\") {
      const { end, kind } = escapeAt(p, i);
      node = { kind, src: p.slice(i, end) };
      i = end;
    } else {
      node = { kind: c === "^" || c === "$" ? "assert" : "char", src: c };
      i++;
    }
    const quant = quantifierAt(p, i);
    if (quant) {
      node.quant = quant;
      i += quant.src.length;
    }
    branches[branches.length - 1]?.push(node);
  }
  return { branches, end: i };
}

/** Parses a pattern that compiles into its alternatives, each a list of nodes; undefined past {@link MAX_GROUP_DEPTH}. */
export function parseRegex(pattern: string): RegexNode[][] | undefined {
  try {
    return parseBranches(pattern, 0, 0).branches;
  } catch (e) {
    if (e instanceof RangeError) return undefined;
    throw e;
  }
}
