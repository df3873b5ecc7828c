/**
 * Hierarchical ids (`projects/reports/q4.txt` under `projects/reports`): what a rename of an entity does to the
 * entities under it when they move with it. One definition for both sides, so what serve writes on a rename is
 * exactly what learning checked against the reads after a recorded one (learn/descendant-moves.ts).
 */
import type { Entity } from "./model-schema.js";

/** True when `id` lies under `parent` (it starts with the parent's id and the separator). */
export function isUnder(id: string, parent: string, separator: string): boolean {
  return id.length > parent.length + separator.length && id.startsWith(parent + separator);
}

/** The value with the prefix `from` (the whole value, or it and the separator) replaced by `to`; else as it is. */
export function movedValue(value: string, from: string, to: string, separator: string): string {
  if (value === from) return to;
  return value.startsWith(from + separator) ? to + value.slice(from.length) : value;
}

/**
 * A descendant as it stands once its ancestor `from` is renamed `to`: its id, and every top-level string field
 * holding exactly its own id (`ownId`: a `path` equal to the id), carry the new prefix. Any other value is kept, even
 * one that starts with the ancestor's id (a file's text naming `docs/guide.md`, a field naming the folder): no read
 * showed such a value move, and a rename never changes what an entity holds besides where it is.
 */
export function movedEntity(e: Entity, from: string, to: string, separator: string, ownId: string): Entity {
  const out: Entity = {};
  for (const [k, v] of Object.entries(e))
    out[k] = typeof v === "string" && v === ownId ? movedValue(v, from, to, separator) : v;
  return out;
}
