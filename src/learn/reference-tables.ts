/**
 * The entities a collection's entities list by reference (`roles: [{id: 3, name: "Manager"}]` of a membership),
 * as a table from a key's value to the object, over every entity of the collection the recording showed. It is what
 * an `each` rule answers for a request naming them by that key (`role_ids: [3, 5]`), where the recording never read
 * a collection of them: a hypothesis every sighting must confirm (one object per key value, everywhere).
 */
import type { Entity } from "../model/model-schema.js";
import type { Sighting } from "./derived-fields.js";
import { isObject } from "./value-kinds.js";

/** The table key of a top-level field and the key its objects are named by. */
export const tableKey = (field: string, key: string) => `${field}\u0000${key}`;

const scalar = (v: unknown): v is string | number => typeof v === "string" || typeof v === "number";

/** Table keys in order: numbers by value, then text. */
function byKey(a: string, b: string): number {
  const [x, y] = [Number(a), Number(b)];
  if (/^-?\d+$/.test(a) && /^-?\d+$/.test(b)) return x - y;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Per top-level field whose every sighting is an array of objects (some non-empty), and per key every one of those
 * objects holds a scalar at: the object each value of the key names, when every sighting showed one object (the same
 * JSON) for it. Keyed by `tableKey(field, key)`; a field or key some sighting contradicts has none.
 */
export function referenceTables(seen: readonly Sighting[]): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  const fields = new Set(seen.flatMap((s) => Object.keys(s.entity)));
  for (const f of [...fields].sort()) {
    const arrays = seen.flatMap((s) => (Object.hasOwn(s.entity, f) ? [s.entity[f]] : []));
    if (!arrays.every((a) => Array.isArray(a) && a.every(isObject))) continue;
    const objects = (arrays as Entity[][]).flat();
    if (objects.length === 0) continue;
    const keys = Object.keys(objects[0]!).filter((k) => objects.every((o) => scalar(o[k])));
    for (const k of keys) {
      const table = new Map<string, string>();
      const agrees = objects.every((o) => {
        const id = String(o[k]);
        const text = JSON.stringify(o);
        if (table.has(id)) return table.get(id) === text;
        table.set(id, text);
        return true;
      });
      if (!agrees) continue;
      const sorted = [...table.keys()].sort(byKey);
      out.set(tableKey(f, k), Object.fromEntries(sorted.map((id) => [id, JSON.parse(table.get(id)!)])));
    }
  }
  return out;
}
