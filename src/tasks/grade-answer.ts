/**
 * Judging an agent's answer against a task's expected answer, forgiving
 * only what a person would not count as a difference (case, spacing,
 * surrounding quotes, a final period, thousands separators) and saying what
 * differed otherwise.
 */
import type { Answer } from "./task-schema.js";
import { shown } from "./task-words.js";

const QUOTES = /^[\s"'`“”‘’*_]+|[\s"'`“”‘’*_]+$/g;

/** The answer as compared: Unicode-normalised, without surrounding quotes or a final period, spaces collapsed, lower case. */
export function normalizeAnswer(text: string): string {
  return text
    .normalize("NFKC")
    .replace(QUOTES, "")
    .replace(/[.!]+$/, "")
    .replace(QUOTES, "")
    .replace(/\s+/g, " ")
    .toLowerCase();
}

/** Every number written in the text, thousands separators removed. */
export function numbersIn(text: string): number[] {
  const plain = text.replace(/(\d),(?=\d{3}\b)/g, "$1");
  return [...plain.matchAll(/-?\d+(?:\.\d+)?/g)].map((m) => Number(m[0]));
}

/** Removes every occurrence of each value (longest first), so a value inside another is not counted twice. */
function without(text: string, values: string[]): string {
  let out = text;
  for (const v of [...values].sort((a, b) => b.length - a.length))
    if (v !== "") out = out.split(v).join("\u0000");
  return out;
}

/** Why the answer does not match (empty when it does); a task without an expected answer accepts any. */
export function gradeAnswer(expected: Answer | null, given: string | null): string[] {
  if (expected === null) return [];
  const text = (given ?? "").trim();
  const want =
    expected.kind === "must_include"
      ? expected.values.map((v) => shown(v)).join(", ")
      : shown(expected.value);
  if (text === "") return [`no answer was given; expected ${want}`];
  switch (expected.kind) {
    case "exact": {
      const got = normalizeAnswer(text);
      const ok = [expected.value, ...expected.accept].some((v) => normalizeAnswer(v) === got);
      return ok ? [] : [`the answer was ${shown(text)}; expected ${want}`];
    }
    case "numeric": {
      const numbers = [...new Set(numbersIn(text))];
      if (numbers.length === 0) return [`the answer ${shown(text)} holds no number; expected ${want}`];
      if (numbers.length > 1)
        return [
          `the answer ${shown(text)} gives several numbers (${numbers.join(", ")}); expected ${want} alone`,
        ];
      return numbers[0] === expected.value ? [] : [`the answer was ${numbers[0]}; expected ${want}`];
    }
    case "must_include": {
      const lower = normalizeAnswer(text);
      const reasons: string[] = [];
      const missing = expected.values.filter((v) => !lower.includes(normalizeAnswer(v)));
      if (missing.length > 0) reasons.push(`the answer lacks ${missing.map((v) => shown(v)).join(", ")}`);
      const rest = without(lower, expected.values.map(normalizeAnswer));
      const extra = expected.must_exclude.filter((v) => rest.includes(normalizeAnswer(v)));
      if (extra.length > 0)
        reasons.push(`the answer also names ${extra.map((v) => shown(v)).join(", ")}, which do not belong`);
      return reasons;
    }
  }
}
