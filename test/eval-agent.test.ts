/**
 * `apptwin eval DIR --agent "<command>"` with small scripted agents written
 * here, each a real process with a real MCP client reaching its episode
 * through APPTWIN_MCP_URL: one that runs each task's oracle calls (every
 * task passes, three runs at a time), one that makes a wrong write (fails, saying why), one that
 * passes every other run (pass^1 50%, pass^2 0%), and ones that crash or
 * hang (the exit code, the timeout).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBundle } from "../src/bundle/build-bundle.js";
import { writeBundle } from "../src/bundle/bundle-io.js";
import Eval from "../src/commands/eval.js";
import type { EvalReport } from "../src/eval/eval-report.js";
import { readEvidence } from "../src/evidence/evidence-io.js";
import { runCommand } from "./fixtures/bundle/run-command.js";

const root = join(import.meta.dirname, "..");
const sdk = (path: string) =>
  pathToFileURL(join(root, "node_modules/@modelcontextprotocol/sdk/dist/esm", path)).href;

/** Connects to the episode's MCP URL, as any MCP client would. */
const CONNECT = `
import { Client } from ${JSON.stringify(sdk("client/index.js"))};
import { StreamableHTTPClientTransport } from ${JSON.stringify(sdk("client/streamableHttp.js"))};
const transport = new StreamableHTTPClientTransport(new URL(process.env.APPTWIN_MCP_URL));
const client = new Client({ name: "scripted-agent", version: "1.0.0" });
await client.connect(transport);
async function done() { await transport.terminateSession(); await client.close(); }
`;

/** Runs the oracle calls of the task named in APPTWIN_TASK and answers with the task's answer key. */
const ORACLE_AGENT = `${CONNECT}
import { readFileSync } from "node:fs";
const task = JSON.parse(readFileSync(process.argv[2], "utf8")).tasks.find((t) => t.id === process.env.APPTWIN_TASK);
if (process.env.APPTWIN_TASK_PROMPT !== task.prompt) { console.error("prompt not passed"); process.exit(3); }
for (const call of task.oracle.calls) {
  const result = await client.callTool({ name: call.tool, arguments: call.arguments });
  if (result.isError) { console.error(JSON.stringify(result)); process.exit(4); }
}
await done();
const a = task.answer;
if (a) process.stdout.write(a.kind === "must_include" ? a.values.join("\\n") : String(a.value));
`;

/** Deletes item 1, whatever it was asked. */
const WRONG_WRITE_AGENT = `${CONNECT}
await client.callTool({ name: "delete_items_by_id", arguments: { id: 1 } });
await done();
process.stdout.write("Done.");
`;

/** Answers the count right on odd runs and wrong on even ones (a counter file says which run this is). */
const FLAKY_AGENT = `
import { existsSync, readFileSync, writeFileSync } from "node:fs";
const file = process.argv[2];
const n = existsSync(file) ? Number(readFileSync(file, "utf8")) + 1 : 1;
writeFileSync(file, String(n));
process.stdout.write(n % 2 === 1 ? "4" : "There are 5.");
`;

let dir: string;
let bundleDir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "apptwin-eval-agent-"));
  bundleDir = join(dir, "items");
  const evidence = await readEvidence(
    join(import.meta.dirname, "fixtures", "evidence", "items.capture.json"),
  );
  await writeBundle(bundleDir, buildBundle({ evidence: [evidence] }).files, { force: false });
  for (const [name, text] of [
    ["oracle-agent.mjs", ORACLE_AGENT],
    ["wrong-write-agent.mjs", WRONG_WRITE_AGENT],
    ["flaky-agent.mjs", FLAKY_AGENT],
  ] as const)
    await writeFile(join(dir, name), text);
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const node = (script: string, ...args: string[]) =>
  [process.execPath, join(dir, script), ...args].map((a) => JSON.stringify(a)).join(" ");

async function evalJson(args: string[]): Promise<{ report: EvalReport; code: number }> {
  const { stdout, code } = await runCommand(Eval, [bundleDir, ...args, "--json"]);
  return { report: JSON.parse(stdout) as EvalReport, code };
}

describe("apptwin eval --agent", () => {
  it("an agent that runs each oracle over MCP passes every task; the smoke task is not given to agents", async () => {
    const { report, code } = await evalJson([
      "--agent",
      node("oracle-agent.mjs", join(bundleDir, "tasks.json")),
    ]);
    expect(code).toBe(0);
    expect(report.mode).toBe("agent");
    expect(report.skipped).toEqual([
      { task: "smoke", reason: "it checks the environment, not an agent; run it without --agent" },
    ]);
    expect(report.runs.map((r) => [r.task, r.passed, r.reasons, r.agent?.exit_code])).toEqual(
      report.runs.map((r) => [r.task, true, [], 0]),
    );
    expect(report.runs).toHaveLength(11);
    // Three at a time, each on its own episode, reported in task order.
    expect(report.runs.map((r) => r.episode)).toEqual(report.runs.map((r) => `${r.task}.run-1`));
    expect(report.overall).toMatchObject({
      tasks: 11,
      runs: 11,
      passed_runs: 11,
      pass_rate: 1,
      pass_hat_k: { "1": 1 },
    });
    expect(report.by_kind.map((k) => [k.kind, k.tasks, k.pass_rate])).toEqual([
      ["lookup", 1, 1],
      ["count", 1, 1],
      ["list", 1, 1],
      ["latest", 1, 1],
      ["oldest", 1, 1],
      ["create", 1, 1],
      ["update", 2, 1],
      ["delete", 1, 1],
      ["find_then_update", 1, 1],
      ["find_then_delete", 1, 1],
    ]);
  }, 180_000);

  it("an agent that makes a wrong write fails, with the missing change and the collateral damage named", async () => {
    const { report, code } = await evalJson([
      "--agent",
      node("wrong-write-agent.mjs"),
      "--task",
      "update.items.done",
    ]);
    expect(code).toBe(0);
    expect(report.passed).toBe(false);
    expect(report.runs.map((r) => [r.task, r.passed, r.answer, r.reasons])).toEqual([
      [
        "update.items.done",
        false,
        "Done.",
        [
          "item 4 (“Water the plants”) was not changed; expected its done to become false",
          "collateral damage: item 1 (“Buy coffee beans”) was deleted, and the task did not ask for it",
        ],
      ],
    ]);
  });

  it("prints the runs and the pass rates per kind as text", async () => {
    const { stdout } = await runCommand(Eval, [
      bundleDir,
      "--agent",
      node("wrong-write-agent.mjs"),
      "--task",
      "delete.items",
    ]);
    expect(stdout.split("\n")).toEqual([
      `Eval of items-full: agent ${JSON.stringify(node("wrong-write-agent.mjs"))}`,
      "",
      "TASK          KIND    PASSED  WHY",
      "delete.items  delete  no      item 6 (“Oat milk”) was not deleted; collateral damage: item 1 (“Buy coffee beans”) was deleted, and the task did not ask for it",
      "",
      "KIND    TASKS  RUNS  PASSED  PASS^1",
      "delete  1      1     0       0.0%",
      "all     1      1     0       0.0%",
      "",
    ]);
  });

  it("--repeat 2 reports pass^k: a task passed in one run of two counts for pass^1, not for pass^2", async () => {
    const counter = join(dir, "flaky-count");
    const { report, code } = await evalJson([
      "--agent",
      node("flaky-agent.mjs", counter),
      "--task",
      "count.items.done",
      "--repeat",
      "2",
      "--min-pass-rate",
      "0.5",
    ]);
    expect(code).toBe(1);
    expect(report.runs.map((r) => [r.run, r.passed, r.reasons])).toEqual([
      [1, true, []],
      [2, false, ["the answer was 5; expected 4"]],
    ]);
    expect(report.runs.map((r) => r.episode)).toEqual(["count.items.done.run-1", "count.items.done.run-2"]);
    expect(report.overall.pass_hat_k).toEqual({ "1": 0.5, "2": 0 });
  });

  it("an agent that exits non-zero or runs past --timeout fails with that reason", async () => {
    const crash = await evalJson(["--agent", "echo 4; exit 3", "--task", "count.items.done"]);
    expect(crash.report.runs[0]!.reasons).toEqual(["the agent exited with code 3"]);
    const started = Date.now();
    const hang = await evalJson(["--agent", "sleep 30", "--task", "count.items.done", "--timeout", "1"]);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(hang.report.runs[0]!.reasons).toEqual([
      "the agent did not finish within 1 s and was stopped",
      "no answer was given; expected 4",
    ]);
    expect(hang.report.runs[0]!.agent).toMatchObject({ timed_out: true });
  });

  it("refuses an empty --agent and a --min-pass-rate outside 0..1 (exit 2)", async () => {
    expect((await runCommand(Eval, [bundleDir, "--agent", " "])).code).toBe(2);
    const bad = await runCommand(Eval, [bundleDir, "--agent", "true", "--min-pass-rate", "2"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--min-pass-rate must be a number from 0 to 1, e.g. 0.8 (got "2")');
  });
});
