/**
 * Episodes: each is the shared seed state under its own changes, with its
 * own clock, id sequences, PRNG and replay cursors, so two agents never see
 * each other's writes and the same calls on a fresh episode give the same
 * answers. Creating one is O(1) in the seed's size (the seed is shared, frozen).
 */
import type { Model, SeedState } from "../../model/model-schema.js";
import { EpisodeState, sharedSeed } from "./episode-state.js";
import { hashSeed } from "./prng.js";
import type { Episode } from "./twin-types.js";

/** Options of createEpisode: the episode id and an optional extra PRNG seed (default 0). */
export interface EpisodeOptions {
  episodeId: string;
  seed?: number;
}

/** The clock, id sequences, PRNG and replay cursors of a fresh episode with this PRNG seed. */
function freshCounters(model: Model, seedNumber: number): Omit<Episode, "id" | "seed" | "state"> {
  return {
    clock_ms: model.clock.last_time_ms ?? 0,
    id_sequences: { ...model.id_sequences },
    // Seeded by the seed alone, not the episode id: any two fresh episodes with
    // the same seed give the same answers to the same calls (names are names).
    prng: hashSeed(`apptwin-episode\u0000${seedNumber}`),
    replay_cursors: {},
  };
}

/**
 * Creates a fresh episode from the model and seed state. The seed is shared,
 * not copied: it is deeply frozen in place the first time (see `sharedSeed`).
 */
export function createEpisode(model: Model, seed: SeedState, opts: EpisodeOptions): Episode {
  const seedNumber = opts.seed ?? 0;
  return {
    id: opts.episodeId,
    seed: seedNumber,
    state: EpisodeState.of(sharedSeed(seed), model),
    ...freshCounters(model, seedNumber),
  };
}

/** Puts the episode back to its seed: drops its changes, resets clock, id sequences, PRNG and replay cursors. */
export function resetEpisode(model: Model, episode: Episode): void {
  episode.state.reset();
  Object.assign(episode, freshCounters(model, episode.seed));
}

/** The episode's current state as a SeedState (fresh arrays of frozen entities: safe to keep or serialise). */
export function episodeState(episode: Episode): SeedState {
  return episode.state.toSeedState();
}

/** The seed the episode started from (frozen; shared by every episode of it). */
export function episodeSeed(episode: Episode): SeedState {
  return episode.state.seed.state;
}
