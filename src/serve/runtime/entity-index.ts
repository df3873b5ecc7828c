/**
 * A lookup from id to entity over one collection's array, memoised per array
 * so item reads on large seeded collections stay O(1). Every write through
 * the runtime calls `forgetIndex` on the array it changes.
 */
import type { Entity } from "../../model/model-schema.js";

const indexes = new WeakMap<Entity[], Map<string, number>>();

/** Returns the position of the entity whose `idField` stringifies to `id`, or -1. */
export function findEntityIndex(list: Entity[], idField: string, id: string): number {
  let index = indexes.get(list);
  if (!index) {
    index = new Map();
    for (let i = 0; i < list.length; i++) {
      const v = list[i]![idField];
      const key = String(v);
      if (v !== undefined && v !== null && !index.has(key)) index.set(key, i);
    }
    indexes.set(list, index);
  }
  return index.get(id) ?? -1;
}

/** Drops the memoised index of an array that is about to change. */
export function forgetIndex(list: Entity[]): void {
  indexes.delete(list);
}

/** The episode's array for a collection, created empty on first use. */
export function collectionList(state: Record<string, Entity[]>, name: string): Entity[] {
  let list = state[name];
  if (!list) {
    list = [];
    state[name] = list;
  }
  return list;
}
