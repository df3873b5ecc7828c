/**
 * Patterns that backtrack for ever (`(a+)+$`, `(a|a)*$`, `(\w+)*x`) are
 * refused when the file is read, so the author hears why instead of a step
 * timing out at capture. Conservative: only two shapes are judged, each
 * where it is clearly exponential, and a repeated group opened or closed by a
 * separator nothing else in it can match (`(/\d+)*`, `([^/]+/)*`) passes.
 */
import { parseRegex, type Quantifier, type RegexNode } from "./regex-tree.js";

/** Why a pattern can backtrack exponentially, and a simpler way to write it. */
export interface RegexRisk {
  reason: string;
  suggestion: string;
}

/** Printable ASCII, tab and newline: the characters tried to see what an atom matches. */
const SAMPLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).concat(["\t", "\n"]);

const repeats = (q: Quantifier | undefined) => q !== undefined && q.max > 1;

/** How many trial matches one judgement may make; past it the pattern is left to capture's time budget. */
const MAX_TRIALS = 20_000;
let trials = 0;

class OutOfTrials extends Error {}

function fullMatch(src: string, text: string, repeat = false): boolean {
  if (++trials > MAX_TRIALS) throw new OutOfTrials();
  try {
    return new RegExp(`^(?:${src})${repeat ? "+" : ""}$`).test(text);
  } catch {
    return true;
  }
}

/** The nodes of a subtree, groups included, each with its own quantifier. */
function descendants(nodes: readonly RegexNode[]): RegexNode[] {
  return nodes.flatMap((n) => (n.kind === "group" ? [n, ...descendants(n.branches.flat())] : [n]));
}

/**
 * True when the one alternative of a group starts or ends with an unquantified
 * literal character that no other atom of the group can match: each repetition
 * then begins (or ends) at one of those characters, so repetitions cannot
 * trade text among themselves.
 */
function hasSeparator(branches: readonly RegexNode[][]): boolean {
  const only = branches.length === 1 ? branches[0] : undefined;
  if (only === undefined || only.length < 2) return false;
  return [only[0], only[only.length - 1]].some((edge) => {
    if (edge?.kind !== "char" || edge.quant || !/^(?:[^\\.[]|\\[^A-Za-z0-9])$/.test(edge.src)) return false;
    const ch = edge.src.slice(-1);
    return descendants(only).every(
      (n) =>
        n === edge ||
        n.kind === "assert" ||
        n.kind === "group" ||
        (n.kind === "char" && !fullMatch(n.src, ch)),
    );
  });
}

/** A text an alternative of plain atoms matches, or every single character when it is one atom. */
function witnesses(branch: readonly RegexNode[]): string[] {
  const chars = branch.filter((n) => n.kind === "char");
  if (chars.length === 1 && branch.length === 1)
    return SAMPLE.filter((c) => fullMatch(branch[0]?.src ?? "", c));
  let text = "";
  for (const n of chars) {
    const c = SAMPLE.find((s) => fullMatch(n.src, s));
    if (c === undefined) return [];
    text += c;
  }
  return [text];
}

/** Text two alternatives of plain atoms (no quantifier, group or back-reference) can both take, if any. */
function overlap(branches: readonly RegexNode[][]): string | undefined {
  if (
    branches.length < 2 ||
    !branches.every((b) => b.every((n) => (n.kind === "char" || n.kind === "assert") && !n.quant))
  )
    return undefined;
  const srcs = branches.map((b) => b.map((n) => n.src).join(""));
  for (const [i, b] of branches.entries()) {
    for (const w of witnesses(b)) {
      if (srcs.some((other, j) => j !== i && fullMatch(other, w, true))) return w;
    }
  }
  return undefined;
}

/** A group as the author wrote it (not JSON-escaped, like the suggestions), cut at 40 characters. */
const show = (src: string) => `"${src.length > 40 ? `${src.slice(0, 37)}...` : src}"`;

function judge(nodes: readonly RegexNode[], underRepeat: boolean): RegexRisk | undefined {
  for (const n of nodes) {
    if (n.kind !== "group" || n.lookaround) continue;
    const group = show(n.src);
    const repeated = underRepeat || repeats(n.quant);
    if (
      repeats(n.quant) &&
      descendants(n.branches.flat()).some((d) => d.quant) &&
      !hasSeparator(n.branches)
    ) {
      return {
        reason: `the group ${group}, repeated by "${n.quant?.src}", holds a quantifier of its own (nested quantifiers)`,
        suggestion: 'use one quantifier per repeated part, e.g. "a+" for "(a+)+" or "\\w*x" for "(\\w+)*x"',
      };
    }
    const same = repeated ? overlap(n.branches) : undefined;
    if (same !== undefined) {
      return {
        reason: `the alternatives of the group ${group}, which is repeated, can match the same text (${JSON.stringify(same)})`,
        suggestion:
          'make the alternatives exclusive or use a character class, e.g. "a*" for "(a|a)*" or "[ab]*" for "(a|b)*"',
      };
    }
    const inner = judge(n.branches.flat(), repeated);
    if (inner) return inner;
  }
  return undefined;
}

/**
 * Why a pattern (one that compiles) can backtrack exponentially, or undefined
 * when it is judged safe or too large to judge (groups nested past 64 levels,
 * more than 20 000 trial matches); capture still bounds every test in time.
 */
export function regexRisk(pattern: string): RegexRisk | undefined {
  const tree = parseRegex(pattern);
  if (tree === undefined) return undefined;
  trials = 0;
  try {
    return judge(tree.flat(), false);
  } catch (e) {
    if (e instanceof OutOfTrials) return undefined;
    throw e;
  }
}
