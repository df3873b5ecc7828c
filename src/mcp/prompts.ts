/**
 * The prompts of `apptwin mcp`: `build-environment` starts the skill's
 * workflow from what the user knows (the app's URL, its entities, the
 * secret variables, where the bundle goes), and one prompt per stage
 * (`after-capture`, `after-coverage`, `after-export`) reads the workspace
 * and says what to call next. Each ends with that guidance.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { GetPromptResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { McpContext } from "./mcp-context.js";
import { coverageLines, nextAfterCapture, nextAfterCoverage, summarizeCoverage } from "./next-step.js";
import { knownIds, readCoverage } from "./read-workspace.js";

function user(text: string): GetPromptResult {
  return { messages: [{ role: "user", content: { type: "text", text } }] };
}

function list(csv: string): string[] {
  return csv
    .split(/[,\s]+/)
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

/** The opening prompt: the whole workflow for one app. */
export function buildEnvironmentText(a: {
  url: string;
  entities: string;
  secret_env: string;
  output_folder: string;
}) {
  const secrets = list(a.secret_env);
  const entities = list(a.entities);
  return [
    `Build an apptwin environment of the app at ${a.url}, following the apptwin skill (docs/skill/SKILL.md).`,
    "",
    `1. Map the app: open ${a.url} and find its sign-in form, its API paths for ${entities.length > 0 ? entities.join(", ") : "each entity"}, and how the frontend authenticates (cookie, a token in local storage, a CSRF header).`,
    `2. Write ONE whole scenario (schema_version 1) with a timeout_ms on every step: sign in through the form with ${secrets.length > 0 ? secrets.map((s) => `a secret declared as { "id": "…", "env": "${s}" }`).join(" and ") : "a declared secret"}, never a literal credential.`,
    `3. Read every collection (${entities.length > 0 ? entities.map((e) => `the list of ${e} and one ${e} by id`).join("; ") : "each list and one item by id"}) with request steps.`,
    "4. Writes: ASK THE USER before any scenario that writes, and run it only against a disposable instance. Make each write with a request step, chain server-assigned ids from its answer ({ response, pointer }), and read every write back right after it.",
    "5. Call capture_browser_scenario with the whole scenario. Fix failed steps and capture again.",
    "6. Check the coverage in its result (or environment_coverage). Re-record only the gaps whose action is record, once; report the gaps whose action is stop. Never loop on a gap no recording can close.",
    `7. Export: export_environment_bundle with the capture ids and destination ${a.output_folder} (absolute, must not exist); try dry_run first.`,
    "8. Hand off an honest report: what is served, replayed, acknowledged, inferred and withheld, and why.",
    "",
    "Next: map the app, draft the scenario, show it to the user, then call capture_browser_scenario.",
  ].join("\n");
}

/** Registers the prompts. */
export function registerPrompts(server: McpServer, ctx: McpContext): void {
  const ws = ctx.workspace;
  server.registerPrompt(
    "build-environment",
    {
      title: "Build an environment of an app",
      description:
        "Start the skill's workflow: from an app's URL to an exported bundle and an honest hand-off.",
      argsSchema: {
        url: z.string().describe("the app's start URL, e.g. http://127.0.0.1:4010/"),
        entities: z.string().describe("the entities to cover, comma-separated, e.g. items, lists"),
        secret_env: z
          .string()
          .describe("names of the environment variables holding the credentials, comma-separated"),
        output_folder: z
          .string()
          .describe("absolute path where the bundle should be written (must not exist)"),
      },
    },
    async (args) => user(buildEnvironmentText(args)),
  );

  server.registerPrompt(
    "after-capture",
    {
      title: "After a capture",
      description:
        "What a capture showed and what to do next: fix a failed step, re-record a gap, or export.",
      argsSchema: { capture_id: z.string().describe("the capture id capture_browser_scenario answered") },
    },
    async ({ capture_id }) => {
      const meta = await ws.capture(capture_id);
      const coverage = meta ? await readCoverage(ws, capture_id) : null;
      if (meta === null || coverage === null)
        return user(
          `There is no capture "${capture_id}". ${await knownIds(ws)}\nNext: call capture_browser_scenario.`,
        );
      const summary = summarizeCoverage(coverage, null);
      return user(
        [
          `Capture ${capture_id} (${meta.name}) is ${meta.verdict}.`,
          ...coverageLines(summary),
          nextAfterCapture(capture_id, meta.verdict, summary),
        ].join("\n"),
      );
    },
  );

  server.registerPrompt(
    "after-coverage",
    {
      title: "After a coverage check",
      description: "Decide per withheld write: one more recording, or report it as withheld; then export.",
      argsSchema: { capture_ids: z.string().describe("capture ids, comma-separated, in merge order") },
    },
    async ({ capture_ids }) => {
      const ids = list(capture_ids);
      const last = ids.at(-1);
      const coverage = last === undefined ? null : await readCoverage(ws, last);
      if (coverage === null)
        return user(
          `No coverage for "${capture_ids}". ${await knownIds(ws)}\nNext: call environment_coverage.`,
        );
      const summary = summarizeCoverage(coverage, null);
      return user([...coverageLines(summary), nextAfterCoverage(ids, summary)].join("\n"));
    },
  );

  server.registerPrompt(
    "after-export",
    {
      title: "After an export",
      description: "Serve the bundle, check it with apptwin eval, and write the hand-off report.",
      argsSchema: { destination: z.string().describe("the bundle folder export_environment_bundle wrote") },
    },
    async ({ destination }) =>
      user(
        [
          `The bundle is at ${destination}. Its coverage.json and README.md say what it serves and withholds.`,
          "Write the hand-off report: for each entity, which reads are served from state and which replayed; which writes are served; which are withheld, each with its reason and whether a recording could close it; what was inferred or acknowledged; and anything the recording could not establish.",
          `Next: call serve_environment with bundle ${JSON.stringify(destination)}, then run apptwin eval ${destination} and include its result in the report.`,
        ].join("\n"),
      ),
  );
}
