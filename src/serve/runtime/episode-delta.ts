/**
 * What one step of the runtime changed in an episode, as data: the writes it
 * made to the state (in order) and the counters it moved (clock, id
 * sequences, PRNG, replay cursors). A shared episode store keeps the deltas
 * of an episode in order, and any replica replays them onto a fresh episode
 * to the very same state: the runtime stays pure, the store is an edge around it.
 */
import type { CollectionWrite } from "./collection-state.js";
import type { Episode } from "./twin-types.js";

/** One step's changes to an episode; a counter is present only when the step moved it. */
export interface EpisodeDelta {
  writes: { collection: string; write: CollectionWrite }[];
  clock_ms?: number;
  /** Every id sequence after the step (they are few). */
  id_sequences?: Record<string, number>;
  prng?: [number, number, number, number];
  /** The replay cursors the step moved, with their new counts. */
  replay_cursors?: Record<string, number>;
}

function sameSequences(a: Record<string, number>, b: Record<string, number>): boolean {
  const keys = Object.keys(b);
  return keys.length === Object.keys(a).length && keys.every((k) => a[k] === b[k]);
}

/**
 * Runs a step of the runtime on the episode (changing it in place, as the runtime does) and returns its result
 * with what it changed; the delta is null when the step changed nothing (a read).
 */
export function runStep<T>(
  episode: Episode,
  step: (e: Episode) => T,
): { result: T; delta: EpisodeDelta | null } {
  const clock = episode.clock_ms;
  const sequences = { ...episode.id_sequences };
  const [p0, p1, p2, p3] = episode.prng;
  const cursors = { ...episode.replay_cursors };
  const { result, writes } = episode.state.recording(() => step(episode));
  const delta: EpisodeDelta = { writes };
  let changed = writes.length > 0;
  if (episode.clock_ms !== clock) {
    delta.clock_ms = episode.clock_ms;
    changed = true;
  }
  if (!sameSequences(sequences, episode.id_sequences)) {
    delta.id_sequences = { ...episode.id_sequences };
    changed = true;
  }
  const p = episode.prng;
  if (p[0] !== p0 || p[1] !== p1 || p[2] !== p2 || p[3] !== p3) {
    delta.prng = [p[0], p[1], p[2], p[3]];
    changed = true;
  }
  for (const [key, n] of Object.entries(episode.replay_cursors)) {
    if (cursors[key] === n) continue;
    delta.replay_cursors ??= {};
    delta.replay_cursors[key] = n;
    changed = true;
  }
  return { result, delta: changed ? delta : null };
}

/** Replays a delta onto the episode it was made on (or a copy of it at the same point): the same state results. */
export function applyDelta(episode: Episode, delta: EpisodeDelta): void {
  for (const { collection, write } of delta.writes) episode.state.replay(collection, write);
  if (delta.clock_ms !== undefined) episode.clock_ms = delta.clock_ms;
  if (delta.id_sequences !== undefined) episode.id_sequences = { ...delta.id_sequences };
  if (delta.prng !== undefined) episode.prng = [delta.prng[0], delta.prng[1], delta.prng[2], delta.prng[3]];
  if (delta.replay_cursors !== undefined) Object.assign(episode.replay_cursors, delta.replay_cursors);
}
