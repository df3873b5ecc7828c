/**
 * An episode's state: the seed, shared by every episode and never changed,
 * under the episode's own changes, one CollectionState per collection. A new
 * episode costs a few objects whatever the seed's size; its memory grows with
 * the writes it makes; a reset drops the changes.
 */
import type { Entity, Model, SeedState } from "../../model/model-schema.js";
import { CollectionState, type CollectionWrite, SeedCollection, type WriteTap } from "./collection-state.js";
import { deepFreeze } from "./deep-freeze.js";

/** A seed state prepared for sharing: its collections (frozen) with their id indexes. */
export class SharedSeed {
  private readonly collections = new Map<string, SeedCollection>();

  constructor(readonly state: SeedState) {
    for (const [name, rows] of Object.entries(state.collections)) {
      this.collections.set(name, new SeedCollection(rows));
    }
  }

  /** The collection names the seed holds, in its order. */
  names(): string[] {
    return [...this.collections.keys()];
  }

  /** The seed collection of this name, or undefined. */
  collection(name: string): SeedCollection | undefined {
    return this.collections.get(name);
  }
}

const shared = new WeakMap<SeedState, SharedSeed>();

/**
 * The shared form of a seed state, made once per seed object: the seed is
 * deeply frozen in place (every episode reads these very objects, so none may
 * change them; changing one afterwards throws).
 */
export function sharedSeed(seed: SeedState): SharedSeed {
  let s = shared.get(seed);
  if (!s) {
    deepFreeze(seed);
    s = new SharedSeed(seed);
    shared.set(seed, s);
  }
  return s;
}

const idFieldsOf = new WeakMap<Model, ReadonlyMap<string, string>>();

/** Each model collection's id field. */
function idFields(model: Model): ReadonlyMap<string, string> {
  let m = idFieldsOf.get(model);
  if (!m) {
    m = new Map(model.collections.map((c) => [c.name, c.id_field]));
    idFieldsOf.set(model, m);
  }
  return m;
}

const EMPTY: readonly Entity[] = Object.freeze([]);

/** One episode's collections: the seed's, then the model's the seed lacks, then any other used. */
export class EpisodeState {
  /** Where this state's collections report their writes while `recording` listens. */
  private readonly tap: WriteTap = { writes: null };

  private constructor(
    readonly seed: SharedSeed,
    private readonly ids: ReadonlyMap<string, string>,
    private readonly order: string[],
    private readonly collections: Map<string, CollectionState>,
  ) {}

  /** A fresh episode's state over a shared seed: no changes. */
  static of(seed: SharedSeed, model: Model): EpisodeState {
    const names = seed.names();
    const known = new Set(names);
    for (const c of model.collections) if (!known.has(c.name)) names.push(c.name);
    return new EpisodeState(seed, idFields(model), names, new Map());
  }

  /** Every collection name, in the state's order (the seed's first). */
  names(): readonly string[] {
    return this.order;
  }

  /** The collection of this name (empty when neither the seed nor a write made it). */
  collection(name: string): CollectionState {
    let c = this.collections.get(name);
    if (!c) {
      if (!this.order.includes(name)) this.order.push(name);
      const seed = this.seed.collection(name) ?? new SeedCollection(EMPTY);
      c = new CollectionState(name, this.ids.get(name) ?? "id", seed, this.tap);
      this.collections.set(name, c);
    }
    return c;
  }

  /** The collections this episode changed, in the state's order. */
  changed(): CollectionState[] {
    return this.order.flatMap((name) => {
      const c = this.collections.get(name);
      return c && !c.pristine ? [c] : [];
    });
  }

  /**
   * Runs `step` and lists the writes it made to this state, in order: what a shared episode store sends to the
   * other replicas, which replay them with `replay` to the same state.
   */
  recording<T>(step: () => T): { result: T; writes: { collection: string; write: CollectionWrite }[] } {
    const writes: { collection: string; write: CollectionWrite }[] = [];
    this.tap.writes = writes;
    try {
      return { result: step(), writes };
    } finally {
      this.tap.writes = null;
    }
  }

  /** Makes one write `recording` listed, to the same effect it had there. */
  replay(collection: string, write: CollectionWrite): void {
    const c = this.collection(collection);
    if (write.op === "append") c.append(write.entity);
    else if (write.op === "put") c.put(write.id, write.entity, write.nth);
    else c.delete(write.id, write.nth);
  }

  /** Drops every change. */
  reset(): void {
    this.collections.clear();
  }

  /** A copy frozen in time, O(changes): what a long read of the state serialises while writes go on. */
  snapshot(): EpisodeState {
    const copies = new Map([...this.collections].map(([name, c]) => [name, c.snapshot()]));
    return new EpisodeState(this.seed, this.ids, [...this.order], copies);
  }

  /** The state as a SeedState: fresh arrays of the (frozen) entities, safe to keep or serialise. */
  toSeedState(): SeedState {
    const collections: Record<string, Entity[]> = {};
    for (const name of this.order) collections[name] = [...this.collection(name).values()];
    return { collections };
  }
}
