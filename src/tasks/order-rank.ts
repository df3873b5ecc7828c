/** How latest/oldest tasks order values: a plain number as it is, a time (ISO or epoch) by its milliseconds. */
import { readTime } from "../learn/value-kinds.js";

/** The rank of a value in a latest/oldest order; NaN when it is neither a number nor a time. */
export function orderRank(value: unknown): number {
  return typeof value === "number" && readTime(value) === null ? value : (readTime(value)?.ms ?? Number.NaN);
}
