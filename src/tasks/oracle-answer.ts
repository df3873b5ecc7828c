/**
 * Reading an oracle's answer from the results of its calls: the selector of
 * the task's oracle applied to one call's `{status, body}`, spelled as an
 * answer (yes/no, a number, one value per line).
 */
import { readPointer } from "../util/json-pointer.js";
import { sameValue } from "./grade-changes.js";
import { orderRank } from "./order-rank.js";
import type { Oracle, Selector } from "./task-schema.js";
import { answerText } from "./task-words.js";

function list(result: unknown, pointer: string): unknown[] | string {
  const items = readPointer(result, pointer);
  return Array.isArray(items) ? items : `no list at ${pointer || "/"} of the answer`;
}

/** The value a selector reads from one call result, or why it cannot. */
export function selectValue(select: Selector, result: unknown): { value: unknown } | { problem: string } {
  if (select.kind === "value") {
    const value = readPointer(result, select.pointer);
    return value === undefined ? { problem: `nothing at ${select.pointer} of the answer` } : { value };
  }
  const items = list(result, select.kind === "count" ? select.pointer : select.items);
  if (typeof items === "string") return { problem: items };
  switch (select.kind) {
    case "count":
      return { value: items.length };
    case "all":
      return { value: items.map((e) => answerText(readPointer(e, select.take))).join("\n") };
    case "find": {
      const hits = items.filter((e) => sameValue(readPointer(e, select.where.pointer), select.where.value));
      if (hits.length !== 1)
        return {
          problem: `${hits.length} entries of the answer have ${select.where.pointer} ${JSON.stringify(select.where.value)}`,
        };
      return { value: readPointer(hits[0], select.take) };
    }
    case "extreme": {
      const ranks = items.map((e) => orderRank(readPointer(e, select.by)));
      if (ranks.length === 0 || ranks.some(Number.isNaN))
        return { problem: `the answer's ${select.by} values cannot be ordered` };
      const best = select.pick === "max" ? Math.max(...ranks) : Math.min(...ranks);
      return { value: readPointer(items[ranks.indexOf(best)], select.take) };
    }
  }
}

/** The oracle's answer as text (null when the task asks nothing), or why it could not be read. */
export function oracleAnswer(
  oracle: Oracle,
  results: unknown[],
): { answer: string | null; problem?: string } {
  if (!oracle.answer) return { answer: null };
  const result = results[oracle.answer.call];
  if (result === undefined)
    return { answer: null, problem: `call ${oracle.answer.call} of the oracle gave no result` };
  const got = selectValue(oracle.answer.select, result);
  if ("problem" in got) return { answer: null, problem: got.problem };
  return { answer: got.value === undefined ? null : answerText(got.value) };
}
