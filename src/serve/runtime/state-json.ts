/**
 * An episode's state and diff as JSON text in pieces, for answers too large
 * to build at once: the state copies runs of unchanged seed rows from the
 * seed's JSON text (serialised once, shared by every episode) and serialises
 * only the rows the episode wrote, so reading a 100k-entity state costs the
 * episode's changes, not the seed. The adapter writes the pieces as they come.
 */
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
 * The state answer `{"collections":{"name":[...],...}}` in pieces (text or bytes), collections in the
 * state's order. Every seed text must be built first (`buildStateText`). Take it from a snapshot when
 * writes may happen while the pieces are written.
 */
export function* stateJson(state: EpisodeState): IterableIterator<string | Uint8Array> {
  yield '{"collections":{';
  let firstCollection = true;
  for (const name of state.names()) {
    yield `${firstCollection ? "" : ","}${JSON.stringify(name)}:[`;
    firstCollection = false;
    const c = state.collection(name);
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

/** The diff answer `{"id":...,"changes":[...]}` in pieces, one change at a time. */
export function* diffJson(id: string, changes: Iterable<StateChange>): IterableIterator<string> {
  yield `{"id":${JSON.stringify(id)},"changes":[`;
  let first = true;
  for (const change of changes) {
    yield `${first ? "" : ","}${JSON.stringify(change)}`;
    first = false;
  }
  yield "]}";
}
