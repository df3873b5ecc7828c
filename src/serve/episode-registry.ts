/**
 * The episodes one twin holds: `default` from the start, more created over
 * the control plane or by MCP sessions. Reset, state and diff go through
 * here so the control plane and the MCP adapter see the same episodes.
 * Each episode holds its own changes over the shared seed and every MCP
 * initialize makes one, so their number is bounded: a new one past the cap
 * evicts the least recently used episode that no live MCP session is bound
 * to (never `default`), or is refused.
 */
import type { Model, SeedState } from "../model/model-schema.js";
import { createEpisode, episodeState, resetEpisode } from "./runtime/create-episode.js";
import { diffEpisode } from "./runtime/diff-state.js";
import type { Episode, StateChange } from "./runtime/twin-types.js";

/** Episode ids the control plane accepts. */
export const EPISODE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** What an episode id may be, as the messages say it. */
export const EPISODE_ID_RULE = '1-128 letters, digits, ".", "_" or "-", starting with a letter or digit';

/** The name of the episode a request without `x-apptwin-episode` uses. */
export const DEFAULT_EPISODE = "default";

/** How many episodes a twin holds at most by default (`default` included). */
export const DEFAULT_MAX_EPISODES = 64;

/** A new episode would pass the cap and every other episode has a live MCP session. */
export class TooManyEpisodesError extends Error {
  readonly code = "too_many_episodes";
  readonly hint =
    "End an MCP session (DELETE /mcp with its mcp-session-id) or let it idle out, or serve with a larger --max-episodes.";

  constructor(readonly limit: number) {
    super(
      `The twin holds its limit of ${limit} episodes and none can be evicted: every one but "default" has a live MCP session.`,
    );
    this.name = "TooManyEpisodesError";
  }

  /** The answer body: `{error, message, hint}`. */
  body(): Record<string, string> {
    return { error: this.code, message: this.message, hint: this.hint };
  }
}

/** Holds a twin's episodes by id, least recently used first. */
export class EpisodeRegistry {
  /** In order of last use (a Map keeps insertion order; a use re-inserts). */
  private readonly episodes = new Map<string, Episode>();
  /** Live MCP sessions per episode id. */
  private readonly bound = new Map<string, number>();
  private counter = 0;

  constructor(
    private readonly model: Model,
    private readonly seed: SeedState,
    private readonly maxEpisodes = DEFAULT_MAX_EPISODES,
  ) {
    this.create(DEFAULT_EPISODE);
  }

  /**
   * Creates an episode; the id defaults to `episode-<n>`. At the cap, the least
   * recently used episode without a live session is evicted first; throws
   * `TooManyEpisodesError` when there is none, and an Error when the id is taken.
   */
  create(id?: string, seed = 0): Episode {
    let name = id;
    if (name === undefined) {
      do name = `episode-${++this.counter}`;
      while (this.episodes.has(name));
    }
    if (this.episodes.has(name)) throw new Error(`episode "${name}" already exists`);
    if (this.episodes.size >= this.maxEpisodes) this.evictOne();
    const episode = createEpisode(this.model, this.seed, { episodeId: name, seed });
    this.episodes.set(name, episode);
    return episode;
  }

  private evictOne(): void {
    for (const id of this.episodes.keys()) {
      if (id === DEFAULT_EPISODE || this.bound.has(id)) continue;
      this.episodes.delete(id);
      return;
    }
    throw new TooManyEpisodesError(this.maxEpisodes);
  }

  /** The episode with this id, or undefined; marks it used (the last to be evicted). */
  get(id: string): Episode | undefined {
    const episode = this.episodes.get(id);
    if (episode) {
      this.episodes.delete(id);
      this.episodes.set(id, episode);
    }
    return episode;
  }

  /** Marks an episode as used by one more live MCP session: it is not evicted while bound. */
  bind(id: string): void {
    this.bound.set(id, (this.bound.get(id) ?? 0) + 1);
  }

  /** One MCP session on the episode ended; the episode counts as just used. */
  release(id: string): void {
    const left = (this.bound.get(id) ?? 0) - 1;
    if (left > 0) this.bound.set(id, left);
    else this.bound.delete(id);
    this.get(id);
  }

  /** How many live MCP sessions are bound to episodes. */
  sessions(): number {
    let n = 0;
    for (const count of this.bound.values()) n += count;
    return n;
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

  /** Every change from the seed to the episode's current state (O(changes)). */
  diff(episode: Episode): StateChange[] {
    return diffEpisode(episode.state);
  }
}
