/**
 * MCP over Streamable HTTP at `/mcp` when sessions live in a shared store
 * (Redis), so any replica behind a load balancer answers any session. The
 * session is the store's record (its id, the episode it is bound to), never
 * a transport held by one process: each request gets a fresh, stateless SDK
 * transport and server over the session's episode, and the session id is
 * issued, checked and ended here. Responses are JSON (no SSE stream: a GET
 * is answered 405, which the SDK client takes as "no server-initiated
 * messages"). A session ends on DELETE or after the idle time the store keeps.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import debug from "debug";
import { TooManyEpisodesError } from "../episode-registry.js";
import type { EpisodeStore, SharedSessions } from "../episode-store.js";
import { sendJson } from "../send-response.js";
import type { TestDouble } from "../test-double.js";
import type { TwinBundle } from "../twin-bundle.js";
import { noSessionHeader, unknownSession } from "./mcp-session-errors.js";
import { createTwinMcpServer } from "./twin-mcp-server.js";

const log = debug("apptwin:serve");

/** Routes `/mcp` requests by the sessions a shared store keeps. */
export class SharedMcpSessions {
  private readonly sessions: SharedSessions;

  constructor(
    private readonly bundle: TwinBundle,
    private readonly store: EpisodeStore,
    private readonly double?: TestDouble,
  ) {
    if (!store.sessions) throw new Error("SharedMcpSessions needs a store that keeps MCP sessions");
    this.sessions = store.sessions;
  }

  /** Handles one request to `/mcp` (body already read and parsed when it was a POST). */
  async handle(req: IncomingMessage, res: ServerResponse, parsedBody: unknown): Promise<void> {
    const sid = req.headers["mcp-session-id"];
    if (typeof sid === "string") {
      const binding = await this.sessions.lookup(sid);
      if (!binding) return sendJson(req, res, 404, unknownSession(sid));
      if (req.method === "DELETE") {
        await this.sessions.end(sid);
        res.writeHead(200).end();
        return;
      }
      if (req.method !== "POST") {
        res.writeHead(405, { allow: "POST, DELETE" }).end();
        return;
      }
      return this.serve(req, res, parsedBody, binding.episode);
    }
    if (req.method !== "POST" || !isInitializeRequest(parsedBody)) {
      return sendJson(req, res, 400, noSessionHeader());
    }
    const id = randomUUID();
    const asked = req.headers["x-apptwin-episode"];
    let episode: string;
    if (typeof asked === "string") {
      const missing = await this.sessions.open(id, asked);
      if (missing) return sendJson(req, res, missing.status, missing.body);
      episode = asked;
    } else {
      try {
        const created = await this.store.create(id, 0, id);
        // The initialize answer is JSON-RPC; the eviction it caused is named in a header (and in health).
        if (created.evicted) res.setHeader("x-apptwin-evicted", created.evicted.episode);
      } catch (err) {
        if (!(err instanceof TooManyEpisodesError)) throw err;
        return sendJson(req, res, 503, err.body());
      }
      episode = id;
    }
    log("mcp session %s on episode %s", id, episode);
    res.setHeader("mcp-session-id", id);
    return this.serve(req, res, parsedBody, episode);
  }

  /** One request through a fresh stateless transport and server whose tool calls find the episode in the store. */
  private async serve(
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    episode: string,
  ): Promise<void> {
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    const server = createTwinMcpServer(this.bundle, () => this.store.find(episode), this.double);
    res.once("close", () => void server.close());
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  /** Sessions idle out in the store itself. */
  async closeIdle(): Promise<void> {}

  /** Nothing to close: the sessions are the store's, and another replica goes on answering them. */
  async closeAll(): Promise<void> {}
}
