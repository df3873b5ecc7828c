/**
 * The default episode store: the episodes of this process, in its memory
 * (an `EpisodeRegistry`), changed in place by the runtime. Nothing is shared
 * with another process and nothing survives a restart; MCP sessions live in
 * the process too (`McpSessions`).
 */
import type { Model, SeedState } from "../model/model-schema.js";
import { EpisodeRegistry } from "./episode-registry.js";
import {
  type CreatedHandle,
  EpisodeExistsError,
  type EpisodeHandle,
  type EpisodeHealth,
  type EpisodeStore,
  type MissingEpisode,
} from "./episode-store.js";
import type { Episode } from "./runtime/twin-types.js";
import { missingEpisode } from "./unknown-episode.js";

/** A handle on an episode held in this process: steps change it in place. */
export function memoryHandle(episode: Episode): EpisodeHandle {
  return {
    id: episode.id,
    seed: episode.seed,
    key: episode,
    run: (step) => step(episode),
    snapshot: () => ({ ...episode, state: episode.state.snapshot() }),
  };
}

/** The episodes of one process. */
export class MemoryEpisodeStore implements EpisodeStore {
  readonly where = "memory";
  readonly sessions = null;
  readonly registry: EpisodeRegistry;
  private readonly handles = new WeakMap<Episode, EpisodeHandle>();

  constructor(model: Model, seed: SeedState, maxEpisodes?: number) {
    this.registry = new EpisodeRegistry(model, seed, maxEpisodes);
  }

  get maxEpisodes(): number {
    return this.registry.maxEpisodes;
  }

  /** The handle of an episode of the registry (one per episode, so side data keyed by it stays). */
  handleOf(episode: Episode): EpisodeHandle {
    let h = this.handles.get(episode);
    if (!h) {
      h = memoryHandle(episode);
      this.handles.set(episode, h);
    }
    return h;
  }

  /** `find` without waiting: the episode marked used, or the answer for its absence. */
  findNow(id: string): EpisodeHandle | MissingEpisode {
    const episode = this.registry.get(id);
    return episode ? this.handleOf(episode) : missingEpisode(this.registry, id);
  }

  async find(id: string): Promise<EpisodeHandle | MissingEpisode> {
    return this.findNow(id);
  }

  async create(id: string | undefined, seed: number): Promise<CreatedHandle> {
    if (id !== undefined && this.registry.has(id)) throw new EpisodeExistsError(id);
    const { episode, evicted } = this.registry.create(id, seed);
    return { handle: this.handleOf(episode), evicted };
  }

  async reset(handle: EpisodeHandle): Promise<void> {
    this.registry.reset(handle.key as Episode);
  }

  async ids(): Promise<string[]> {
    return this.registry.ids();
  }

  async health(): Promise<EpisodeHealth> {
    return {
      episodes: this.registry.size,
      max_episodes: this.registry.maxEpisodes,
      sessions: this.registry.sessions(),
      evictions: this.registry.evictionReport(),
    };
  }

  async close(): Promise<void> {}
}
