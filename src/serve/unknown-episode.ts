/**
 * The answer to a request for an episode that is not there, the same from
 * the HTTP twin, the control plane and an MCP session: 410 for an episode the
 * cap evicted (naming the eviction and the limit), else 404 saying how to
 * create it. It sits below those adapters so that neither reaches into the
 * other for it.
 */
import { EPISODE_ID, EPISODE_ID_RULE, type EpisodeRegistry, type Eviction } from "./episode-registry.js";

/**
 * The 404 for an episode that does not exist, saying how to create it (never suggesting an id that would be
 * refused); `episodes` lists the ids there are.
 */
export function unknownEpisode(episodes: string[], id: string): Record<string, unknown> {
  if (!EPISODE_ID.test(id)) {
    return {
      error: "unknown_episode",
      message: `No episode ${JSON.stringify(id)}; it is not a valid episode id either (${EPISODE_ID_RULE}).`,
      hint: 'Create an episode with POST /__apptwin/episodes and a body such as {"id":"run-1"}, then send its id in x-apptwin-episode, or leave the header out to use "default".',
      episodes,
    };
  }
  return {
    error: "unknown_episode",
    message: `No episode "${id}". Create it with POST /__apptwin/episodes and the body {"id":"${id}"}, or leave out x-apptwin-episode to use "default".`,
    episodes,
  };
}

/** The 410 for an evicted episode: which episode's creation evicted it, and the limit. */
export function evictedEpisode(e: Eviction): Record<string, unknown> {
  return {
    error: "episode_evicted",
    message: `Episode "${e.episode}" was evicted: the twin holds at most ${e.limit} episodes (--max-episodes), and creating "${e.evicted_for}" dropped the least recently used one without a live MCP session. Its state is gone.`,
    hint: `Read or grade an episode while it is among the ${e.limit} most recently used, or serve with a larger --max-episodes; POST /__apptwin/episodes with {"id":"${e.episode}"} starts it afresh.`,
    episode: e.episode,
    evicted_for: e.evicted_for,
    limit: e.limit,
  };
}

/** The answer for an episode id that names no episode: 410 when it was evicted, else 404. */
export function missingEpisode(
  registry: EpisodeRegistry,
  id: string,
): { status: 404 | 410; body: Record<string, unknown> } {
  const eviction = registry.evictionOf(id);
  return eviction
    ? { status: 410, body: evictedEpisode(eviction) }
    : { status: 404, body: unknownEpisode(registry.ids(), id) };
}

/** The 410 for an episode a shared store dropped after `ttlMs` without use (`--episode-ttl-ms`). */
export function expiredEpisode(id: string, ttlMs: number): Record<string, unknown> {
  return {
    error: "episode_expired",
    message: `Episode "${id}" expired: it was not used for ${ttlMs} ms (--episode-ttl-ms), so the store dropped it. Its state is gone.`,
    hint: `Read or grade an episode within ${ttlMs} ms of its last use, or serve with a larger --episode-ttl-ms (0: never); POST /__apptwin/episodes with {"id":"${id}"} starts it afresh.`,
    episode: id,
    ttl_ms: ttlMs,
  };
}
