/** The pure twin runtime: episodes, request handling, state and diff. */
export {
  createEpisode,
  type EpisodeOptions,
  episodeSeed,
  episodeState,
  resetEpisode,
} from "./create-episode.js";
export { diffState } from "./diff-state.js";
export { routeLabels } from "./explain-miss.js";
export { handleRequest } from "./handle-request.js";
export type {
  Episode,
  StateChange,
  TwinRequest,
  TwinRequestBody,
  TwinResponse,
  TwinResponseBody,
} from "./twin-types.js";
