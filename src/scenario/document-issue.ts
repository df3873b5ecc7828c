/** Builds the issues of a document: each message names the file, the field path and what would be valid. */
import type { Issue } from "../errors/user-error.js";
import { formatPath, type PathSegment } from "./field-path.js";

/** Makes one issue; the message reads `file: path <text>` (`file: the scenario <text>` at the top). */
export function makeIssue(file: string, code: string, path: readonly PathSegment[], text: string): Issue {
  const display = formatPath(path);
  return { code, path: display, message: `${file}: ${display === "" ? "the scenario" : display} ${text}` };
}

/** A short preview of a JSON value for `(got …)`: JSON text, cut at 60 characters. */
export function preview(value: unknown): string {
  if (value === undefined) return "nothing";
  // JSON.parse turns 1e400 into Infinity, which JSON.stringify would show as null.
  if (typeof value === "number" && !Number.isFinite(value)) return String(value);
  const json = JSON.stringify(value) ?? String(value);
  return json.length > 60 ? `${json.slice(0, 57)}...` : json;
}

/** The value at a path in raw JSON data, or undefined. */
export function valueAt(raw: unknown, path: readonly PathSegment[]): unknown {
  let cur: unknown = raw;
  for (const seg of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<string | number, unknown>)[seg];
  }
  return cur;
}

/** True for a plain JSON object. */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}
