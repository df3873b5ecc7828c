/**
 * Id → slot lookups. A slot is an entity's place in its collection's list
 * order: the seed's rows first (slot = position in the seed), then the rows an
 * episode added. An id held by several entities maps to all their slots,
 * lowest first, so a lookup finds the first in list order (as a scan would).
 * The seed's index is built once and shared; an episode keeps only the ids its
 * writes moved, so its index costs what it changed.
 */
import type { Entity } from "../../model/model-schema.js";

/** The slots holding one id: one slot, or several in ascending order. */
export type IdSlots = number | readonly number[];

/** An entity's id as text (how a path names it), or null when it has none. */
export function idText(entity: Entity, idField: string): string | null {
  const v = entity[idField];
  return v === undefined || v === null ? null : String(v);
}

/** The id index of rows (slot = position), ids taken from `idField`. */
export function indexRows(rows: readonly Entity[], idField: string): Map<string, IdSlots> {
  const index = new Map<string, IdSlots>();
  for (let slot = 0; slot < rows.length; slot++) {
    const id = idText(rows[slot]!, idField);
    if (id === null) continue;
    const had = index.get(id);
    index.set(id, had === undefined ? slot : withSlot(had, slot));
  }
  return index;
}

/** The lowest slot of an entry. */
export function firstSlot(slots: IdSlots): number {
  return typeof slots === "number" ? slots : slots[0]!;
}

/** The entry with `slot` added (kept ascending). */
export function withSlot(slots: IdSlots | null, slot: number): IdSlots {
  if (slots === null) return slot;
  const list = typeof slots === "number" ? [slots] : [...slots];
  let at = list.length;
  while (at > 0 && list[at - 1]! > slot) at--;
  list.splice(at, 0, slot);
  return list;
}

/** The entry with `slot` removed; null when none is left. */
export function withoutSlot(slots: IdSlots, slot: number): IdSlots | null {
  if (typeof slots === "number") return slots === slot ? null : slots;
  const list = slots.filter((s) => s !== slot);
  return list.length === 0 ? null : list.length === 1 ? list[0]! : list;
}
