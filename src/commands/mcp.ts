/** Why: the people apptwin is for drive it through a coding agent, which needs the pipeline as MCP tools, resources and prompts. */
import { Flags } from "@oclif/core";
import { BaseCommand } from "../cli/base-command.js";
import { runMcp } from "../mcp/run-mcp.js";

/** Serves apptwin's own MCP server (capture, coverage, export, serve) to a coding agent. */
export default class Mcp extends BaseCommand {
  static override summary =
    "Serve apptwin's own tools (capture, coverage, export, serve) to a coding agent over MCP.";
  static override description =
    "Tools capture_browser_scenario, import_har, environment_coverage, export_environment_bundle (the alias of build), serve_environment and stop_environment; the workspace's captures and bundles as resources; the skill's prompts. Over stdio by default (stdout is the protocol's, logs go to stderr), or Streamable HTTP on 127.0.0.1 with --http. Captures persist in the workspace: APPTWIN_WORKSPACE, or ./.apptwin.";
  static override examples = [
    "<%= config.bin %> mcp",
    "<%= config.bin %> mcp --http 4320",
    "APPTWIN_WORKSPACE=/tmp/ws <%= config.bin %> mcp",
  ];
  static override flags = {
    http: Flags.integer({
      description: "serve Streamable HTTP at http://127.0.0.1:PORT/mcp instead of stdio (0: any free port)",
      min: 0,
      max: 65535,
    }),
    workspace: Flags.string({
      description: "workspace folder (default: $APPTWIN_WORKSPACE, else ./.apptwin)",
    }),
    browser: Flags.string({
      description: "Chromium executable to capture with (default: the usual resolution)",
    }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Mcp);
    await runMcp({
      http: flags.http,
      workspace: flags.workspace,
      browser: flags.browser,
      onListening: (url, workspace) => {
        if (this.jsonEnabled()) process.stdout.write(`${JSON.stringify({ mcp: url, workspace })}\n`);
        else {
          this.log(`apptwin mcp at ${url} (Streamable HTTP), workspace ${workspace}`);
          this.log("Press Ctrl+C to stop.");
        }
      },
    });
  }
}
