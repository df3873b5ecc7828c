/**
 * Running `apptwin mcp`: over stdio (stdout belongs to the protocol, logs
 * go to stderr) or Streamable HTTP on loopback, until the client goes away
 * or a signal arrives; then every twin it started is stopped.
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { untilSignal } from "../serve/start-twin.js";
import { createApptwinMcpServer } from "./apptwin-mcp-server.js";
import { McpContext } from "./mcp-context.js";
import { startMcpHttp } from "./mcp-http.js";
import { Workspace } from "./workspace.js";

/** Options of {@link runMcp}. */
export interface RunMcpOptions {
  /** Serve Streamable HTTP on this port instead of stdio. */
  http?: number | undefined;
  workspace?: string | undefined;
  browser?: string | undefined;
  /** Called with the URL once the HTTP transport listens. */
  onListening?: (url: string, workspace: string) => void;
}

/** Serves apptwin's MCP server until the client or a signal ends it. */
export async function runMcp(opts: RunMcpOptions): Promise<void> {
  const workspace =
    opts.workspace === undefined
      ? Workspace.fromEnv(process.env, process.cwd())
      : new Workspace(opts.workspace);
  await workspace.ensure();
  const ctx = new McpContext(workspace, process.env, opts.browser);
  try {
    if (opts.http !== undefined) {
      const http = await startMcpHttp(ctx, opts.http);
      opts.onListening?.(http.url, workspace.root);
      await untilSignal();
      await http.close();
      return;
    }
    const server = createApptwinMcpServer(ctx);
    const transport = new StdioServerTransport();
    const closed = new Promise<void>((resolve) => {
      transport.onclose = () => resolve();
      process.stdin.once("end", () => resolve());
    });
    await server.connect(transport);
    process.stderr.write(`apptwin mcp: serving over stdio, workspace ${workspace.root}\n`);
    await Promise.race([closed, untilSignal()]);
    await server.close();
  } finally {
    await ctx.close();
  }
}
