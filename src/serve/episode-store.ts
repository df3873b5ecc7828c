/**
 * Where a twin's episodes live, as the adapters see them: in this process
 * (`MemoryEpisodeStore`, the default) or in a store every replica of the twin
 * shares (Redis, `--store redis://…`). The adapters never hold an episode
 * themselves: they find it by id and hand the runtime's pure step to
 * `handle.run`, which keeps what the step changed — in memory by changing the
 * episode in place, in a shared store atomically, so two replicas writing the
 * same episode at once never lose a write or reuse an id.
 */
import type { Eviction } from "./episode-registry.js";
import type { Episode } from "./runtime/twin-types.js";

/** One episode as a request reaches it: its id and seed, and the way to run the runtime on it. */
export interface EpisodeHandle {
  readonly id: string;
  readonly seed: number;
  /**
   * Identity of this episode from its creation until it is evicted or created again (a reset keeps it): what
   * per-episode side data (journal, faults) is kept under in this process.
   */
  readonly key: object;
  /**
   * Runs a step of the pure runtime on the episode's current state and keeps what it changed. In a shared store
   * the step may run again on a newer state when another replica wrote meanwhile, so it must depend on the
   * episode and its own arguments alone.
   */
  run<T>(step: (episode: Episode) => T): T | Promise<T>;
  /** The episode as of now with its state frozen (a snapshot): what state and diff answers are read from. */
  snapshot(): Episode | Promise<Episode>;
}

/** The answer for an episode id that names no episode: 410 when it was evicted or expired, else 404. */
export interface MissingEpisode {
  status: 404 | 410;
  body: Record<string, unknown>;
}

/** A new episode, and the episode evicted to make room for it (null when none was). */
export interface CreatedHandle {
  handle: EpisodeHandle;
  evicted: Eviction | null;
}

/** What health reports of the episodes. */
export interface EpisodeHealth {
  episodes: number;
  max_episodes: number;
  /** Live MCP sessions. */
  sessions: number;
  evictions: { count: number; last: Eviction | null };
}

/** An MCP session's binding as a shared store keeps it (so any replica answers the session). */
export interface SessionBinding {
  episode: string;
  /** True when the session's initialize created the episode (named by the session id). */
  owns: boolean;
}

/** MCP sessions kept in a shared store: bound to an episode, ended by DELETE or after the idle time. */
export interface SharedSessions {
  /** Binds a new session to an existing episode; the episode's absence when it is gone. */
  open(sid: string, episode: string): Promise<MissingEpisode | null>;
  /** The session's binding (counting as a request: its idle time starts again), or null when it ended. */
  lookup(sid: string): Promise<SessionBinding | null>;
  /** Ends the session; its episode stays (to be read and graded) and counts as just used. */
  end(sid: string): Promise<void>;
}

/** Where a twin's episodes live. */
export interface EpisodeStore {
  /** `memory` (this process) or the URL of the shared store, without credentials. */
  readonly where: string;
  readonly maxEpisodes: number;
  /** MCP sessions in the store (any replica answers any session); null when sessions live in this process. */
  readonly sessions: SharedSessions | null;
  /** The episode of this id, marked used; or the answer for its absence. */
  find(id: string): Promise<EpisodeHandle | MissingEpisode>;
  /**
   * `find` for a request whose step is run at once on the handle: a shared store may hand the copy it holds
   * without asking first, the step's own round trip checking it (its `run` then throws EpisodeGoneError when the
   * episode is gone). Absent: `find`.
   */
  findToRun?(id: string): Promise<EpisodeHandle | MissingEpisode>;
  /** `find` answered at once, by a store holding its episodes in this process (no promise per request). */
  findNow?(id: string): EpisodeHandle | MissingEpisode;
  /**
   * Creates an episode (id default `episode-<n>`), evicting the least recently used one without a live MCP
   * session at the cap. `session`: the MCP session whose initialize creates it, bound before anything can
   * evict it. Throws `EpisodeExistsError`, `TooManyEpisodesError`.
   */
  create(id: string | undefined, seed: number, session?: string): Promise<CreatedHandle>;
  /** Drops the episode's changes: clock, id sequences, PRNG and replay cursors start again. */
  reset(handle: EpisodeHandle): Promise<void>;
  /** Every episode id, sorted. */
  ids(): Promise<string[]>;
  health(): Promise<EpisodeHealth>;
  /** Lets go of the store (the connection); the episodes stay where they are kept. */
  close(): Promise<void>;
}

/** True when a lookup found no episode. */
export function isMissing(found: EpisodeHandle | MissingEpisode): found is MissingEpisode {
  return "status" in found;
}

/** An episode id is taken. */
export class EpisodeExistsError extends Error {
  constructor(readonly id: string) {
    super(`episode "${id}" already exists`);
    this.name = "EpisodeExistsError";
  }
}

/**
 * The shared store cannot be reached (or failed): the twin answers 503 with the reason, never an answer made
 * without the episode's state.
 */
export class StoreUnavailableError extends Error {
  readonly code: string = "store_unavailable";

  constructor(
    readonly where: string,
    readonly reason: string,
  ) {
    super(
      `The episode store (${where}) cannot be reached: ${reason}. The twin does not answer without the episode's state; retry once the store is back.`,
    );
    this.name = "StoreUnavailableError";
  }

  /** The answer body: `{error, message, store, reason}`. */
  body(): Record<string, string> {
    return { error: this.code, message: this.message, store: this.where, reason: this.reason };
  }
}

/**
 * Other replicas wrote the episode each time this replica ran a request on it (many writers on one episode at
 * once): the request was not applied. Answered 503 like a store out of reach — retrying is right — but named
 * for what happened.
 */
export class EpisodeContendedError extends StoreUnavailableError {
  override readonly code = "episode_contended";

  constructor(
    where: string,
    readonly episode: string,
    readonly attempts: number,
  ) {
    super(where, `episode "${episode}" was written by other replicas on each of ${attempts} tries`);
    this.message = `Episode "${episode}" was written by other replicas on each of ${attempts} tries, so this request was not applied; retry it (many writers on one episode at once wait on each other).`;
    this.name = "EpisodeContendedError";
  }
}

/** The episode went away (evicted, expired) while a request was on it: answered as its absence. */
export class EpisodeGoneError extends Error {
  constructor(readonly missing: MissingEpisode) {
    super(String(missing.body.message));
    this.name = "EpisodeGoneError";
  }
}
