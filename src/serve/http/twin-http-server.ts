/**
 * The twin on one node:http server: MCP at `/mcp`, the control plane under
 * `/__apptwin/`, the recorded assets at their own paths (so the app's
 * frontend runs against the twin), and every other path through the runtime
 * on the episode named by `x-apptwin-episode` (`default` when absent).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import debug from "debug";
import { DEFAULT_EPISODE, EpisodeRegistry } from "../episode-registry.js";
import { McpSessions, SESSION_IDLE_MS } from "../mcp/mcp-sessions.js";
import { handleRequest } from "../runtime/handle-request.js";
import { sendJson, sendTooLarge, sendTwinResponse } from "../send-response.js";
import type { TwinBundle } from "../twin-bundle.js";
import { unknownEpisode } from "../unknown-episode.js";
import { AssetFiles } from "./asset-files-io.js";
import { CONTROL_PREFIX, handleControl } from "./control-plane.js";
import { loopbackRefusal } from "./loopback-guard.js";
import { MAX_BODY_BYTES, parseTwinBody, readBoundedBody, tooLargeBody } from "./read-body.js";

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
  /** An MCP session without a request for longer than this is closed (default 30 min). */
  sessionIdleMs?: number;
  /** The clock idle sessions are measured by (default `Date.now`; tests inject one). */
  now?: () => number;
}

/** How long a client may take to send a request head. */
export const HEADERS_TIMEOUT_MS = 10_000;

/** How long a client may take to send a whole request, body included. */
export const REQUEST_TIMEOUT_MS = 30_000;

/** A running (or ready to listen) twin server. */
export interface TwinServer {
  server: Server;
  registry: EpisodeRegistry;
  /** Binds to host:port (port 0: any free port) and resolves the base URL. */
  listen(port: number, host: string): Promise<string>;
  /** Closes MCP sessions and the server. */
  close(): Promise<void>;
}

/** Creates the twin's HTTP server for a bundle (nothing is bound until `listen`). */
export function createTwinServer(bundle: TwinBundle, opts: TwinServerOptions = {}): TwinServer {
  const limit = opts.maxBodyBytes ?? MAX_BODY_BYTES;
  const registry = new EpisodeRegistry(bundle.model, bundle.seed, opts.maxEpisodes);
  const assets = new AssetFiles(bundle.manifest.assets, bundle.assetsDir);
  const idleMs = opts.sessionIdleMs ?? SESSION_IDLE_MS;
  const mcp = new McpSessions(bundle, registry, { idleMs, now: opts.now ?? Date.now });
  let sweep: NodeJS.Timeout | undefined;

  const loopbackOnly = (opts.allowedHosts ?? "loopback") === "loopback";

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const refusal = loopbackOnly ? loopbackRefusal(req.headers) : null;
    if (refusal) {
      req.resume();
      return sendJson(req, res, 403, refusal);
    }
    const target = req.url ?? "/";
    // An origin-form target is a path even when it starts with `//` (as a URL reference that would name a host).
    const url = new URL(
      target.startsWith("/") ? `http://twin.invalid${target}` : target,
      "http://twin.invalid",
    );
    const path = url.pathname;
    if (path === "/mcp") {
      let parsed: unknown;
      if (req.method === "POST") {
        const read = await readBoundedBody(req, limit);
        if (read.tooLarge) return sendTooLarge(req, res, tooLargeBody(limit));
        const body = parseTwinBody("application/json", read.bytes);
        parsed = body?.kind === "json" ? body.value : undefined;
      }
      return mcp.handle(req, res, parsed);
    }
    if (path.startsWith(CONTROL_PREFIX))
      return handleControl(req, res, path, registry, bundle, assets.paths());
    const asset = req.method === "GET" || req.method === "HEAD" ? assets.find(path) : undefined;
    if (asset) {
      req.resume();
      const loaded = await assets.load(asset);
      if (!loaded) {
        return sendJson(req, res, 404, {
          error: "asset_unreadable",
          message: `The recorded asset for ${path} is missing from the bundle or lies outside its assets folder.`,
        });
      }
      res.writeHead(loaded.status, {
        "content-type": loaded.content_type,
        "content-length": loaded.bytes.length,
      });
      res.end(req.method === "HEAD" ? undefined : loaded.bytes);
      return;
    }
    const episodeId = req.headers["x-apptwin-episode"];
    const name = typeof episodeId === "string" ? episodeId : DEFAULT_EPISODE;
    const episode = registry.get(name);
    if (!episode) {
      req.resume();
      return sendJson(req, res, 404, unknownEpisode(registry, name));
    }
    const read = await readBoundedBody(req, limit);
    if (read.tooLarge) return sendTooLarge(req, res, tooLargeBody(limit));
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers[k] = v;
    const answer = handleRequest(bundle.model, episode, {
      method: req.method ?? "GET",
      path,
      query: [...url.searchParams.entries()],
      headers,
      body: parseTwinBody(req.headers["content-type"], read.bytes),
    });
    if (answer.served_by === "miss" && answer.body?.kind === "json") {
      (answer.body.value as Record<string, unknown>).assets = assets.paths();
    }
    sendTwinResponse(req, res, answer);
  }

  const headersTimeout = opts.headersTimeoutMs ?? HEADERS_TIMEOUT_MS;
  // Slow or stalled clients are cut off; Node checks the deadlines every connectionsCheckingInterval.
  const timeouts = {
    headersTimeout,
    requestTimeout: opts.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
    connectionsCheckingInterval: Math.min(1000, headersTimeout),
  };
  const server = createServer(timeouts, (req, res) => {
    route(req, res).catch((err: unknown) => {
      log("request %s %s failed: %O", req.method, req.url, err);
      process.stderr.write(
        `apptwin serve: ${req.method} ${req.url} failed: ${(err as Error)?.stack ?? err}\n`,
      );
      if (!res.headersSent)
        sendJson(req, res, 500, { error: "internal", message: "The twin failed; this is a bug." });
      else res.destroy();
    });
  });

  return {
    server,
    registry,
    listen: (port, host) =>
      new Promise((resolveUrl, reject) => {
        server.once("error", reject);
        server.listen(port, host, () => {
          server.off("error", reject);
          // Idle sessions are looked for twice per idle period (at most every minute); the timer never keeps the process alive.
          sweep ??= setInterval(() => void mcp.closeIdle(), Math.min(idleMs / 2, 60_000)).unref();
          const { port: bound } = server.address() as AddressInfo;
          resolveUrl(`http://${host.includes(":") ? `[${host}]` : host}:${bound}`);
        });
      }),
    close: async () => {
      clearInterval(sweep);
      await mcp.closeAll();
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
