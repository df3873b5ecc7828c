/**
 * The difference between a seed state and a current state, entity by entity:
 * created, updated (with the changed field names) or deleted. Entities are
 * matched by the collection's id field (`id` when the model does not say).
 */
import type { Entity, SeedState } from "../../model/model-schema.js";
import type { StateChange } from "./twin-types.js";

function idOf(entity: Entity, idField: string, index: number): string {
  const v = entity[idField];
  return v === undefined || v === null ? `#${index}` : String(v);
}

function byId(list: Entity[], idField: string): Map<string, Entity> {
  return new Map(list.map((e, i) => [idOf(e, idField, i), e]));
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Lists every change from `seed` to `current`, sorted by collection, id, kind.
 * `idFields` maps a collection to its id field (default `id`).
 */
export function diffState(
  seed: SeedState,
  current: SeedState,
  idFields: Record<string, string> = {},
): StateChange[] {
  const changes: StateChange[] = [];
  const names = new Set([...Object.keys(seed.collections), ...Object.keys(current.collections)]);
  for (const collection of names) {
    const idField = idFields[collection] ?? "id";
    const before = byId(seed.collections[collection] ?? [], idField);
    const after = byId(current.collections[collection] ?? [], idField);
    for (const [id, old] of before) {
      const now = after.get(id);
      if (!now) {
        changes.push({ collection, id, kind: "deleted", before: old });
        continue;
      }
      const keys = [...new Set([...Object.keys(old), ...Object.keys(now)])];
      const fields = keys.filter((k) => !same(old[k], now[k])).sort();
      if (fields.length > 0)
        changes.push({ collection, id, kind: "updated", before: old, after: now, fields });
    }
    for (const [id, now] of after) {
      if (!before.has(id)) changes.push({ collection, id, kind: "created", after: now });
    }
  }
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const idCmp = (a: string, b: string) => {
    const na = Number(a);
    const nb = Number(b);
    return Number.isInteger(na) && Number.isInteger(nb) && a !== "" && b !== "" ? na - nb : cmp(a, b);
  };
  return changes.sort((a, b) => cmp(a.collection, b.collection) || idCmp(a.id, b.id) || cmp(a.kind, b.kind));
}
