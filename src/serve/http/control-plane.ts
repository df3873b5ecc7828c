/**
 * The control plane under `/__apptwin/`, for people and harnesses, never for
 * agents (no MCP tool reaches it): create, reset, read and diff episodes,
 * health, and the routes the twin serves. One table of routes; an episode's
 * state and diff are streamed from a snapshot taken when asked, so a large
 * answer never stalls the other episodes.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { safeDecode } from "../../util/safe-decode.js";
import { EPISODE_ID, EPISODE_ID_RULE, TooManyEpisodesError } from "../episode-registry.js";
import { EpisodeExistsError, type EpisodeHandle, type EpisodeStore, isMissing } from "../episode-store.js";
import { episodeChanges } from "../runtime/diff-state.js";
import { routeLabels } from "../runtime/explain-miss.js";
import { buildStateText, diffJson, internalKeys, stateJson } from "../runtime/state-json.js";
import { StreamSlices, sendJson, sendJsonPieces, sendTooLarge } from "../send-response.js";
import type { TestDouble } from "../test-double.js";
import type { TwinBundle } from "../twin-bundle.js";
import { DOUBLE_ROUTES, handleDoubleControl } from "./double-routes.js";
import { parseTwinBody, readBoundedBody, tooLargeBody } from "./read-body.js";

/** The path prefix of the control plane. */
export const CONTROL_PREFIX = "/__apptwin/";

/** The bound on a control-plane request body: 64 KiB. */
const CONTROL_BODY_BYTES = 64 * 1024;

/** Seed rows serialised per step (one chunk of its text) while a state answer's seed text is first built. */
const SEED_TEXT_STEP_ROWS = 200;

/** What a control-plane route is handed. */
export interface ControlContext {
  req: IncomingMessage;
  res: ServerResponse;
  path: string;
  store: EpisodeStore;
  /** The episodes' request journals, latency and faults. */
  double: TestDouble;
  bundle: TwinBundle;
  assetPaths: string[];
}

/** One control-plane route: method, path under the prefix, and its handler (`:id` names an existing episode). */
export interface ControlRoute {
  method: "GET" | "POST";
  /** The path after `/__apptwin/`, e.g. `episodes/:id/state`. */
  path: string;
  handle(ctx: ControlContext, episode: EpisodeHandle | null): Promise<void> | void;
}

async function createEpisodeFrom({ req, res, store }: ControlContext) {
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
  try {
    const { handle, evicted } = await store.create(
      id as string | undefined,
      (seed as number | undefined) ?? 0,
    );
    return sendJson(req, res, 201, { id: handle.id, seed: handle.seed, evicted: evicted?.episode ?? null });
  } catch (err) {
    if (err instanceof EpisodeExistsError) {
      return sendJson(req, res, 409, {
        error: "episode_exists",
        message: `Episode "${err.id}" already exists; reset it with POST /__apptwin/episodes/${err.id}/reset or choose another id.`,
      });
    }
    if (!(err instanceof TooManyEpisodesError)) throw err;
    return sendJson(req, res, 503, err.body());
  }
}

/** Streams the episode's state as of now: seed rows copied from the seed's text, the episode's own rows serialised. */
async function sendState({ req, res, bundle }: ControlContext, episode: EpisodeHandle) {
  const slices = new StreamSlices();
  const { state: snapshot } = await episode.snapshot();
  // The seed's text is built once per seed, in steps, the first time any episode's state is read.
  while (!buildStateText(snapshot, SEED_TEXT_STEP_ROWS)) await slices.yieldIfDue();
  return sendJsonPieces(req, res, 200, stateJson(snapshot, internalKeys(bundle.model)), slices);
}

/** The routes of the control plane, in the order the 404 lists them. */
export const CONTROL_ROUTES: readonly ControlRoute[] = [
  {
    method: "GET",
    path: "health",
    handle: async ({ req, res, store, bundle }) =>
      sendJson(req, res, 200, {
        status: "ok",
        name: bundle.manifest.name,
        store: store.where,
        ...(await store.health()),
      }),
  },
  {
    method: "GET",
    path: "routes",
    handle: ({ req, res, bundle, assetPaths }) =>
      sendJson(req, res, 200, {
        routes: routeLabels(bundle.model),
        assets: assetPaths,
        tools: bundle.tools.map((t) => t.name),
      }),
  },
  { method: "POST", path: "episodes", handle: createEpisodeFrom },
  {
    method: "GET",
    path: "episodes",
    handle: async ({ req, res, store }) => sendJson(req, res, 200, { episodes: await store.ids() }),
  },
  {
    method: "POST",
    path: "episodes/:id/reset",
    handle: async ({ req, res, store, double }, episode) => {
      await store.reset(episode!);
      // A reset is a new run: its journal and its limited faults start again.
      double.reset(episode!);
      return sendJson(req, res, 200, { id: episode!.id, reset: true });
    },
  },
  { method: "GET", path: "episodes/:id/state", handle: (ctx, episode) => sendState(ctx, episode!) },
  {
    method: "GET",
    path: "episodes/:id/diff",
    handle: async ({ req, res, bundle }, episode) =>
      sendJsonPieces(
        req,
        res,
        200,
        diffJson(episode!.id, episodeChanges((await episode!.snapshot()).state), internalKeys(bundle.model)),
      ),
  },
];

/** The route of `rest` (the path after the prefix), with the raw `:id` segment when it has one. */
function findRoute(method: string, rest: string): { route: ControlRoute; id: string | null } | null {
  const segs = rest.split("/");
  for (const route of CONTROL_ROUTES) {
    if (route.method !== method) continue;
    const want = route.path.split("/");
    if (want.length !== segs.length) continue;
    const at = want.indexOf(":id");
    if (want.every((w, i) => (i === at ? segs[i] !== "" : w === segs[i]))) {
      return { route, id: at < 0 ? null : segs[at]! };
    }
  }
  return null;
}

/** Answers one control-plane request (the path starts with `/__apptwin/`). */
export async function handleControl(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  store: EpisodeStore,
  bundle: TwinBundle,
  assetPaths: string[],
  double: TestDouble,
): Promise<void> {
  const method = req.method === "HEAD" ? "GET" : (req.method ?? "GET");
  if (await handleDoubleControl(req, res, path.slice(CONTROL_PREFIX.length), method, store, double)) return;
  const found = findRoute(method, path.slice(CONTROL_PREFIX.length));
  const ctx: ControlContext = { req, res, path, store, bundle, assetPaths, double };
  if (!found) {
    req.resume();
    return sendJson(req, res, 404, {
      error: "no_control_route",
      message: `The control plane has no ${method} ${path}.`,
      routes: [
        ...CONTROL_ROUTES.map((r) => `${r.method} ${CONTROL_PREFIX}${r.path}`),
        ...DOUBLE_ROUTES,
      ].sort(),
    });
  }
  if (found.id === null) return found.route.handle(ctx, null);
  // A malformed escape names no episode; it is reported as unknown.
  const id = safeDecode(found.id);
  const episode = await store.find(id);
  if (isMissing(episode)) {
    req.resume();
    return sendJson(req, res, episode.status, episode.body);
  }
  return found.route.handle(ctx, episode);
}
