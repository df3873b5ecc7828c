/**
 * The control plane under `/__apptwin/`, for people and harnesses, never for
 * agents (no MCP tool reaches it): create, reset, read and diff episodes,
 * health, and the routes the twin serves.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { safeDecode } from "../../util/safe-decode.js";
import {
  EPISODE_ID,
  EPISODE_ID_RULE,
  type EpisodeRegistry,
  TooManyEpisodesError,
} from "../episode-registry.js";
import { routeLabels } from "../runtime/explain-miss.js";
import type { Episode } from "../runtime/twin-types.js";
import { sendJson, sendTooLarge } from "../send-response.js";
import type { TwinBundle } from "../twin-bundle.js";
import { unknownEpisode } from "../unknown-episode.js";
import { parseTwinBody, readBoundedBody, tooLargeBody } from "./read-body.js";

/** The path prefix of the control plane. */
export const CONTROL_PREFIX = "/__apptwin/";

/** The bound on a control-plane request body: 64 KiB. */
const CONTROL_BODY_BYTES = 64 * 1024;

async function createEpisodeFrom(req: IncomingMessage, res: ServerResponse, registry: EpisodeRegistry) {
  const read = await readBoundedBody(req, CONTROL_BODY_BYTES);
  if (read.tooLarge) return sendTooLarge(req, res, tooLargeBody(CONTROL_BODY_BYTES));
  const body = parseTwinBody("application/json", read.bytes);
  const value = body === null ? {} : body.kind === "json" ? body.value : undefined;
  const problems: string[] = [];
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    problems.push('the body must be a JSON object such as {"id":"run-1","seed":0}');
  }
  const { id, seed } = (value ?? {}) as { id?: unknown; seed?: unknown };
  if (id !== undefined && (typeof id !== "string" || !EPISODE_ID.test(id))) {
    problems.push(`id must be ${EPISODE_ID_RULE} (got ${JSON.stringify(id)})`);
  }
  if (seed !== undefined && !Number.isSafeInteger(seed)) {
    problems.push(`seed must be an integer (got ${JSON.stringify(seed)})`);
  }
  if (problems.length > 0) {
    return sendJson(req, res, 400, {
      error: "invalid",
      message: `The episode was not created: ${problems.join("; ")}.`,
      problems,
    });
  }
  if (typeof id === "string" && registry.has(id)) {
    return sendJson(req, res, 409, {
      error: "episode_exists",
      message: `Episode "${id}" already exists; reset it with POST /__apptwin/episodes/${id}/reset or choose another id.`,
    });
  }
  let episode: Episode;
  try {
    episode = registry.create(id as string | undefined, (seed as number | undefined) ?? 0);
  } catch (err) {
    if (!(err instanceof TooManyEpisodesError)) throw err;
    return sendJson(req, res, 503, err.body());
  }
  return sendJson(req, res, 201, { id: episode.id, seed: episode.seed });
}

/** Answers one control-plane request (the path starts with `/__apptwin/`). */
export async function handleControl(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  registry: EpisodeRegistry,
  bundle: TwinBundle,
  assetPaths: string[],
): Promise<void> {
  const method = req.method === "HEAD" ? "GET" : (req.method ?? "GET");
  const rest = path.slice(CONTROL_PREFIX.length);
  if (rest === "health" && method === "GET") {
    return sendJson(req, res, 200, {
      status: "ok",
      name: bundle.manifest.name,
      episodes: registry.ids().length,
      sessions: registry.sessions(),
    });
  }
  if (rest === "routes" && method === "GET") {
    return sendJson(req, res, 200, {
      routes: routeLabels(bundle.model),
      assets: assetPaths,
      tools: bundle.tools.map((t) => t.name),
    });
  }
  if (rest === "episodes") {
    if (method === "POST") return createEpisodeFrom(req, res, registry);
    if (method === "GET") return sendJson(req, res, 200, { episodes: registry.ids() });
  }
  const m = /^episodes\/([^/]+)\/(reset|state|diff)$/.exec(rest);
  if (m) {
    // A malformed escape names no episode; it is reported as unknown below.
    const id = safeDecode(m[1]!);
    const episode = registry.get(id);
    if (!episode) return sendJson(req, res, 404, unknownEpisode(registry, id));
    if (m[2] === "reset" && method === "POST") {
      registry.reset(episode);
      return sendJson(req, res, 200, { id, reset: true });
    }
    if (m[2] === "state" && method === "GET") return sendJson(req, res, 200, registry.state(episode));
    if (m[2] === "diff" && method === "GET")
      return sendJson(req, res, 200, { id, changes: registry.diff(episode) });
  }
  req.resume();
  return sendJson(req, res, 404, {
    error: "no_control_route",
    message: `The control plane has no ${method} ${path}.`,
    routes: [
      "GET /__apptwin/episodes",
      "GET /__apptwin/episodes/:id/diff",
      "GET /__apptwin/episodes/:id/state",
      "GET /__apptwin/health",
      "GET /__apptwin/routes",
      "POST /__apptwin/episodes",
      "POST /__apptwin/episodes/:id/reset",
    ],
  });
}
