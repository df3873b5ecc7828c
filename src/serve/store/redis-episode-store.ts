/**
 * Episodes in Redis, shared by every replica of a twin: each episode is the
 * bundle's seed (which every replica holds) under its list of deltas in
 * Redis, so any replica rebuilds it, and a replica keeps the episodes it
 * served lately in memory, catching up on the deltas it has not seen at each
 * request (one round trip). A step of the runtime runs on the replica's copy;
 * what it changed is appended by a script only onto exactly the state it ran
 * on (incarnation, reset count and length checked in Redis), else the copy is
 * rebuilt and the step run again: two replicas writing one episode at once
 * never lose a write or reuse an id. Keys carry the bundle's digest, so two
 * bundles never mix.
 */
import { createHash } from "node:crypto";
import {
  DEFAULT_EPISODE,
  DEFAULT_MAX_EPISODES,
  type Eviction,
  TooManyEpisodesError,
} from "../episode-registry.js";
import {
  type CreatedHandle,
  EpisodeContendedError,
  EpisodeExistsError,
  EpisodeGoneError,
  type EpisodeHandle,
  type EpisodeHealth,
  type EpisodeStore,
  type MissingEpisode,
  type SessionBinding,
  type SharedSessions,
} from "../episode-store.js";
import { createEpisode } from "../runtime/create-episode.js";
import { applyDelta, type EpisodeDelta, runStep } from "../runtime/episode-delta.js";
import type { Episode } from "../runtime/twin-types.js";
import type { TwinBundle } from "../twin-bundle.js";
import { evictedEpisode, expiredEpisode, unknownEpisode } from "../unknown-episode.js";
import { RedisConnection, type Script, script } from "./redis-connection.js";
import * as lua from "./redis-scripts.js";

const SCRIPTS = Object.fromEntries(Object.entries(lua).map(([name, text]) => [name, script(text)])) as Record<
  keyof typeof lua,
  Script
>;

/** How often a step is run again on a newer state before the write is refused (503). */
export const MAX_ATTEMPTS = 64;

/** Options of the Redis store. */
export interface RedisStoreOptions {
  /** Most episodes the store holds for this bundle, `default` included. */
  maxEpisodes?: number;
  /** An episode unused this long is dropped by Redis (0: never); `default` never is. */
  episodeTtlMs?: number;
  /** An MCP session without a request this long ends. */
  sessionIdleMs: number;
  /** Episodes this replica keeps in memory between requests (default: maxEpisodes). */
  cachedEpisodes?: number;
  /** Told when the connection is lost and back (`apptwin serve` prints it on stderr). */
  onState?: (line: string) => void;
}

/** The digest that keys a bundle's episodes: the model and the seed they are changes to. */
export function bundleDigest(bundle: Pick<TwinBundle, "model" | "seed">): string {
  const h = createHash("sha256");
  h.update(JSON.stringify(bundle.model));
  h.update("\n");
  h.update(JSON.stringify(bundle.seed));
  return h.digest("hex").slice(0, 32);
}

/** A replica's copy of an episode, and how far into the store's deltas it is. */
interface Copy {
  episode: Episode;
  inc: string;
  gen: string;
  /** Deltas applied (the store's list length when in step). */
  len: number;
  key: object;
}

/** Connects to Redis and opens the bundle's episode store there (creating `default` when it is not yet). */
export async function openRedisStore(
  url: URL,
  bundle: Pick<TwinBundle, "model" | "seed">,
  opts: RedisStoreOptions,
): Promise<RedisEpisodeStore> {
  let store: RedisEpisodeStore | null = null;
  // A Redis that restarted empty (no persistence) gets its `default` episode again once reachable.
  const ensureDefault = () =>
    store!.create(DEFAULT_EPISODE, 0).catch((err) => {
      if (!(err instanceof EpisodeExistsError)) throw err;
    });
  const connection = await RedisConnection.open(url, {
    onState: opts.onState,
    onBack: () => void ensureDefault().catch(() => {}),
  });
  store = new RedisEpisodeStore(connection, bundle, opts);
  try {
    await ensureDefault();
  } catch (err) {
    await connection.close();
    throw err;
  }
  return store;
}

/** One bundle's episodes in Redis, as one replica reaches them. */
export class RedisEpisodeStore implements EpisodeStore {
  readonly where: string;
  readonly maxEpisodes: number;
  readonly sessions: SharedSessions;
  private readonly prefix: string;
  private readonly ttl: number;
  private readonly cacheSize: number;
  private readonly copies = new Map<string, Copy>();
  private readonly locks = new Map<string, Promise<void>>();
  /** Side-data keys by `id#inc`, so a journal outlives its copy being rebuilt. */
  private readonly keys = new Map<string, object>();

  constructor(
    private readonly redis: RedisConnection,
    private readonly bundle: Pick<TwinBundle, "model" | "seed">,
    private readonly opts: RedisStoreOptions,
  ) {
    this.where = redis.where;
    this.maxEpisodes = opts.maxEpisodes ?? DEFAULT_MAX_EPISODES;
    this.ttl = opts.episodeTtlMs ?? 0;
    this.cacheSize = opts.cachedEpisodes ?? this.maxEpisodes;
    this.prefix = `apptwin:v1:{${bundleDigest(bundle)}}:`;
    const idle = opts.sessionIdleMs;
    this.sessions = {
      open: async (sid, episode) => {
        const [status] = await this.run("OPEN_SESSION", [sid, episode, idle, this.ttl]);
        return status === "ok" ? null : this.missing(episode);
      },
      lookup: async (sid): Promise<SessionBinding | null> => {
        const [status, episode, owns] = await this.run("LOOKUP_SESSION", [sid, idle]);
        return status === "ok" ? { episode: String(episode), owns: owns === "1" } : null;
      },
      end: async (sid) => {
        await this.run("END_SESSION", [sid, this.ttl]);
      },
    };
  }

  private run(name: keyof typeof lua, args: (string | number)[]): Promise<unknown[]> {
    return this.redis.run(SCRIPTS[name], [this.prefix, ...args]);
  }

  async find(id: string): Promise<EpisodeHandle | MissingEpisode> {
    return this.exclusive(id, async () => {
      const copy = await this.sync(id);
      return "status" in copy ? copy : this.handle(id, copy, true);
    });
  }

  /**
   * A handle for one step run at once (a twin request): when this replica holds a copy, it is handed without a
   * round trip, and the step's own round trip checks it — a write's COMMIT (refused, with the deltas to rebuild
   * from, when the copy is behind), a read's SYNC (the step run again when deltas came) — so a write costs one
   * round trip, not two. The episode's absence then surfaces from `run` as EpisodeGoneError.
   */
  async findToRun(id: string): Promise<EpisodeHandle | MissingEpisode> {
    const copy = this.copies.get(id);
    if (!copy) return this.find(id);
    this.keep(id, copy);
    return this.handle(id, copy, false);
  }

  async create(id: string | undefined, seed: number, session?: string): Promise<CreatedHandle> {
    const idle = this.opts.sessionIdleMs;
    const reply = await this.run("CREATE", [id ?? "", seed, this.maxEpisodes, this.ttl, session ?? "", idle]);
    const [status, name, inc, evicted] = reply as string[];
    if (status === "exists") throw new EpisodeExistsError(String(name));
    if (status === "full") throw new TooManyEpisodesError(this.maxEpisodes);
    const made = name!;
    const copy = this.fresh(made, seed, inc!, "0");
    this.keep(made, copy);
    return {
      handle: this.handle(made, copy, true),
      evicted: evicted ? (JSON.parse(evicted) as Eviction) : null,
    };
  }

  async reset(handle: EpisodeHandle): Promise<void> {
    await this.exclusive(handle.id, async () => {
      this.copies.delete(handle.id);
      const [status] = await this.run("RESET", [handle.id, this.ttl]);
      if (status !== "ok") throw new EpisodeGoneError(await this.missing(handle.id));
    });
  }

  async ids(): Promise<string[]> {
    const ids = (await this.run("IDS", [this.ttl])) as string[];
    return ids.map(String).sort();
  }

  async health(): Promise<EpisodeHealth> {
    const [episodes, sessions, count, last] = await this.run("HEALTH", [this.ttl]);
    return {
      episodes: Number(episodes),
      max_episodes: this.maxEpisodes,
      sessions: Number(sessions),
      evictions: { count: Number(count), last: last ? (JSON.parse(String(last)) as Eviction) : null },
    };
  }

  async close(): Promise<void> {
    await this.redis.close();
  }

  /** The answer for an id the store does not hold: 410 when it was evicted or expired, else 404. */
  private async missing(id: string, gone?: string): Promise<MissingEpisode> {
    if (gone) {
      const record = JSON.parse(gone) as Eviction & { expired?: true; ttl_ms?: number };
      return record.expired
        ? { status: 410, body: expiredEpisode(id, record.ttl_ms ?? this.ttl) }
        : { status: 410, body: evictedEpisode(record) };
    }
    return { status: 404, body: unknownEpisode(await this.ids(), id) };
  }

  /** Brings this replica's copy of the episode up to the store's deltas (marking the episode used). */
  private async sync(id: string): Promise<Copy | MissingEpisode> {
    const had = this.copies.get(id);
    const reply = await this.run("SYNC", had ? this.syncArgs(id, had) : [id, "", "", 0, this.ttl]);
    return (await this.caughtUp(id, had, reply)).copy;
  }

  /**
   * The copy a SYNC reply (or a refused COMMIT's, which carries the same) brings `had` to: its deltas applied
   * onto `had` when it is of this incarnation and reset and as long as `from`, else onto a fresh copy; or the
   * episode's absence. `news`: how many deltas it applied.
   */
  private async caughtUp(
    id: string,
    had: Copy | undefined,
    reply: unknown[],
  ): Promise<{ copy: Copy | MissingEpisode; news: number }> {
    const status = reply[0];
    if (status !== "ok" && status !== "conflict") {
      this.copies.delete(id);
      return { copy: await this.missing(id, status === "gone" ? String(reply[1]) : undefined), news: 0 };
    }
    const [, seed, inc, gen, from, deltas] = reply as [string, string, string, string, number, string[]];
    let copy = had;
    if (!copy || copy.inc !== inc || copy.gen !== gen || Number(from) !== copy.len) {
      copy = this.fresh(id, Number(seed), inc, gen);
    }
    for (const text of deltas) applyDelta(copy.episode, JSON.parse(text) as EpisodeDelta);
    copy.len += deltas.length;
    this.keep(id, copy);
    return { copy, news: copy === had ? deltas.length : -1 };
  }

  /** A copy of a fresh episode of this incarnation, with no delta applied. */
  private fresh(id: string, seed: number, inc: string, gen: string): Copy {
    const episode = createEpisode(this.bundle.model, this.bundle.seed, { episodeId: id, seed });
    const name = `${id}#${inc}`;
    let key = this.keys.get(name);
    if (!key) {
      key = {};
      this.keys.set(name, key);
      if (this.keys.size > this.cacheSize * 4) this.keys.delete(this.keys.keys().next().value!);
    }
    return { episode, inc, gen, len: 0, key };
  }

  /** Keeps a copy as the most recently used; past the bound the least recently used goes. */
  private keep(id: string, copy: Copy): void {
    this.copies.delete(id);
    this.copies.set(id, copy);
    while (this.copies.size > this.cacheSize) this.copies.delete(this.copies.keys().next().value!);
  }

  /** `synced`: the copy was brought up to the store just now (by `find`), so a read on it needs no check. */
  private handle(id: string, copy: Copy, synced: boolean): EpisodeHandle {
    return {
      id,
      seed: copy.episode.seed,
      key: copy.key,
      run: (step) => this.exclusive(id, () => this.step(id, step, synced)),
      snapshot: () =>
        this.exclusive(id, async () => {
          const now = synced ? (this.copies.get(id) ?? (await this.sync(id))) : await this.sync(id);
          if ("status" in now) throw new EpisodeGoneError(now);
          return { ...now.episode, state: now.episode.state.snapshot() };
        }),
    };
  }

  /**
   * Runs a step on the copy and appends its delta (one COMMIT, refused unless the copy is exactly the store's
   * state); refused, the copy is rebuilt from the deltas the refusal carries and the step run again. A read on a
   * copy not `synced` is checked with one SYNC, and run again when it brought deltas.
   */
  private async step<T>(id: string, step: (episode: Episode) => T, synced: boolean): Promise<T> {
    let checked = synced;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const copy = this.copies.get(id) ?? (await this.sync(id));
      if ("status" in copy) throw new EpisodeGoneError(copy);
      let ran: { result: T; delta: EpisodeDelta | null };
      try {
        ran = runStep(copy.episode, step);
      } catch (err) {
        this.copies.delete(id);
        throw err;
      }
      if (!ran.delta) {
        if (checked) return ran.result;
        // The read changed nothing, so the copy is caught up in place; the step runs again only if deltas came.
        const caught = await this.caughtUp(id, copy, await this.run("SYNC", this.syncArgs(id, copy)));
        if ("status" in caught.copy) throw new EpisodeGoneError(caught.copy);
        if (caught.news === 0) return ran.result;
        checked = true;
        continue;
      }
      const delta = JSON.stringify(ran.delta);
      let reply: unknown[];
      try {
        reply = await this.run("COMMIT", [id, copy.inc, copy.gen, copy.len, delta, this.ttl]);
      } catch (err) {
        this.copies.delete(id);
        throw err;
      }
      if (reply[0] === "ok") {
        copy.len += 1;
        return ran.result;
      }
      // The copy ran the step ahead of the store: it is rebuilt from the deltas the refusal carries.
      this.copies.delete(id);
      const rebuilt = await this.caughtUp(id, undefined, reply);
      if ("status" in rebuilt.copy) throw new EpisodeGoneError(rebuilt.copy);
      checked = true;
      // A random pause that grows with the tries, so a replica that keeps losing the race to another gets a turn
      // (a refusal on the first try is a copy that was behind, not a race: it goes again at once).
      if (attempt > 0) await new Promise((r) => setTimeout(r, Math.random() * Math.min(attempt, 20)));
    }
    throw new EpisodeContendedError(this.where, id, MAX_ATTEMPTS);
  }

  private syncArgs(id: string, copy: Copy): (string | number)[] {
    return [id, copy.inc, copy.gen, copy.len, this.ttl];
  }

  /** Runs `fn` after every earlier call for this episode on this replica has finished. */
  private async exclusive<T>(id: string, fn: () => Promise<T>): Promise<T> {
    const before = this.locks.get(id) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((done) => {
      release = done;
    });
    const chain = before.then(() => mine);
    this.locks.set(id, chain);
    await before;
    try {
      return await fn();
    } finally {
      release();
      if (this.locks.get(id) === chain) this.locks.delete(id);
    }
  }
}
