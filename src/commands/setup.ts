/** Why: a coding agent follows the skill and calls apptwin mcp only once both are where that client looks for them. */
import { homedir } from "node:os";
import { Flags } from "@oclif/core";
import { BaseCommand } from "../cli/base-command.js";
import { CLIENTS } from "../mcp/client-config.js";
import { formatSetup, type SetupResult, setupClient } from "../mcp/setup-client.js";

/** Installs the apptwin skill and registers `apptwin mcp` for a coding agent. */
export default class Setup extends BaseCommand {
  static override summary =
    "Install the apptwin skill and register apptwin mcp in a coding agent (claude-code, codex, cursor).";
  static override description =
    "Copies docs/skill into the folder the client reads skills from and adds an `apptwin` server to its MCP configuration, keeping every other server. Without --project it sets up the user's own config; with --project DIR, that project's (and the server's workspace is DIR/.apptwin). Running it again changes nothing. --secret-env forwards a variable to apptwin mcp by name, never its value.";
  static override examples = [
    "<%= config.bin %> setup --client claude-code --project .",
    "<%= config.bin %> setup --client codex --secret-env ITEMS_PASSWORD",
    "<%= config.bin %> setup --client cursor --project ~/code/app --dry-run",
  ];
  static override flags = {
    client: Flags.string({
      description: "the coding agent to set up",
      options: [...CLIENTS],
      required: true,
    }),
    project: Flags.string({ description: "set up this project folder instead of the user's config" }),
    "secret-env": Flags.string({
      description:
        "environment variable apptwin mcp needs (a scenario secret), forwarded by name (repeatable)",
      multiple: true,
    }),
    "dry-run": Flags.boolean({ description: "report what would change, write nothing", default: false }),
  };

  async run(): Promise<SetupResult> {
    const { flags } = await this.parse(Setup);
    const result = await setupClient({
      client: flags.client as (typeof CLIENTS)[number],
      project: flags.project,
      home: homedir(),
      env: process.env,
      dryRun: flags["dry-run"],
      secretEnv: flags["secret-env"] ?? [],
    });
    if (!this.jsonEnabled()) for (const line of formatSetup(result)) this.log(line);
    return result;
  }
}
