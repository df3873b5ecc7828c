/**
 * MCP over Streamable HTTP at `/mcp`: one session per client, one episode
 * per session. A new session's episode is named by its session id, or the
 * client binds it to an existing episode by sending `x-apptwin-episode` on
 * the initialize request (create it first over the control plane to pick the
 * id and PRNG seed, so a run is reproducible). A session ends when the client
 * sends DELETE, when its transport closes, or after `idleMs` without a
 * request; its episode then stays (to be read and graded) but may be evicted.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import debug from "debug";
import { type EpisodeRegistry, TooManyEpisodesError } from "../episode-registry.js";
import type { MemoryEpisodeStore } from "../memory-episode-store.js";
import type { Episode } from "../runtime/twin-types.js";
import { sendJson } from "../send-response.js";
import type { TestDouble } from "../test-double.js";
import type { TwinBundle } from "../twin-bundle.js";
import { missingEpisode } from "../unknown-episode.js";
import { noSessionHeader, unknownSession } from "./mcp-session-errors.js";
import { createTwinMcpServer } from "./twin-mcp-server.js";

const log = debug("apptwin:serve");

interface Session {
  transport: StreamableHTTPServerTransport;
  episodeId: string;
  ownsEpisode: boolean;
  /** When the session last sent a request (by `now`). */
  lastSeen: number;
}

/** How long an MCP session may go without a request by default: 30 minutes. */
export const SESSION_IDLE_MS = 30 * 60 * 1000;

/** Routes `/mcp` requests to their session's transport, creating sessions on initialize (episodes in memory). */
export class McpSessions {
  private readonly sessions = new Map<string, Session>();
  private readonly registry: EpisodeRegistry;

  constructor(
    private readonly bundle: TwinBundle,
    private readonly store: MemoryEpisodeStore,
    private readonly idle: { idleMs: number; now: () => number } = {
      idleMs: SESSION_IDLE_MS,
      now: Date.now,
    },
    /** Journals, latency and faults of the tool calls (the HTTP twin's, so both ways in share them). */
    private readonly double?: TestDouble,
  ) {
    this.registry = store.registry;
  }

  /** Handles one request to `/mcp` (body already read and parsed when it was a POST). */
  async handle(req: IncomingMessage, res: ServerResponse, parsedBody: unknown): Promise<void> {
    const sid = req.headers["mcp-session-id"];
    if (typeof sid === "string") {
      const session = this.sessions.get(sid);
      if (!session) return sendJson(req, res, 404, unknownSession(sid));
      session.lastSeen = this.idle.now();
      return session.transport.handleRequest(req, res, parsedBody);
    }
    if (req.method !== "POST" || !isInitializeRequest(parsedBody)) {
      return sendJson(req, res, 400, noSessionHeader());
    }
    const asked = req.headers["x-apptwin-episode"];
    if (typeof asked === "string" && !this.registry.has(asked)) {
      const missing = missingEpisode(this.registry, asked);
      return sendJson(req, res, missing.status, missing.body);
    }
    const id = randomUUID();
    const ownsEpisode = typeof asked !== "string";
    let episode: Episode;
    try {
      if (ownsEpisode) {
        const created = this.registry.create(id);
        episode = created.episode;
        // The initialize answer is JSON-RPC; the eviction it caused is named in a header (and in health).
        if (created.evicted) res.setHeader("x-apptwin-evicted", created.evicted.episode);
      } else episode = this.registry.get(asked)!;
    } catch (err) {
      if (!(err instanceof TooManyEpisodesError)) throw err;
      return sendJson(req, res, 503, err.body());
    }
    // Bound before the first await, so no other request can evict it while it starts.
    this.registry.bind(episode.id);
    let started = false;
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      enableJsonResponse: true,
      onsessioninitialized: (sessionId) => {
        started = true;
        this.sessions.set(sessionId, {
          transport,
          episodeId: episode.id,
          ownsEpisode,
          lastSeen: this.idle.now(),
        });
        log("mcp session %s on episode %s", sessionId, episode.id);
      },
    });
    transport.onclose = () => this.forget(id);
    const server = createTwinMcpServer(this.bundle, this.store.handleOf(episode), this.double);
    await server.connect(transport);
    await transport.handleRequest(req, res, parsedBody);
    if (!started) {
      this.registry.release(episode.id);
      if (ownsEpisode) this.registry.remove(id);
    }
  }

  private forget(id: string): void {
    // The episode stays after the session ends, so its state and diff can still be read and graded.
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    this.registry.release(session.episodeId);
  }

  /** Closes every session that has sent no request for longer than `idleMs`. */
  async closeIdle(): Promise<void> {
    const now = this.idle.now();
    const stale = [...this.sessions.values()].filter((s) => now - s.lastSeen > this.idle.idleMs);
    await Promise.allSettled(stale.map((s) => s.transport.close()));
  }

  /** Closes every session. */
  async closeAll(): Promise<void> {
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.allSettled(all.map((s) => s.transport.close()));
  }
}
