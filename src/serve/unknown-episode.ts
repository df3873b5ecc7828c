/**
 * The answer to a request for an episode that does not exist, the same from
 * the HTTP twin, the control plane and an MCP session: it sits below those
 * adapters so that neither reaches into the other for it.
 */
import { EPISODE_ID, EPISODE_ID_RULE, type EpisodeRegistry } from "./episode-registry.js";

/** The 404 for an episode that does not exist, saying how to create it (never suggesting an id that would be refused). */
export function unknownEpisode(registry: EpisodeRegistry, id: string): Record<string, unknown> {
  if (!EPISODE_ID.test(id)) {
    return {
      error: "unknown_episode",
      message: `No episode ${JSON.stringify(id)}; it is not a valid episode id either (${EPISODE_ID_RULE}).`,
      hint: 'Create an episode with POST /__apptwin/episodes and a body such as {"id":"run-1"}, then send its id in x-apptwin-episode, or leave the header out to use "default".',
      episodes: registry.ids(),
    };
  }
  return {
    error: "unknown_episode",
    message: `No episode "${id}". Create it with POST /__apptwin/episodes and the body {"id":"${id}"}, or leave out x-apptwin-episode to use "default".`,
    episodes: registry.ids(),
  };
}
