/**
 * An episode's state and diff as JSON text in pieces, for answers too large
 * to build at once: the state copies runs of unchanged seed rows from the
 * seed's JSON text (serialised once, shared by every episode) and serialises
 * only the rows the episode wrote, so reading a 100k-entity state costs the
 * episode's changes, not the seed. The adapter writes the pieces as they come.
 */
import type { Entity, Model } from "../../model/model-schema.js";
import { seedRun } from "./collection-state.js";
import type { EpisodeState } from "./episode-state.js";
import type { StateChange } from "./twin-types.js";

/** Builds up to `rows` more rows of the seed texts the state answer needs; true once all are built. */
export function buildStateText(state: EpisodeState, rows: number): boolean {
  for (const name of state.names()) {
    const seed = state.seed.collection(name);
    if (seed && !seed.buildText(rows)) return false;
  }
  return true;
}

/**
 * Per collection, the key the twin keeps in its entities for itself and never shows (a singleton document's id,
 * `_singleton`, which no recorded document holds): the state and diff answers leave it out.
 */
export type InternalKeys = ReadonlyMap<string, string>;

/** The internal keys of a model's collections: each singleton document's id field. */
export function internalKeys(model: Model): InternalKeys {
  return new Map(model.collections.filter((c) => c.singleton).map((c) => [c.name, c.id_field]));
}

function without(entity: Entity, key: string | undefined): Entity {
  if (key === undefined || !Object.hasOwn(entity, key)) return entity;
  const { [key]: _, ...rest } = entity;
  return rest;
}

/**
 * The state answer `{"collections":{"name":[...],...}}` in pieces (text or bytes), collections in the
 * state's order. Every seed text must be built first (`buildStateText`). Take it from a snapshot when
 * writes may happen while the pieces are written. A collection with an internal key (a singleton's one
 * document) is written row by row without it.
 */
export function* stateJson(
  state: EpisodeState,
  internal: InternalKeys = new Map(),
): IterableIterator<string | Uint8Array> {
  yield '{"collections":{';
  let firstCollection = true;
  for (const name of state.names()) {
    yield `${firstCollection ? "" : ","}${JSON.stringify(name)}:[`;
    firstCollection = false;
    const c = state.collection(name);
    const key = internal.get(name);
    if (key !== undefined) {
      yield [...c.values()].map((e) => JSON.stringify(without(e, key))).join(",");
      yield "]";
      continue;
    }
    let first = true;
    for (const piece of c.pieces()) {
      if (piece.row) {
        yield `${first ? "" : ","}${JSON.stringify(piece.row)}`;
        first = false;
        continue;
      }
      const text = c.seed.json;
      if (!text) throw new Error(`the seed text of "${name}" is not built: call buildStateText first`);
      if (!first) yield ",";
      yield* seedRun(text, piece.from, piece.to);
      first = false;
    }
    yield "]";
  }
  yield "}}";
}

/** The diff answer `{"id":...,"changes":[...]}` in pieces, one change at a time, without internal keys. */
export function* diffJson(
  id: string,
  changes: Iterable<StateChange>,
  internal: InternalKeys = new Map(),
): IterableIterator<string> {
  yield `{"id":${JSON.stringify(id)},"changes":[`;
  let first = true;
  for (const change of changes) {
    yield `${first ? "" : ","}${JSON.stringify(shownChange(change, internal.get(change.collection)))}`;
    first = false;
  }
  yield "]}";
}

function shownChange(change: StateChange, key: string | undefined): StateChange {
  if (key === undefined) return change;
  const out: StateChange = { ...change };
  if (out.before) out.before = without(out.before, key);
  if (out.after) out.after = without(out.after, key);
  if (out.fields) out.fields = out.fields.filter((f) => f !== key);
  return out;
}
