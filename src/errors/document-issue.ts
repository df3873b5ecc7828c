/**
 * Where an issue of a document is and how its message reads: the one path
 * formatter (`steps[3].headers.authorization`, `secrets[0].env`, `json["a b"]`)
 * and the helpers every document check shares (scenario rules, the zod issue
 * formatter of evidence, HAR and bundle files).
 */
import type { Issue } from "./user-error.js";

/** One step of a path into a document: an object key or an array index. */
export type PathSegment = string | number;

const PLAIN = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

/** Formats a path for messages: indices in brackets, plain keys after dots, other keys quoted. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const seg of path) {
    if (typeof seg === "number") out += `[${seg}]`;
    else if (typeof seg === "string" && PLAIN.test(seg)) out += out === "" ? seg : `.${seg}`;
    else out += `[${JSON.stringify(String(seg))}]`;
  }
  return out;
}

/**
 * Makes one issue; the message reads `file: path <text>`, or `file: <subject> <text>`
 * at the top of the document (`the scenario`, `the document`).
 */
export function documentIssue(
  file: string,
  code: string,
  path: readonly PropertyKey[],
  text: string,
  subject: string,
): Issue {
  const display = formatPath(path);
  return { code, path: display, message: `${file}: ${display === "" ? subject : display} ${text}` };
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
export function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = raw;
  for (const seg of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[seg];
  }
  return cur;
}

/** True for a plain JSON object. */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}
