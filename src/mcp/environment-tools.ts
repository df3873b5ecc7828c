/**
 * environment_coverage and export_environment_bundle: the CLI's `coverage`
 * and `build` over capture ids or absolute evidence paths. The export calls
 * the very function `apptwin build` calls (`exportBundle`) with the same
 * evidence files in the same order, so its bundle is byte-identical to the
 * CLI's; unlike the CLI it never replaces anything (no force).
 */
import { isAbsolute } from "node:path";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { exportBundle, formatExport } from "../bundle/export-bundle-io.js";
import { learnModel } from "../bundle/learn-model.js";
import { isUserError } from "../errors/user-error.js";
import { readEvidence } from "../evidence/evidence-io.js";
import { mergeEvidence } from "../evidence/merge.js";
import type { McpContext } from "./mcp-context.js";
import { coverageLines, nextAfterCoverage, summarizeCoverage } from "./next-step.js";
import { CoverageSummarySchema } from "./output-schemas.js";
import { resolveSources } from "./read-workspace.js";
import { toolError, toolOk, userErrorResult } from "./tool-result.js";

const SOURCES = {
  capture_ids: z
    .array(z.string())
    .optional()
    .describe(
      "ids of captures in the workspace (from capture_browser_scenario or import_har), merged in this order",
    ),
  evidence_paths: z
    .array(z.string())
    .optional()
    .describe("absolute paths of evidence files, merged after the captures"),
};

/** Registers environment_coverage and export_environment_bundle. */
export function registerEnvironmentTools(server: McpServer, ctx: McpContext): void {
  server.registerTool(
    "environment_coverage",
    {
      title: "Report coverage",
      description:
        "Learns the app's API from captures or evidence files (like apptwin coverage) and reports what a twin would serve from state, replay, and withhold, with each withheld write's reason, a hint saying what to record, and whether one more recording can close it. Read-only.",
      inputSchema: SOURCES,
      outputSchema: { coverage: CoverageSummarySchema, next: z.string(), report: z.string() },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ capture_ids, evidence_paths }) => {
      const sources = await resolveSources(ctx.workspace, capture_ids ?? [], evidence_paths ?? []);
      if ("problems" in sources) return toolError(sources.problems.join("\n"), sources.hints);
      try {
        const list = await Promise.all(sources.paths.map((p) => readEvidence(p)));
        const { coverage } = learnModel(list.length === 1 ? list[0]! : mergeEvidence(list));
        const summary = summarizeCoverage(coverage, null);
        const next = nextAfterCoverage(sources.ids, summary);
        const report = coverage.next ?? "Every recorded write is served.";
        return toolOk({ coverage: summary, next, report }, [...coverageLines(summary), next]);
      } catch (error) {
        return userErrorResult(error);
      }
    },
  );

  server.registerTool(
    "export_environment_bundle",
    {
      title: "Export an environment bundle",
      description:
        "The CLI's `apptwin build` (alias `export`): learns from captures or evidence files and writes the deterministic bundle (tools, state, OpenAPI, coverage, tasks, README) to an absolute destination that must not exist. The same evidence gives the same bytes as apptwin build. With dry_run nothing is written and the same report is returned.",
      inputSchema: {
        ...SOURCES,
        destination: z.string().describe("absolute path of the bundle folder to create; it must not exist"),
        name: z.string().optional().describe("bundle name (default: the scenario's name)"),
        pack: z.boolean().optional().describe("also write DESTINATION.tgz beside the bundle"),
        dry_run: z.boolean().optional().describe("check everything and report, but write nothing"),
        infer: z
          .boolean()
          .optional()
          .describe(
            "infer item routes of collections whose list alone was recorded from a sibling's confirmed pair (default true, labelled inferred in coverage); false is the CLI's --no-infer",
          ),
      },
      outputSchema: {
        destination: z.string(),
        name: z.string(),
        files: z.array(z.string()),
        coverage: z.object({
          status: z.enum(["empty", "partial", "complete"]),
          served: z.number(),
          replayed: z.number(),
          withheld: z.number(),
          withheld_tools: z.array(
            z.object({ tool: z.string(), request: z.string(), reason: z.string(), hint: z.string() }),
          ),
          evidence: z
            .object({ verdict: z.enum(["passed", "failed", "incomplete"]), reasons: z.array(z.string()) })
            .describe("the verdict of the evidence the bundle was learned from, and why it is not passed"),
        }),
        pack: z.string().optional(),
        dry_run: z.boolean(),
        manifest: z.string().optional().describe("the bundle's manifest resource"),
        next: z.string(),
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    async (args) => exportEnvironment(ctx, args),
  );
}

async function exportEnvironment(
  ctx: McpContext,
  args: {
    capture_ids?: string[] | undefined;
    evidence_paths?: string[] | undefined;
    destination: string;
    name?: string | undefined;
    pack?: boolean | undefined;
    dry_run?: boolean | undefined;
    infer?: boolean | undefined;
  },
): Promise<CallToolResult> {
  if (!isAbsolute(args.destination))
    return toolError(`destination must be an absolute path (got ${JSON.stringify(args.destination)}).`, [
      "Give the full path of a folder that does not exist yet, e.g. /home/me/envs/items-env.",
    ]);
  const sources = await resolveSources(ctx.workspace, args.capture_ids ?? [], args.evidence_paths ?? []);
  if ("problems" in sources) return toolError(sources.problems.join("\n"), sources.hints);
  const dryRun = args.dry_run === true;
  let result: Awaited<ReturnType<typeof exportBundle>>;
  try {
    result = await exportBundle({
      evidence: sources.paths,
      out: args.destination,
      pack: args.pack === true,
      force: false,
      dryRun,
      ...(args.name === undefined ? {} : { name: args.name }),
      ...(args.infer === false ? { infer: false } : {}),
    });
  } catch (error) {
    if (isUserError(error) && error.code === "destination_exists")
      return toolError(
        `destination ${args.destination} already exists; export_environment_bundle never replaces anything, so nothing was written.`,
        [
          `Choose a destination that does not exist (for example ${args.destination}-2), or ask the user whether the old bundle may be removed.`,
        ],
      );
    return userErrorResult(error);
  }
  if (!dryRun) {
    await ctx.workspace.recordBundle({ name: result.name, path: result.out });
    ctx.resourcesChanged();
  }
  const manifest = dryRun ? undefined : `apptwin://bundles/${result.name}/manifest.json`;
  const next = dryRun
    ? "Next: call export_environment_bundle again without dry_run to write it."
    : `Next: call serve_environment with bundle ${JSON.stringify(result.out)} to run the twin, and check it with \`apptwin eval ${result.out}\`. Then hand off: what is served, replayed and withheld, and why.`;
  return toolOk(
    {
      destination: result.out,
      name: result.name,
      files: result.files,
      coverage: result.coverage,
      ...(result.pack === undefined ? {} : { pack: result.pack }),
      dry_run: dryRun,
      ...(manifest === undefined ? {} : { manifest }),
      next,
    },
    [...formatExport(result).filter((l) => !l.startsWith("Run it:")), next],
  );
}
