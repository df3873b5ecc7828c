/**
 * serve_environment and stop_environment: a twin of a bundle on loopback,
 * started the way `apptwin serve` starts it (`readBundle`, `startHttpTwin`),
 * kept by this process until stopped or until `apptwin mcp` exits.
 */
import { isAbsolute } from "node:path";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { readBundle } from "../bundle/bundle-reader.js";
import { startHttpTwin } from "../serve/start-twin.js";
import type { McpContext } from "./mcp-context.js";
import { toolError, toolOk, userErrorResult } from "./tool-result.js";

const TwinShape = {
  twin_id: z.string().describe("pass it to stop_environment"),
  name: z.string(),
  bundle: z.string(),
  url: z.string().describe("the HTTP twin: the app's own paths, and its recorded frontend"),
  mcp: z.string().describe("the twin's MCP endpoint (Streamable HTTP), one episode per session"),
  control: z
    .string()
    .describe("the control plane (episodes, reset, state, diff), never for the agent under test"),
  tools: z.number(),
};

/** Registers serve_environment and stop_environment. */
export function registerServeTools(server: McpServer, ctx: McpContext): void {
  server.registerTool(
    "serve_environment",
    {
      title: "Serve an environment",
      description:
        "Starts the twin of a bundle on 127.0.0.1 (like apptwin serve) and answers its HTTP, MCP and control-plane URLs. The twin runs until stop_environment or until this server exits.",
      inputSchema: {
        bundle: z
          .string()
          .describe("absolute path of a bundle folder, or the name of a bundle exported in this workspace"),
        port: z
          .number()
          .int()
          .min(0)
          .max(65535)
          .optional()
          .describe("port to listen on (default 0: any free port)"),
      },
      outputSchema: TwinShape,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    async ({ bundle, port }) => serve(ctx, bundle, port ?? 0),
  );

  server.registerTool(
    "stop_environment",
    {
      title: "Stop an environment",
      description: "Stops a twin started with serve_environment.",
      inputSchema: { twin_id: z.string().describe("the twin_id serve_environment answered") },
      outputSchema: { twin_id: z.string(), stopped: z.boolean(), running: z.array(z.string()) },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    async ({ twin_id }) => {
      const running = ctx.twins.get(twin_id);
      if (running === undefined) {
        const ids = [...ctx.twins.keys()];
        return toolError(`No running twin "${twin_id}".`, [
          ids.length === 0
            ? "No twin is running: serve_environment starts one."
            : `Running twins: ${ids.join(", ")}.`,
        ]);
      }
      ctx.twins.delete(twin_id);
      await running.twin.close();
      const left = [...ctx.twins.keys()];
      return toolOk({ twin_id, stopped: true, running: left }, [
        `Stopped ${twin_id} (${running.endpoints.url}).`,
      ]);
    },
  );
}

async function serve(ctx: McpContext, ref: string, port: number): Promise<CallToolResult> {
  let dir = ref;
  if (!isAbsolute(ref)) {
    const entry = await ctx.workspace.bundle(ref);
    if (entry === null) {
      const names = (await ctx.workspace.bundles()).map((b) => b.name);
      return toolError(
        `bundle must be an absolute path or the name of an exported bundle (got ${JSON.stringify(ref)}).`,
        [
          names.length === 0
            ? "No bundle was exported in this workspace yet: call export_environment_bundle, or give the bundle's absolute path."
            : `Bundles exported here: ${names.join(", ")}.`,
        ],
      );
    }
    dir = entry.path;
  }
  try {
    const bundle = await readBundle(dir);
    const { twin, endpoints } = await startHttpTwin(bundle, { port, host: "127.0.0.1" });
    const id = ctx.nextTwinId();
    ctx.twins.set(id, { id, bundle: dir, endpoints, twin });
    // The tool's twin keeps its episodes in memory, so where they live (`store`) is not part of its answer.
    const { store: _inMemory, ...shown } = endpoints;
    const out = { twin_id: id, bundle: dir, ...shown };
    return toolOk(out, [
      `Serving ${endpoints.name} (${endpoints.tools} tools) as ${id}:`,
      `  HTTP twin: ${endpoints.url}`,
      `  MCP (Streamable HTTP): ${endpoints.mcp}`,
      `  Control plane: ${endpoints.control}`,
      `Next: point the agent under test at ${endpoints.mcp}; grade it with apptwin eval ${dir}. Call stop_environment with twin_id "${id}" when done.`,
    ]);
  } catch (error) {
    return userErrorResult(error);
  }
}
