/**
 * The bundle's README.md, generated from its data alone (no time, no paths
 * outside the bundle): what the environment serves, what it withholds and
 * why, and how to run it.
 */
import type { Coverage } from "../coverage/coverage-schema.js";
import type { Model } from "../model/model-schema.js";
import type { TasksFile } from "../tasks/task-schema.js";
import { tasksReadme } from "../tasks/tasks-readme.js";
import type { ToolDefinition } from "./bundle-schema.js";

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}

/** The evidence verdict under the coverage line, when it is not `passed`: the twin was learned from less than the scenario meant. */
function verdictLines(coverage: Coverage): string[] {
  const v = coverage.evidence;
  if (!v || v.verdict === "passed") return [];
  return ["", `Evidence verdict: **${v.verdict}** — ${cell(v.reasons.join("; "))}.`];
}

/** Renders README.md for a bundle named `name` from its tools and coverage. */
export function renderReadme(input: {
  name: string;
  model: Model;
  tools: ToolDefinition[];
  coverage: Coverage;
  tasks: TasksFile;
}): string {
  const { name, model, tools, coverage, tasks } = input;
  const lines: string[] = [
    `# ${name} — apptwin environment`,
    "",
    `A deterministic, stateful twin of the HTTP API of \`${coverage.app_origin}\`, learned from a recording.`,
    `Coverage: **${coverage.status}** — ${coverage.reads.length} reads served, ${coverage.writes.served.length} writes served, ${coverage.writes.withheld.length} withheld.`,
    ...verdictLines(coverage),
    "",
    "## What it serves",
    "",
  ];
  if (tools.length === 0) lines.push("Nothing: the recording held no API the twin can answer.");
  else {
    lines.push("| tool | request | served | read-only |", "|---|---|---|---|");
    for (const t of tools) {
      const served = model.endpoints.find((e) => e.tool_name === t.name)?.serving ?? "state";
      lines.push(
        `| \`${t.name}\` | \`${cell(`${t.binding.method} ${t.binding.template}`)}\` | ${served} | ${t.annotations.readOnlyHint ? "yes" : "no"} |`,
      );
    }
  }
  lines.push("", "## What it withholds", "");
  if (coverage.writes.withheld.length === 0) lines.push("Nothing: every recorded write is served.");
  else {
    lines.push("| tool | request | reason | what to record |", "|---|---|---|---|");
    for (const w of coverage.writes.withheld) {
      lines.push(
        `| \`${w.tool_name}\` | \`${cell(`${w.method} ${w.template}`)}\` | ${w.reason} | ${cell(w.hint)} |`,
      );
    }
  }
  lines.push("", ...tasksReadme(tasks));
  lines.push(
    "## How to run it",
    "",
    "```sh",
    "apptwin serve <this-directory>            # MCP at /mcp, the HTTP twin and /__apptwin/ control plane",
    "apptwin serve <this-directory> --stdio    # MCP over stdio",
    "```",
    "",
    "Each MCP session is its own episode with a private copy of `state.json`; the same calls give the same answers.",
    "",
    "## Files",
    "",
    "- `manifest.json`: name, version, sources and the sha256 of every file",
    "- `evidence.json`: the redacted recording everything here was learned from",
    "- `model.json`, `state.json`: the learned endpoints, collections and rules, and the seed state",
    "- `tools.json`, `openapi.json`: the MCP tools and an OpenAPI 3.1 description",
    "- `coverage.json`: what is served, replayed and withheld, and why",
    "- `tasks.json`: evaluation tasks with graders and oracle solutions (see Tasks)",
    "- `assets/`: the recorded pages, scripts and styles, for the browsable twin",
    "",
  );
  return lines.join("\n");
}
