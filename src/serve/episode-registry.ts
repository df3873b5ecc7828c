/**
 * The episodes one twin holds: `default` from the start, more created over
 * the control plane or by MCP sessions, so the control plane and the MCP
 * adapter see the same episodes. An evicted episode is remembered (the most
 * recent REMEMBERED_EVICTIONS), so its requests are told it was evicted.
 * Each episode holds its own changes over the shared seed and every MCP
 * initialize makes one, so their number is bounded: a new one past the cap
 * evicts the least recently used episode that no live MCP session is bound
 * to (never `default`), or is refused.
 */
import type { Model, SeedState } from "../model/model-schema.js";
import { createEpisode, resetEpisode } from "./runtime/create-episode.js";
import type { Episode } from "./runtime/twin-types.js";

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

/** An episode dropped to make room for a new one. */
export interface Eviction {
  /** The evicted episode. */
  episode: string;
  /** The episode whose creation evicted it. */
  evicted_for: string;
  /** The cap it was evicted at (`--max-episodes`). */
  limit: number;
}

/** How many evicted ids a registry remembers (most recent first kept), so their requests get 410, not 404. */
export const REMEMBERED_EVICTIONS = 10_000;

/** A new episode, and the episode evicted to make room for it (null when none was). */
export interface CreatedEpisode {
  episode: Episode;
  evicted: Eviction | null;
}

/** Holds a twin's episodes by id, least recently used first. */
export class EpisodeRegistry {
  /** In order of last use (a Map keeps insertion order; a use re-inserts). */
  private readonly episodes = new Map<string, Episode>();
  /** Live MCP sessions per episode id. */
  private readonly bound = new Map<string, number>();
  /** The most recent evictions by evicted id, oldest first, at most REMEMBERED_EVICTIONS. */
  private readonly evictions = new Map<string, Eviction>();
  private evictionCount = 0;
  private lastEviction: Eviction | null = null;
  private counter = 0;

  constructor(
    private readonly model: Model,
    private readonly seed: SeedState,
    readonly maxEpisodes = DEFAULT_MAX_EPISODES,
  ) {
    this.create(DEFAULT_EPISODE);
  }

  /**
   * Creates an episode; the id defaults to `episode-<n>`. At the cap, the least
   * recently used episode without a live session is evicted first (and named in
   * the result); throws `TooManyEpisodesError` when there is none, and an Error
   * when the id is taken.
   */
  create(id?: string, seed = 0): CreatedEpisode {
    let name = id;
    if (name === undefined) {
      do name = `episode-${++this.counter}`;
      while (this.episodes.has(name));
    }
    if (this.episodes.has(name)) throw new Error(`episode "${name}" already exists`);
    const evicted = this.episodes.size >= this.maxEpisodes ? this.evictOne(name) : null;
    const episode = createEpisode(this.model, this.seed, { episodeId: name, seed });
    this.episodes.set(name, episode);
    this.evictions.delete(name);
    return { episode, evicted };
  }

  private evictOne(evictedFor: string): Eviction {
    for (const id of this.episodes.keys()) {
      if (id === DEFAULT_EPISODE || this.bound.has(id)) continue;
      this.episodes.delete(id);
      const eviction = { episode: id, evicted_for: evictedFor, limit: this.maxEpisodes };
      this.evictions.delete(id);
      this.evictions.set(id, eviction);
      if (this.evictions.size > REMEMBERED_EVICTIONS)
        this.evictions.delete(this.evictions.keys().next().value!);
      this.evictionCount += 1;
      this.lastEviction = eviction;
      return eviction;
    }
    throw new TooManyEpisodesError(this.maxEpisodes);
  }

  /** How the episode of this id was evicted, when it was (among the last REMEMBERED_EVICTIONS); else undefined. */
  evictionOf(id: string): Eviction | undefined {
    return this.episodes.has(id) ? undefined : this.evictions.get(id);
  }

  /** How many episodes were evicted since the twin started, and the latest eviction. */
  evictionReport(): { count: number; last: Eviction | null } {
    return { count: this.evictionCount, last: this.lastEviction };
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

  /** How many episodes the twin holds. */
  get size(): number {
    return this.episodes.size;
  }

  /** Every episode id, sorted. */
  ids(): string[] {
    return [...this.episodes.keys()].sort();
  }

  /** Puts an episode back to the seed state: drops its changes (O(1)). */
  reset(episode: Episode): void {
    resetEpisode(this.model, episode);
  }
}
