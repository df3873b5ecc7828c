/**
 * Values a write task asks for, made from the seed alone: the other state of
 * a boolean, another of a field's few values, a neutral phrase (or a given
 * name, where the field holds names) no entity has yet, the next number.
 */
import { queryForm } from "../util/query-form.js";
import type { FieldInfo } from "./collection-view.js";
import { NEW_NAMES, NEW_PHRASES } from "./task-words.js";

const NAME = /^\p{Lu}\p{Ll}{1,11}$/u;

/**
 * A value for `field` that differs from `current` (absent for a create). `offset` picks a different phrase for
 * different tasks of one collection, so their values never collide.
 */
export function newValue(field: FieldInfo, current: unknown, offset: number): unknown {
  const taken = new Set(field.values.map(queryForm));
  switch (field.kind) {
    case "boolean":
      return current === undefined ? true : !current;
    case "choice": {
      const distinct = [...new Map(field.values.map((v) => [queryForm(v), v])).values()];
      return distinct.find((v) => queryForm(v) !== queryForm(current)) ?? distinct[0];
    }
    case "number": {
      const max = Math.max(...(field.values as number[]));
      return Number.isInteger(max) ? max + 1 + offset : max + 1;
    }
    case "text": {
      const pool = field.values.every((v) => NAME.test(String(v))) ? NEW_NAMES : NEW_PHRASES;
      const free = pool.filter((p) => !taken.has(p));
      return free[offset % Math.max(free.length, 1)] ?? `${pool[0]} ${offset + 2}`;
    }
    default:
      return undefined;
  }
}
