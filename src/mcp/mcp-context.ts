/**
 * What every session of `apptwin mcp` shares: the workspace on disk, the
 * twins started with serve_environment (they outlive the session that
 * started them, until stop_environment or shutdown), and the connected
 * servers, so a capture that lands in one session tells every session
 * that the resource list changed.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { TwinServer } from "../serve/http/twin-http-server.js";
import type { TwinEndpoints } from "../serve/start-twin.js";
import type { Workspace } from "./workspace.js";

/** A twin started by serve_environment. */
export interface RunningTwin {
  id: string;
  bundle: string;
  endpoints: TwinEndpoints;
  twin: TwinServer;
}

/** Shared state of one `apptwin mcp` process. */
export class McpContext {
  readonly servers = new Set<McpServer>();
  readonly twins = new Map<string, RunningTwin>();
  private twinCount = 0;

  constructor(
    readonly workspace: Workspace,
    /** Where secrets are read from (the server's own environment). */
    readonly env: Record<string, string | undefined>,
    /** A browser executable to capture with (else the usual resolution). */
    readonly browser?: string,
  ) {}

  /** A fresh id for a twin: `twin-1`, `twin-2`, … */
  nextTwinId(): string {
    this.twinCount += 1;
    return `twin-${this.twinCount}`;
  }

  /** Tells every connected client that the resource list changed (a capture or a bundle landed). */
  resourcesChanged(): void {
    for (const server of this.servers) if (server.isConnected()) server.sendResourceListChanged();
  }

  /** Stops every twin this process started. */
  async close(): Promise<void> {
    const all = [...this.twins.values()];
    this.twins.clear();
    await Promise.allSettled(all.map((t) => t.twin.close()));
  }
}
