/**
 * The difference between a seed state and a current state, entity by entity:
 * created, updated (with the changed field names) or deleted. Entities are
 * matched by the collection's id field (`id` when the model does not say); an
 * id held twice is matched by its first entity in list order, as reads find it.
 * `diffEpisode` reads an episode's changes directly: O(changes), not O(seed).
 */
import type { Entity, SeedState } from "../../model/model-schema.js";
import type { EpisodeState } from "./episode-state.js";
import type { StateChange } from "./twin-types.js";

function idOf(entity: Entity, idField: string, index: number): string {
  const v = entity[idField];
  return v === undefined || v === null ? `#${index}` : String(v);
}

function byId(list: Entity[], idField: string): Map<string, Entity> {
  const out = new Map<string, Entity>();
  list.forEach((e, i) => {
    const id = idOf(e, idField, i);
    if (!out.has(id)) out.set(id, e);
  });
  return out;
}

function same(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/** The change from `before` to `after` of one id (either absent), or null when they are alike. */
function change(
  collection: string,
  id: string,
  before: Entity | undefined,
  after: Entity | undefined,
): StateChange | null {
  if (before && !after) return { collection, id, kind: "deleted", before };
  if (!before) return after ? { collection, id, kind: "created", after } : null;
  if (before === after) return null;
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after!)])];
  const fields = keys.filter((k) => !same(before[k], after![k])).sort();
  return fields.length > 0 ? { collection, id, kind: "updated", before, after, fields } : null;
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const idCmp = (a: string, b: string) => {
  const na = Number(a);
  const nb = Number(b);
  return Number.isInteger(na) && Number.isInteger(nb) && a !== "" && b !== "" ? na - nb : cmp(a, b);
};

/** Sorts changes by collection, id (numerically when both are integers), kind. */
function sorted(changes: StateChange[]): StateChange[] {
  return changes.sort((a, b) => cmp(a.collection, b.collection) || idCmp(a.id, b.id) || cmp(a.kind, b.kind));
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
      const c = change(collection, id, old, after.get(id));
      if (c) changes.push(c);
    }
    for (const [id, now] of after) {
      if (!before.has(id)) changes.push({ collection, id, kind: "created", after: now });
    }
  }
  return sorted(changes);
}

/**
 * Every change of an episode from its seed, in `diffState`'s order, reading only what the episode changed.
 * Lazy: the touched ids are gathered and sorted first (cheap), each change is compared as it is taken, so a
 * large diff can be written out in steps.
 */
export function* episodeChanges(state: EpisodeState): IterableIterator<StateChange> {
  const touched: { collection: string; id: string; before?: Entity; after?: Entity }[] = [];
  for (const c of state.changed()) {
    for (const t of c.touched()) touched.push({ collection: c.name, ...t });
  }
  // One entry per collection and id, so the kind never decides the order.
  touched.sort((a, b) => cmp(a.collection, b.collection) || idCmp(a.id, b.id));
  for (const t of touched) {
    const ch = change(t.collection, t.id, t.before, t.after);
    if (ch) yield ch;
  }
}

/** Every change of an episode from its seed, sorted as `diffState` sorts them: O(changes), not O(seed). */
export function diffEpisode(state: EpisodeState): StateChange[] {
  return [...episodeChanges(state)];
}
