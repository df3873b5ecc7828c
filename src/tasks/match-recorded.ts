/**
 * Does an answer look like the recording? A body against the JSON Schema
 * learned from the recorded answers — the type of every value the body has
 * (`type`, `properties`, `items`; a missing or extra field is a matter of
 * fidelity, measured by `apptwin fidelity`, not of this smoke check) — and a
 * body against a recorded body, each giving the first place they differ.
 */

import { isObject } from "../learn/value-kinds.js";
import { escapePointerToken } from "../util/json-pointer.js";

function typeOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

function fits(type: string, v: unknown): boolean {
  const t = typeOf(v);
  return t === type || (type === "number" && t === "integer");
}

/** The first way `value` breaks `schema`, as a sentence naming the pointer; null when it fits. */
export function schemaMismatch(schema: Record<string, unknown>, value: unknown, at = ""): string | null {
  const where = at === "" ? "the body" : at;
  const types =
    typeof schema.type === "string"
      ? [schema.type]
      : Array.isArray(schema.type)
        ? (schema.type as string[])
        : [];
  if (types.length > 0 && !types.some((t) => fits(t, value)))
    return `${where} is ${typeOf(value)}; the recording has ${types.join(" or ")}`;
  if (isObject(value)) {
    const props = isObject(schema.properties) ? schema.properties : {};
    for (const [key, sub] of Object.entries(props)) {
      if (!Object.hasOwn(value, key) || !isObject(sub)) continue;
      const m = schemaMismatch(sub, value[key], `${at}/${escapePointerToken(key)}`);
      if (m) return m;
    }
  }
  if (Array.isArray(value) && isObject(schema.items)) {
    for (let i = 0; i < value.length; i++) {
      const m = schemaMismatch(schema.items, value[i], `${at}/${i}`);
      if (m) return m;
    }
  }
  return null;
}

/** The pointer of the first place two JSON values differ, or null when they are equal. */
export function firstDifference(a: unknown, b: unknown, at = ""): string | null {
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const d = i < a.length && i < b.length ? firstDifference(a[i], b[i], `${at}/${i}`) : `${at}/${i}`;
      if (d !== null) return d;
    }
    return null;
  }
  if (isObject(a) && isObject(b)) {
    for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      const p = `${at}/${escapePointerToken(key)}`;
      if (!Object.hasOwn(a, key) || !Object.hasOwn(b, key)) return p;
      const d = firstDifference(a[key], b[key], p);
      if (d !== null) return d;
    }
    return null;
  }
  return JSON.stringify(a) === JSON.stringify(b) ? null : at === "" ? "/" : at;
}
