/**
 * apptwin's own MCP server: the pipeline's tools (capture, import,
 * coverage, export, serve, stop), the workspace as resources, and the
 * skill's prompts. A side-effect-free factory: it opens nothing until a
 * transport is connected; one server per session, all sharing a context.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { APPTWIN_VERSION } from "../version.js";
import { registerCaptureTools } from "./capture-tools.js";
import { registerEnvironmentTools } from "./environment-tools.js";
import type { McpContext } from "./mcp-context.js";
import { registerPrompts } from "./prompts.js";
import { registerResources } from "./resources.js";
import { registerServeTools } from "./serve-tools.js";

const INSTRUCTIONS =
  "apptwin turns a running web app into a deterministic twin for agents. Workflow (see the build-environment prompt): write one whole scenario, capture_browser_scenario, read its coverage, re-record only gaps whose action is record, export_environment_bundle to an absolute new folder, serve_environment, then report what is served and withheld. Ask the user before any scenario that writes; write only to disposable instances. Secrets go by environment variable name only.";

/** A new apptwin MCP server on the shared context; registers itself for list-changed notifications. */
export function createApptwinMcpServer(ctx: McpContext): McpServer {
  const server = new McpServer({ name: "apptwin", version: APPTWIN_VERSION }, { instructions: INSTRUCTIONS });
  registerCaptureTools(server, ctx);
  registerEnvironmentTools(server, ctx);
  registerServeTools(server, ctx);
  registerResources(server, ctx);
  registerPrompts(server, ctx);
  ctx.servers.add(server);
  const previous = server.server.onclose;
  server.server.onclose = () => {
    ctx.servers.delete(server);
    previous?.();
  };
  return server;
}
