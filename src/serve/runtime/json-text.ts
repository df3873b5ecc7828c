/**
 * Small value helpers the runtime shares: RFC 6901 pointers, and how a
 * query-string value compares with a JSON field value.
 */
import { unescapePointerToken } from "../../util/json-pointer.js";

/** Reads an RFC 6901 pointer (`/a/0/b`) from a value; undefined when absent. */
export function readPointer(value: unknown, pointer: string): unknown {
  if (pointer === "") return value;
  if (!pointer.startsWith("/")) return undefined;
  let cur: unknown = value;
  for (const raw of pointer.slice(1).split("/")) {
    const key = unescapePointerToken(raw);
    if (cur === null || typeof cur !== "object") return undefined;
    if (Array.isArray(cur)) {
      if (!/^(0|[1-9]\d*)$/.test(key)) return undefined;
      cur = cur[Number(key)];
    } else {
      if (!Object.hasOwn(cur, key)) return undefined;
      cur = (cur as Record<string, unknown>)[key];
    }
  }
  return cur;
}

/** A field value as a query string would spell it: strings as they are, anything else as JSON. */
export function queryForm(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** A non-negative integer from a query value, or undefined when it is not one. */
export function nonNegativeInt(text: string | undefined): number | undefined {
  return text !== undefined && /^(0|[1-9]\d{0,15})$/.test(text) ? Number(text) : undefined;
}
