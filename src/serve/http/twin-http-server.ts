/**
 * The twin on one node:http server: MCP at `/mcp`, the control plane under
 * `/__apptwin/`, the recorded assets at their own paths (so the app's
 * frontend runs against the twin), and every other path through the runtime
 * on the episode named by `x-apptwin-episode` (`default` when absent). The
 * recorded app's absolute URLs in assets and answers are sent as the twin's
 * own (app-origin.ts), so the page loads and calls nothing but the twin.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import debug from "debug";
import { DEFAULT_EPISODE } from "../episode-registry.js";
import { EpisodeGoneError, type EpisodeStore, isMissing, StoreUnavailableError } from "../episode-store.js";
import type { FaultPlan } from "../fault-plan.js";
import { McpSessions, SESSION_IDLE_MS } from "../mcp/mcp-sessions.js";
import { SharedMcpSessions } from "../mcp/shared-mcp-sessions.js";
import { MemoryEpisodeStore } from "../memory-episode-store.js";
import type { JournalEntry } from "../request-journal.js";
import { dropConnection, sendJson, sendTooLarge, sendTruncated, sendTwinResponse } from "../send-response.js";
import { TestDouble } from "../test-double.js";
import type { TwinAsset, TwinBundle } from "../twin-bundle.js";
import { type OriginSwap, originSwap, swapBody, swapBytes, swapHeaders } from "./app-origin.js";
import { AssetFiles } from "./asset-files-io.js";
import { CONTROL_PREFIX, handleControl } from "./control-plane.js";
import { loopbackRefusal } from "./loopback-guard.js";
import {
  ClientGoneError,
  MAX_BODY_BYTES,
  noBody,
  parseTwinBody,
  readBoundedBody,
  tooLargeBody,
} from "./read-body.js";
import { type RequestTarget, requestTarget } from "./request-target.js";

const log = debug("apptwin:serve");

/** Options of the HTTP twin. */
export interface TwinServerOptions {
  /** Largest request body accepted (default 1 MiB); longer gets 413. */
  maxBodyBytes?: number;
  /**
   * `loopback` (default): answer only requests addressed to a loopback name
   * and sent by loopback pages; `any`: every request (`--allow-remote`).
   */
  allowedHosts?: "loopback" | "any";
  /** Time a client has to send the request head (default 10 s); then 408 and the connection closes. */
  headersTimeoutMs?: number;
  /** Time a client has to send the whole request, body included (default 30 s). */
  requestTimeoutMs?: number;
  /** Most episodes held at once, `default` included (default 64); past it the least recently used unbound one is evicted. */
  maxEpisodes?: number;
  /**
   * Where the episodes live (default: this process's memory, holding `maxEpisodes`). A shared store (Redis)
   * carries its own limits, and MCP sessions live in it too, so any replica answers any session.
   */
  store?: EpisodeStore;
  /** An MCP session without a request for longer than this is closed (default 30 min). */
  sessionIdleMs?: number;
  /** The clock idle sessions are measured by (default `Date.now`; tests inject one). */
  now?: () => number;
  /** Latency and faults every episode starts with (`--latency`, `--faults`). */
  faults?: FaultPlan;
  /** Entries each episode's request journal keeps (default 1000). */
  journalCapacity?: number;
  /** Called once per request answered (twin, MCP tool call, asset): `apptwin serve --log`. */
  onRequest?: (entry: JournalEntry) => void;
}

/** How long a client may take to send a request head. */
export const HEADERS_TIMEOUT_MS = 10_000;

/** How long a client may take to send a whole request, body included. */
export const REQUEST_TIMEOUT_MS = 30_000;

/** A running (or ready to listen) twin server. */
export interface TwinServer {
  server: Server;
  /** Where the episodes live. */
  store: EpisodeStore;
  /** The request journals, latency and faults of the episodes. */
  double: TestDouble;
  /** Binds to host:port (port 0: any free port) and resolves the base URL. */
  listen(port: number, host: string): Promise<string>;
  /** Closes MCP sessions (those of this process; a shared store keeps its own) and the server. */
  close(): Promise<void>;
}

/** What every request of one twin server is routed with. */
interface Routes {
  bundle: TwinBundle;
  store: EpisodeStore;
  assets: AssetFiles;
  mcp: McpSessions | SharedMcpSessions;
  double: TestDouble;
  onRequest?: (entry: JournalEntry) => void;
  /** The bound on a request body. */
  limit: number;
  loopbackOnly: boolean;
  /** Host → the origin swap for it (null: nothing to swap). */
  swaps: Map<string, OriginSwap | null>;
}

/** Hosts whose origin swap a server keeps made (a client names a few; past this many the cache starts again). */
const SWAP_CACHE_SIZE = 64;

/** The origin swap for a request's Host, made once per Host (a swap is a compiled pattern: too dear per request). */
function swapFor(r: Routes, host: string | undefined): OriginSwap | null {
  if (!host) return null;
  let swap = r.swaps.get(host);
  if (swap === undefined) {
    if (r.swaps.size >= SWAP_CACHE_SIZE) r.swaps.clear();
    swap = originSwap(r.bundle.model.app_origin, host);
    r.swaps.set(host, swap);
  }
  return swap;
}

/** `/mcp`: the body of a POST is read (bounded) and parsed, then the request goes to its MCP session. */
async function routeMcp(r: Routes, req: IncomingMessage, res: ServerResponse): Promise<void> {
  let parsed: unknown;
  if (req.method === "POST") {
    const read = await readBoundedBody(req, r.limit);
    if (read.tooLarge) return sendTooLarge(req, res, tooLargeBody(r.limit));
    const body = parseTwinBody("application/json", read.bytes);
    parsed = body?.kind === "json" ? body.value : undefined;
  }
  return r.mcp.handle(req, res, parsed);
}

/** A recorded asset, served as recorded (404 when its file is missing or lies outside the assets folder). */
async function sendAsset(
  r: Routes,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  asset: TwinAsset,
): Promise<void> {
  req.resume();
  const started = performance.now();
  const loaded = await r.assets.load(asset);
  r.onRequest?.({
    seq: 0,
    time: new Date().toISOString(),
    episode: "-",
    via: "http",
    tool: null,
    method: req.method ?? "GET",
    path,
    query: "",
    body: null,
    status: loaded ? loaded.status : 404,
    served_by: "asset",
    rule: null,
    fault: null,
    latency_ms: 0,
    ms: Math.round((performance.now() - started) * 10) / 10,
  });
  if (!loaded) {
    return sendJson(req, res, 404, {
      error: "asset_unreadable",
      message: `The recorded asset for ${path} is missing from the bundle or lies outside its assets folder.`,
    });
  }
  const swap = swapFor(r, req.headers.host);
  const bytes = swap ? swapBytes(loaded.bytes, loaded.content_type, swap) : loaded.bytes;
  res.writeHead(loaded.status, { "content-type": loaded.content_type, "content-length": bytes.length });
  res.end(req.method === "HEAD" ? undefined : bytes);
}

/**
 * The request's headers whose values are text: node's own object when it holds nothing else (only `set-cookie` is
 * ever a list), else a copy without the lists. The runtime only reads them.
 */
function textHeaders(req: IncomingMessage): Record<string, string> {
  if (req.headers["set-cookie"] === undefined) return req.headers as Record<string, string>;
  const headers: Record<string, string> = {};
  for (const k in req.headers) {
    const v = req.headers[k];
    if (typeof v === "string") headers[k] = v;
  }
  return headers;
}

/** Any other path: the runtime answers on the episode named by `x-apptwin-episode` (`default` when absent). */
async function routeTwin(
  r: Routes,
  req: IncomingMessage,
  res: ServerResponse,
  url: RequestTarget,
): Promise<void> {
  const started = performance.now();
  const episodeId = req.headers["x-apptwin-episode"];
  const name = typeof episodeId === "string" ? episodeId : DEFAULT_EPISODE;
  // A store holding its episodes in this process answers at once: no promise to wait for.
  const episode = r.store.findNow
    ? r.store.findNow(name)
    : await (r.store.findToRun ?? r.store.find).call(r.store, name);
  if (isMissing(episode)) {
    req.resume();
    return sendJson(req, res, episode.status, episode.body);
  }
  let bytes: Buffer | null = null;
  // A request without a body is left as it is: node dumps what is left of it (its end) once the answer is sent.
  if (!noBody(req)) {
    const read = await readBoundedBody(req, r.limit);
    if (read.tooLarge) return sendTooLarge(req, res, tooLargeBody(r.limit));
    bytes = read.bytes;
  }
  const headers = textHeaders(req);
  const request = {
    method: req.method ?? "GET",
    path: url.pathname,
    query: url.pairs(),
    headers,
    body: bytes === null ? null : parseTwinBody(req.headers["content-type"], bytes),
  };
  const served = r.double.serve(episode, request, { via: "http", started });
  const outcome = served instanceof Promise ? await served : served;
  if (outcome.kind === "drop") return dropConnection(req, res);
  let answer = outcome.answer;
  if (answer.served_by === "miss" && answer.body?.kind === "json") {
    (answer.body.value as Record<string, unknown>).assets = r.assets.paths();
  }
  const swap = swapFor(r, req.headers.host);
  if (swap) {
    let type: string | undefined;
    for (const k in answer.headers) {
      if (k.toLowerCase() === "content-type") {
        type = answer.headers[k];
        break;
      }
    }
    answer = {
      ...answer,
      headers: swapHeaders(answer.headers, swap),
      body: swapBody(answer.body, swap, type),
    };
  }
  if (outcome.kind === "truncate") return sendTruncated(req, res, answer, outcome.keep);
  sendTwinResponse(req, res, answer);
}

/** Routes one request: refused off loopback, else MCP, the control plane, an asset, or the twin. */
async function route(r: Routes, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const refusal = r.loopbackOnly ? loopbackRefusal(req.headers) : null;
  if (refusal) {
    req.resume();
    return sendJson(req, res, 403, refusal);
  }
  const url = requestTarget(req.url ?? "/");
  const path = url.pathname;
  if (path === "/mcp") return routeMcp(r, req, res);
  if (path.startsWith(CONTROL_PREFIX))
    return handleControl(req, res, path, r.store, r.bundle, r.assets.paths(), r.double);
  const asset = req.method === "GET" || req.method === "HEAD" ? r.assets.find(path, url.search) : undefined;
  if (asset) return sendAsset(r, req, res, path, asset);
  return routeTwin(r, req, res, url);
}

/**
 * A request that threw: a client gone mid-body is one short debug line; a shared store out of reach is answered
 * 503 with the reason, an episode that went away meanwhile (evicted, expired) as its absence; anything else is a
 * bug, logged with its stack and answered 500. Either is cut off when the answer had begun.
 */
function failed(req: IncomingMessage, res: ServerResponse, err: unknown): void {
  if (err instanceof ClientGoneError) {
    log("%s %s: %s", req.method, req.url, err.message);
    return void res.destroy();
  }
  if (err instanceof StoreUnavailableError) {
    log("request %s %s: %s", req.method, req.url, err.message);
    if (!res.headersSent) sendJson(req, res, 503, err.body());
    else res.destroy();
    return;
  }
  if (err instanceof EpisodeGoneError) {
    if (!res.headersSent) sendJson(req, res, err.missing.status, err.missing.body);
    else res.destroy();
    return;
  }
  log("request %s %s failed: %O", req.method, req.url, err);
  process.stderr.write(`apptwin serve: ${req.method} ${req.url} failed: ${(err as Error)?.stack ?? err}\n`);
  if (!res.headersSent)
    sendJson(req, res, 500, { error: "internal", message: "The twin failed; this is a bug." });
  else res.destroy();
}

/** Creates the twin's HTTP server for a bundle (nothing is bound until `listen`). */
export function createTwinServer(bundle: TwinBundle, opts: TwinServerOptions = {}): TwinServer {
  const store = opts.store ?? new MemoryEpisodeStore(bundle.model, bundle.seed, opts.maxEpisodes);
  const idleMs = opts.sessionIdleMs ?? SESSION_IDLE_MS;
  const double = new TestDouble(bundle.model, {
    plan: opts.faults,
    journalCapacity: opts.journalCapacity,
    onEntry: opts.onRequest,
  });
  const routes: Routes = {
    bundle,
    store,
    assets: new AssetFiles(bundle.manifest.assets, bundle.assetsDir),
    mcp:
      store instanceof MemoryEpisodeStore
        ? new McpSessions(bundle, store, { idleMs, now: opts.now ?? Date.now }, double)
        : new SharedMcpSessions(bundle, store, double),
    double,
    onRequest: opts.onRequest,
    limit: opts.maxBodyBytes ?? MAX_BODY_BYTES,
    loopbackOnly: (opts.allowedHosts ?? "loopback") === "loopback",
    swaps: new Map(),
  };
  const headersTimeout = opts.headersTimeoutMs ?? HEADERS_TIMEOUT_MS;
  // Slow or stalled clients are cut off; Node checks the deadlines every connectionsCheckingInterval.
  const timeouts = {
    headersTimeout,
    requestTimeout: opts.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
    connectionsCheckingInterval: Math.min(1000, headersTimeout),
  };
  const server = createServer(timeouts, (req, res) => {
    route(routes, req, res).catch((err: unknown) => failed(req, res, err));
  });
  let sweep: NodeJS.Timeout | undefined;

  return {
    server,
    store,
    double,
    listen: (port, host) =>
      new Promise((resolveUrl, reject) => {
        server.once("error", reject);
        server.listen(port, host, () => {
          server.off("error", reject);
          // Idle sessions are looked for twice per idle period (at most every minute); the timer never keeps the process alive.
          sweep ??= setInterval(() => void routes.mcp.closeIdle(), Math.min(idleMs / 2, 60_000)).unref();
          const { port: bound } = server.address() as AddressInfo;
          resolveUrl(`http://${host.includes(":") ? `[${host}]` : host}:${bound}`);
        });
      }),
    close: async () => {
      clearInterval(sweep);
      await routes.mcp.closeAll();
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
