/**
 * Running a twin: over HTTP (the twin, `/mcp` and the control plane on one
 * loopback server) or as MCP over stdio (stdout is the protocol's; nothing
 * else is written there). The command calls these and waits for a signal.
 */
import type { Readable, Writable } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { UserError } from "../errors/user-error.js";
import { DEFAULT_EPISODE, EpisodeRegistry } from "./episode-registry.js";
import type { EpisodeStore } from "./episode-store.js";
import type { FaultPlan } from "./fault-plan.js";
import { createTwinServer, type TwinServer } from "./http/twin-http-server.js";
import { logLine } from "./log-line.js";
import { SESSION_IDLE_MS } from "./mcp/mcp-sessions.js";
import { createTwinMcpServer } from "./mcp/twin-mcp-server.js";
import { memoryHandle } from "./memory-episode-store.js";
import type { JournalEntry } from "./request-journal.js";
import { parseStoreUrl } from "./store/redis-connection.js";
import { openRedisStore } from "./store/redis-episode-store.js";
import { TestDouble } from "./test-double.js";
import type { TwinBundle } from "./twin-bundle.js";

/** Hosts the twin binds to without `--allow-remote`. */
export const LOOPBACK_HOSTS = new Set(["127.0.0.1", "::1", "localhost"]);

/** Where a running HTTP twin answers. */
export interface TwinEndpoints {
  name: string;
  url: string;
  mcp: string;
  control: string;
  tools: number;
  /** Where the episodes live: `memory`, or the shared store's URL (without credentials). */
  store: string;
}

/**
 * Opens the episode store `--store` names (a Redis URL), or none (undefined: episodes in this process).
 * Redis out of reach is a UserError (exit 2). `--episode-ttl-ms` needs a shared store.
 */
export async function openStore(
  bundle: TwinBundle,
  opts: {
    store?: string;
    maxEpisodes?: number;
    episodeTtlMs?: number;
    sessionIdleMs?: number;
    onState?: (line: string) => void;
  },
): Promise<EpisodeStore | undefined> {
  if (opts.store === undefined) {
    if (opts.episodeTtlMs)
      throw new UserError(
        "ttl_without_store",
        "--episode-ttl-ms applies to a shared store (--store redis://…); episodes in memory are bounded by --max-episodes.",
      );
    return undefined;
  }
  return openRedisStore(parseStoreUrl(opts.store), bundle, {
    maxEpisodes: opts.maxEpisodes,
    episodeTtlMs: opts.episodeTtlMs,
    sessionIdleMs: opts.sessionIdleMs ?? SESSION_IDLE_MS,
    onState: opts.onState,
  });
}

/** Refuses a non-loopback host unless remote access was asked for, saying why. */
export function checkHost(host: string, allowRemote: boolean): void {
  if (LOOPBACK_HOSTS.has(host) || allowRemote) return;
  throw new UserError(
    "remote_host",
    `--host ${host} is not a loopback address. The twin has no authentication: anyone who can reach it can call its tools and reset or read every episode through /__apptwin/. Use --host 127.0.0.1, or add --allow-remote on a network you trust.`,
  );
}

/** Starts the HTTP twin on host:port; a port in use is a UserError naming the flag. */
export async function startHttpTwin(
  bundle: TwinBundle,
  opts: {
    port: number;
    host: string;
    maxEpisodes?: number;
    sessionIdleMs?: number;
    faults?: FaultPlan;
    journalCapacity?: number;
    /** Print one line per request (`--log`) here. */
    log?: (line: string) => void;
    /** Where the episodes live (default: this process; see `openStore`). */
    store?: EpisodeStore;
  },
): Promise<{ twin: TwinServer; endpoints: TwinEndpoints }> {
  const log = opts.log;
  const twin = createTwinServer(bundle, {
    allowedHosts: LOOPBACK_HOSTS.has(opts.host) ? "loopback" : "any",
    store: opts.store,
    maxEpisodes: opts.maxEpisodes,
    sessionIdleMs: opts.sessionIdleMs,
    faults: opts.faults,
    journalCapacity: opts.journalCapacity,
    ...(log ? { onRequest: (e: JournalEntry) => log(logLine(e)) } : {}),
  });
  let url: string;
  try {
    url = await twin.listen(opts.port, opts.host);
  } catch (err) {
    await twin.close().catch(() => {});
    await opts.store?.close();
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE") {
      throw new UserError(
        "port_in_use",
        `Port ${opts.port} on ${opts.host} is in use; choose another with --port N (0 picks a free one).`,
      );
    }
    if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND") {
      throw new UserError(
        "bad_host",
        `--host ${opts.host} is not an address of this machine; use --host 127.0.0.1.`,
      );
    }
    throw err;
  }
  return {
    twin,
    endpoints: {
      name: bundle.manifest.name,
      url,
      mcp: `${url}/mcp`,
      control: `${url}/__apptwin/`,
      tools: bundle.tools.length,
      store: twin.store.where,
    },
  };
}

/**
 * Serves the bundle's tools as MCP over stdio on the `default` episode; resolves when the client goes away.
 * Latency and faults apply to the tool calls; `log` gets one line per call (stderr: stdout is the protocol's).
 */
export async function serveStdio(
  bundle: TwinBundle,
  streams: { stdin: Readable; stdout: Writable } = { stdin: process.stdin, stdout: process.stdout },
  opts: { faults?: FaultPlan; log?: (line: string) => void } = {},
): Promise<{ closed: Promise<void>; close: () => Promise<void> }> {
  const registry = new EpisodeRegistry(bundle.model, bundle.seed);
  const log = opts.log;
  const double = new TestDouble(bundle.model, {
    plan: opts.faults,
    ...(log ? { onEntry: (e: JournalEntry) => log(logLine(e)) } : {}),
  });
  const server = createTwinMcpServer(bundle, memoryHandle(registry.get(DEFAULT_EPISODE)!), double);
  const transport = new StdioServerTransport(streams.stdin, streams.stdout);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    streams.stdin.once("end", () => resolve());
  });
  await server.connect(transport);
  return { closed, close: () => server.close() };
}

/** Resolves with the signal's name on the first SIGINT or SIGTERM. */
export function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const on = (signal: NodeJS.Signals) => {
      process.off("SIGINT", on);
      process.off("SIGTERM", on);
      resolve(signal);
    };
    process.on("SIGINT", on);
    process.on("SIGTERM", on);
  });
}
