/**
 * One collection of one episode: the shared, immutable seed rows plus the
 * episode's own changes (rows it replaced or deleted, rows it added). Creating
 * one costs nothing, it grows with the writes made to it, and reading, adding,
 * replacing or deleting by id takes constant time at any seed size (the id
 * index is the seed's, shared, under the ids this episode moved).
 *
 * List order is the slot order: seed rows in seed order (a replaced row keeps
 * its place, a deleted one leaves a gap), then added rows in the order they
 * were added. Every entity held is deeply frozen, so callers may hand the
 * state's own objects out in answers.
 */
import type { Entity } from "../../model/model-schema.js";
import { deepFreeze } from "./deep-freeze.js";
import { DeletedSlots } from "./deleted-slots.js";
import { firstSlot, type IdSlots, idText, indexRows, withoutSlot, withSlot } from "./entity-index.js";

/**
 * The seed rows as JSON text, each followed by a comma, in chunks of whole rows (each at least the build's chunk
 * size, SEED_CHUNK_BYTES, but the last; encoded once when full and never joined, so no step copies the whole text):
 * row i is in the chunk k whose `firstRows[k] <= i`, at `starts[i]` in it. `seedRun` gives the text of a run of rows.
 */
export interface SeedText {
  chunks: readonly Uint8Array[];
  firstRows: readonly number[];
  starts: Uint32Array;
}

/**
 * The bytes of seed text a chunk holds at least (but the last): a state answer writes a run of seed text in views
 * of the chunks, so their size sets how few writes a state takes (each write costs the twin its own overhead: in
 * chunks of 200 rows, about 25 KiB, a state read at 20 MB/s cost the twin 2.4 ms of CPU a MiB, against 0.34 ms for
 * another process writing the same bytes in one buffer).
 */
export const SEED_CHUNK_BYTES = 256 * 1024;

/** The chunk holding row `row` (rows exist). */
function chunkOf(text: SeedText, row: number): number {
  let lo = 0;
  let hi = text.firstRows.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (text.firstRows[mid]! <= row) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The JSON text of seed rows [from, to) (from < to), comma-separated without a trailing comma, as views of the chunks. */
export function seedRun(text: SeedText, from: number, to: number): Uint8Array[] {
  const first = chunkOf(text, from);
  const last = chunkOf(text, to - 1);
  const out: Uint8Array[] = [];
  for (let k = first; k <= last; k++) {
    const chunk = text.chunks[k]!;
    const begin = k === first ? text.starts[from]! : 0;
    // The end of row to-1 in its chunk: where row `to` starts when it is in the same chunk, else the chunk's end.
    const nextFirst = text.firstRows[k + 1] ?? text.starts.length - 1;
    const end = k === last && to < nextFirst ? text.starts[to]! : chunk.length;
    out.push(chunk.subarray(begin, k === last ? end - 1 : end));
  }
  return out;
}

/** A seed collection shared by every episode: its rows (frozen), id indexes built once per id field, its JSON text. */
export class SeedCollection {
  private readonly indexes = new Map<string, ReadonlyMap<string, IdSlots>>();
  private text: SeedText | null = null;
  private building: {
    chunks: Uint8Array[];
    firstRows: number[];
    starts: Uint32Array;
    next: number;
    /** The text of the chunk being filled, its bytes, and its first row. */
    pending: string;
    bytes: number;
    first: number;
  } | null = null;

  constructor(readonly rows: readonly Entity[]) {}

  /** The rows as JSON text, once built (see `buildText`); null before. */
  get json(): SeedText | null {
    return this.text;
  }

  /**
   * Serialises up to `rows` more rows of the seed's JSON text (made once, shared by every episode's state
   * answers) and returns true once the whole text is built. Called in steps so a large seed never stalls the
   * twin: a step adds its rows to the chunk being filled, a chunk is encoded once it holds `chunkBytes` (and the
   * last when the rows end), and nothing ever joins the chunks.
   */
  buildText(rows: number, chunkBytes = SEED_CHUNK_BYTES): boolean {
    if (this.text) return true;
    const n = this.rows.length;
    this.building ??= {
      chunks: [],
      firstRows: [],
      starts: new Uint32Array(n + 1),
      next: 0,
      pending: "",
      bytes: 0,
      first: 0,
    };
    const b = this.building;
    const stop = Math.min(n, b.next + Math.max(1, rows));
    for (let i = b.next; i < stop; i++) {
      const row = `${JSON.stringify(this.rows[i])},`;
      b.starts[i] = b.bytes;
      b.bytes += Buffer.byteLength(row);
      b.pending += row;
    }
    b.next = stop;
    if (b.bytes > 0 && (b.bytes >= chunkBytes || stop >= n)) {
      b.firstRows.push(b.first);
      b.chunks.push(Buffer.from(b.pending));
      b.first = stop;
      b.pending = "";
      b.bytes = 0;
    }
    if (stop < n) return false;
    this.text = { chunks: b.chunks, firstRows: b.firstRows, starts: b.starts };
    this.building = null;
    return true;
  }

  /** The id index over `idField`, built on first use. */
  index(idField: string): ReadonlyMap<string, IdSlots> {
    let index = this.indexes.get(idField);
    if (!index) {
      index = indexRows(this.rows, idField);
      this.indexes.set(idField, index);
    }
    return index;
  }
}

/** One write to a collection, as an episode's changes are replayed elsewhere (a shared episode store). */
export type CollectionWrite =
  | { op: "append"; entity: Entity }
  | { op: "put"; id: string; entity: Entity; nth?: number }
  | { op: "delete"; id: string; nth?: number };

/** Where a collection reports its writes while someone listens (`writes` not null): the episode store's edge. */
export interface WriteTap {
  writes: { collection: string; write: CollectionWrite }[] | null;
}

/** An added row's slot holds null once it is deleted; tombstones are dropped when they outnumber live rows. */
const COMPACT_AT = 64;

/** One collection's rows as one episode sees them. */
export class CollectionState {
  private readonly seedRows: readonly Entity[];
  private readonly seedIndex: ReadonlyMap<string, IdSlots>;
  /** Seed slot → the row replacing it, or null when it was deleted. */
  private overrides = new Map<number, Entity | null>();
  /** The added rows, slot `seedRows.length + i`; null once deleted. */
  private added: (Entity | null)[] = [];
  /** Deleted slots (seed and added): turns a list position into a slot. */
  private deleted = new DeletedSlots();
  /** Ids whose slots differ from the seed's index: id → slots, or null for none. */
  private ids = new Map<string, IdSlots | null>();
  /** Ids this episode deleted and has not made again (O(deletes)): a read of one gets the app's "gone" answer. */
  private gone = new Set<string>();
  /** Ids a put gave another id (a rename, a move with an ancestor) and none holds now: known absent, not unlisted. */
  private movedAway = new Set<string>();

  constructor(
    readonly name: string,
    readonly idField: string,
    readonly seed: SeedCollection,
    /** Told of every append, put and delete while it listens (see EpisodeState.recording). */
    private readonly tap: WriteTap | null = null,
  ) {
    this.seedRows = seed.rows;
    this.seedIndex = seed.index(idField);
  }

  /** How many entities the collection holds. */
  get size(): number {
    return this.seedRows.length + this.added.length - this.deleted.count;
  }

  /** True when this episode changed nothing here. */
  get pristine(): boolean {
    return this.overrides.size === 0 && this.added.length === 0;
  }

  /** The entity whose id (as text) is `id`, the first in list order; undefined when none. */
  get(id: string): Entity | undefined {
    const slots = this.slotsOf(id);
    return slots === null ? undefined : (this.rowAt(firstSlot(slots)) ?? undefined);
  }

  /** Every entity whose id (as text) is `id`, in list order: O(entities holding it), never a scan. */
  *withId(id: string): IterableIterator<Entity> {
    const slots = this.slotsOf(id);
    if (slots === null) return;
    for (const slot of typeof slots === "number" ? [slots] : slots) {
      const row = this.rowAt(slot);
      if (row) yield row;
    }
  }

  /** True when an entity has this id. */
  has(id: string): boolean {
    return this.slotsOf(id) !== null;
  }

  /** The entities in list order, from list position `from` (default 0). */
  *values(from = 0): IterableIterator<Entity> {
    const end = this.seedRows.length + this.added.length;
    const overridden = this.overrides.size > 0;
    for (let slot = this.slotAt(Math.max(0, from)); slot < end; slot++) {
      const row = overridden || slot >= this.seedRows.length ? this.rowAt(slot) : this.seedRows[slot]!;
      if (row) yield row;
    }
  }

  [Symbol.iterator](): IterableIterator<Entity> {
    return this.values();
  }

  /** The entities at list positions [start, end) (end past the size: up to the last). */
  slice(start: number, end = this.size): Entity[] {
    const out: Entity[] = [];
    const stop = Math.min(end, this.size);
    if (start >= stop) return out;
    const slots = this.seedRows.length + this.added.length;
    for (let slot = this.slotAt(Math.max(0, start)); slot < slots && out.length < stop - start; slot++) {
      const row = this.rowAt(slot);
      if (row) out.push(row);
    }
    return out;
  }

  /** Adds an entity at the end of the list (an id already held is held twice; lookups find the first). */
  append(entity: Entity): Entity {
    deepFreeze(entity);
    this.tap?.writes?.push({ collection: this.name, write: { op: "append", entity } });
    const slot = this.seedRows.length + this.added.length;
    this.added.push(entity);
    const id = idText(entity, this.idField);
    if (id !== null) this.setSlots(id, withSlot(this.slotsOf(id), slot));
    return entity;
  }

  /**
   * Replaces the entity with this id in place (its list position kept), else appends it: the first with the id, or
   * the `nth` (0-based, in list order) where several entities share it (one per parent of a nested collection).
   */
  put(id: string, entity: Entity, nth = 0): Entity {
    const slots = this.slotsOf(id);
    const slot = slots === null ? undefined : this.nthSlot(slots, nth);
    if (slot === undefined) return this.append(entity);
    deepFreeze(entity);
    this.tap?.writes?.push({
      collection: this.name,
      write: nth === 0 ? { op: "put", id, entity } : { op: "put", id, entity, nth },
    });
    const old = this.rowAt(slot)!;
    this.setRow(slot, entity);
    const was = idText(old, this.idField);
    const now = idText(entity, this.idField);
    if (was !== now) {
      if (was !== null) this.setSlots(was, withoutSlot(this.slotsOf(was)!, slot));
      if (now !== null) this.setSlots(now, withSlot(this.slotsOf(now), slot));
      if (was !== null && this.slotsOf(was) === null) this.movedAway.add(was);
    }
    return entity;
  }

  /** Deletes the first entity with this id (or the `nth`, as `put`) and returns it; undefined when none. */
  delete(id: string, nth = 0): Entity | undefined {
    const slots = this.slotsOf(id);
    const slot = slots === null ? undefined : this.nthSlot(slots, nth);
    if (slots === null || slot === undefined) return undefined;
    this.tap?.writes?.push({
      collection: this.name,
      write: nth === 0 ? { op: "delete", id } : { op: "delete", id, nth },
    });
    const old = this.rowAt(slot)!;
    this.setRow(slot, null);
    this.setSlots(id, withoutSlot(slots, slot));
    if (this.slotsOf(id) === null) this.gone.add(id);
    this.deleted.insert(slot, this.seedRows.length + this.added.length);
    this.compact();
    return old;
  }

  /** Drops every change: the collection is the seed again. */
  reset(): void {
    this.overrides = new Map();
    this.added = [];
    this.deleted = new DeletedSlots();
    this.ids = new Map();
    this.gone = new Set();
    this.movedAway = new Set();
  }

  /** True when the seed (the recording's state at its end) holds an entity with this id. */
  inSeed(id: string): boolean {
    return this.seed.index(this.idField).has(id);
  }

  /** True when this episode deleted the entity with this id and holds none with it now. */
  wasDeleted(id: string): boolean {
    return this.gone.has(id) && this.slotsOf(id) === null;
  }

  /** True when this episode moved the entity with this id to another id (a rename) and holds none with it now. */
  wasMovedAway(id: string): boolean {
    return this.movedAway.has(id) && this.slotsOf(id) === null;
  }

  /** A copy frozen in time (O(changes)): later writes here do not show in it. */
  snapshot(): CollectionState {
    const copy = new CollectionState(this.name, this.idField, this.seed);
    copy.overrides = new Map(this.overrides);
    copy.added = this.added.slice();
    copy.deleted = this.deleted.copy();
    copy.ids = new Map(this.ids);
    copy.gone = new Set(this.gone);
    copy.movedAway = new Set(this.movedAway);
    return copy;
  }

  /**
   * The ids this episode's changes touched, each with the seed's entity and the current one (either undefined
   * when absent). Entities without an id are keyed `#<slot>`. O(changes).
   */
  *touched(): IterableIterator<{ id: string; before: Entity | undefined; after: Entity | undefined }> {
    const seen = new Set<string>();
    const n = this.seedRows.length;
    const visit = (id: string) => {
      if (seen.has(id)) return null;
      seen.add(id);
      const seedSlots = this.seedIndex.get(id);
      const before = seedSlots === undefined ? undefined : this.seedRows[firstSlot(seedSlots)];
      return { id, before, after: this.get(id) };
    };
    for (const [slot, row] of this.overrides) {
      const seedId = idText(this.seedRows[slot]!, this.idField);
      if (seedId === null) {
        if (row === null || idText(row, this.idField) === null) {
          yield { id: `#${slot}`, before: this.seedRows[slot], after: row ?? undefined };
        }
      } else {
        const hit = visit(seedId);
        if (hit) yield hit;
      }
      const nowId = row === null ? null : idText(row, this.idField);
      if (nowId !== null) {
        const hit = visit(nowId);
        if (hit) yield hit;
      }
    }
    for (let i = 0; i < this.added.length; i++) {
      const row = this.added[i];
      if (!row) continue;
      const id = idText(row, this.idField);
      if (id === null) {
        yield { id: `#${n + i}`, before: undefined, after: row };
        continue;
      }
      const hit = visit(id);
      if (hit) yield hit;
    }
  }

  /**
   * The collection in list order as runs of unchanged seed rows (`[from, to)` slots) and the entities the episode
   * wrote, O(changes): what a state answer copies from the seed's text and what it serialises itself.
   */
  *pieces(): IterableIterator<{ from: number; to: number; row?: undefined } | { row: Entity }> {
    const n = this.seedRows.length;
    let from = 0;
    for (const slot of [...this.overrides.keys()].sort((a, b) => a - b)) {
      if (slot > from) yield { from, to: slot };
      const row = this.overrides.get(slot);
      if (row) yield { row };
      from = slot + 1;
    }
    if (n > from) yield { from, to: n };
    for (const row of this.added) if (row) yield { row };
  }

  /** The slot of the `nth` live entity among `slots` (list order), or undefined. */
  private nthSlot(slots: IdSlots, nth: number): number | undefined {
    if (nth === 0) return firstSlot(slots);
    let seen = 0;
    for (const slot of typeof slots === "number" ? [slots] : slots) {
      if (!this.rowAt(slot)) continue;
      if (seen === nth) return slot;
      seen++;
    }
    return undefined;
  }

  /** The slots holding `id`, or null. */
  private slotsOf(id: string): IdSlots | null {
    const own = this.ids.get(id);
    if (own !== undefined) return own;
    return this.seedIndex.get(id) ?? null;
  }

  /** Records the slots of an id; an id back to what the seed says is forgotten (nothing to keep). */
  private setSlots(id: string, slots: IdSlots | null): void {
    const seed = this.seedIndex.get(id) ?? null;
    if (slots === seed) this.ids.delete(id);
    else this.ids.set(id, slots);
  }

  private rowAt(slot: number): Entity | null {
    const n = this.seedRows.length;
    if (slot >= n) return this.added[slot - n] ?? null;
    const own = this.overrides.get(slot);
    return own === undefined ? this.seedRows[slot]! : own;
  }

  private setRow(slot: number, row: Entity | null): void {
    const n = this.seedRows.length;
    if (slot >= n) this.added[slot - n] = row;
    else this.overrides.set(slot, row);
  }

  /** The slot of list position `p`. */
  private slotAt(p: number): number {
    return this.deleted.slotAt(p);
  }

  /** Drops deleted added rows once they outnumber the live ones (amortised O(1) per delete). */
  private compact(): void {
    const n = this.seedRows.length;
    const seedDeleted = this.deleted.below(n);
    const dead = this.deleted.count - seedDeleted;
    if (dead < COMPACT_AT || dead < this.added.length - dead) return;
    const moved = new Map<number, number>();
    const kept: Entity[] = [];
    this.added.forEach((row, i) => {
      if (row === null) return;
      moved.set(n + i, n + kept.length);
      kept.push(row);
    });
    this.added = kept;
    this.deleted.dropFrom(n);
    // Only the ids of live added rows point at added slots (a deleted row's slot left its id's entry).
    const renumber = (slot: number) => moved.get(slot) ?? slot;
    const done = new Set<string>();
    for (const row of kept) {
      const id = idText(row, this.idField);
      if (id === null || done.has(id)) continue;
      done.add(id);
      const slots = this.ids.get(id);
      if (slots === undefined || slots === null) continue;
      this.ids.set(id, typeof slots === "number" ? renumber(slots) : slots.map(renumber));
    }
  }
}
