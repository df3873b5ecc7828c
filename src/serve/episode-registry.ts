/**
 * The episodes one twin holds: `default` from the start, more created over
 * the control plane or by MCP sessions. Reset, state and diff go through
 * here so the control plane and the MCP adapter see the same episodes.
 */
import type { Model, SeedState } from "../learn/model-schema.js";
import { createEpisode, episodeSeed, episodeState, resetEpisode } from "./runtime/create-episode.js";
import { diffState } from "./runtime/diff-state.js";
import type { Episode, StateChange } from "./runtime/twin-types.js";

/** Episode ids the control plane accepts. */
export const EPISODE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** The name of the episode a request without `x-apptwin-episode` uses. */
export const DEFAULT_EPISODE = "default";

/** Holds a twin's episodes by id. */
export class EpisodeRegistry {
  private readonly episodes = new Map<string, Episode>();
  private counter = 0;

  constructor(
    private readonly model: Model,
    private readonly seed: SeedState,
  ) {
    this.create(DEFAULT_EPISODE);
  }

  /** Creates an episode; the id defaults to `episode-<n>`. Throws when the id is taken. */
  create(id?: string, seed = 0): Episode {
    let name = id;
    if (name === undefined) {
      do name = `episode-${++this.counter}`;
      while (this.episodes.has(name));
    }
    if (this.episodes.has(name)) throw new Error(`episode "${name}" already exists`);
    const episode = createEpisode(this.model, this.seed, { episodeId: name, seed });
    this.episodes.set(name, episode);
    return episode;
  }

  /** The episode with this id, or undefined. */
  get(id: string): Episode | undefined {
    return this.episodes.get(id);
  }

  /** True when an episode with this id exists. */
  has(id: string): boolean {
    return this.episodes.has(id);
  }

  /** Forgets an episode (an MCP session ended); `default` is never removed. */
  remove(id: string): void {
    if (id !== DEFAULT_EPISODE) this.episodes.delete(id);
  }

  /** Every episode id, sorted. */
  ids(): string[] {
    return [...this.episodes.keys()].sort();
  }

  /** Puts an episode back to the seed state. */
  reset(episode: Episode): void {
    resetEpisode(this.model, episode);
  }

  /** An episode's current state (a copy). */
  state(episode: Episode): SeedState {
    return episodeState(episode);
  }

  /** Every change from the seed to the episode's current state. */
  diff(episode: Episode): StateChange[] {
    const idFields = Object.fromEntries(this.model.collections.map((c) => [c.name, c.id_field]));
    return diffState(episodeSeed(episode), episodeState(episode), idFields);
  }
}
