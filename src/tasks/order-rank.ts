/**
 * How latest/oldest tasks order values: a plain number as it is, a time by
 * its milliseconds — ISO 8601 or epoch seconds/milliseconds as learning
 * reads them, and also a date or date-time without a zone (`2024-01-10T09:00:00`,
 * read as UTC: only the order matters).
 */
import { readTime } from "../learn/value-kinds.js";

const LOCAL_TIME = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?)?$/;

/** The milliseconds of a time value, or null when it is not one. */
export function timeMs(value: unknown): number | null {
  const known = readTime(value);
  if (known) return known.ms;
  if (typeof value !== "string" || !LOCAL_TIME.test(value)) return null;
  const ms = Date.parse(value.length === 10 ? `${value}T00:00:00Z` : `${value.replace(" ", "T")}Z`);
  return Number.isNaN(ms) ? null : ms;
}

/** The rank of a value in a latest/oldest order; NaN when it is neither a number nor a time. */
export function orderRank(value: unknown): number {
  if (typeof value === "number" && readTime(value) === null) return value;
  return timeMs(value) ?? Number.NaN;
}
