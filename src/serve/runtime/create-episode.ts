/**
 * Episodes: each is its own deep copy of the seed state with its own clock,
 * id sequences, PRNG and replay cursors, so two agents never see each
 * other's writes and the same calls on a fresh episode give the same answers.
 */
import type { Entity, Model, SeedState } from "../../model/model-schema.js";
import { hashSeed } from "./prng.js";
import type { Episode } from "./twin-types.js";

/** Options of createEpisode: the episode id and an optional extra PRNG seed (default 0). */
export interface EpisodeOptions {
  episodeId: string;
  seed?: number;
}

function copyCollections(collections: Record<string, Entity[]>): Record<string, Entity[]> {
  return structuredClone(collections);
}

/** Creates a fresh episode from the model and seed state; the seed is deep-copied, never shared. */
export function createEpisode(model: Model, seed: SeedState, opts: EpisodeOptions): Episode {
  const seedNumber = opts.seed ?? 0;
  const state = copyCollections(seed.collections);
  for (const c of model.collections) state[c.name] ??= [];
  return {
    id: opts.episodeId,
    seed: seedNumber,
    state,
    clock_ms: model.clock.last_time_ms ?? 0,
    id_sequences: { ...model.id_sequences },
    // Seeded by the seed alone, not the episode id: any two fresh episodes with
    // the same seed give the same answers to the same calls (names are names).
    prng: hashSeed(`apptwin-episode\u0000${seedNumber}`),
    replay_cursors: {},
    seed_state: copyCollections(state),
  };
}

/** Puts the episode back to its seed: state, clock, id sequences, PRNG and replay cursors. */
export function resetEpisode(model: Model, episode: Episode): void {
  const fresh = createEpisode(
    model,
    { collections: episode.seed_state },
    {
      episodeId: episode.id,
      seed: episode.seed,
    },
  );
  episode.state = fresh.state;
  episode.clock_ms = fresh.clock_ms;
  episode.id_sequences = fresh.id_sequences;
  episode.prng = fresh.prng;
  episode.replay_cursors = fresh.replay_cursors;
}

/** The episode's current state as a SeedState (a deep copy, safe to serialise or keep). */
export function episodeState(episode: Episode): SeedState {
  return { collections: copyCollections(episode.state) };
}

/** The episode's seed as a SeedState (a deep copy). */
export function episodeSeed(episode: Episode): SeedState {
  return { collections: copyCollections(episode.seed_state) };
}
