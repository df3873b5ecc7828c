/**
 * `apptwin eval DIR` run in-process on bundles written by the real build:
 * every oracle of the items and boards bundles passes through a real MCP
 * client (Streamable HTTP on loopback), the table and the --json result,
 * --task, and the failures: an oracle the twin cannot satisfy (exit 1), an
 * unknown task and a bundle built before tasks existed (exit 2).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBundle } from "../src/bundle/build-bundle.js";
import { sha256Hex } from "../src/bundle/bundle-assets.js";
import { writeBundle } from "../src/bundle/bundle-io.js";
import Eval from "../src/commands/eval.js";
import type { EvalReport } from "../src/eval/eval-report.js";
import { readEvidence } from "../src/evidence/evidence-io.js";
import { canonicalJson } from "../src/util/canonical-json.js";
import { runCommand } from "./fixtures/bundle/run-command.js";

const fixture = (name: string) => join(import.meta.dirname, "fixtures", "evidence", name);
let dir: string;
const bundles: Record<string, string> = {};

/** The bundle's files with one file replaced and the manifest's fingerprint of it updated. */
function replaced(files: Map<string, Uint8Array>, path: string, value: unknown): Map<string, Uint8Array> {
  const out = new Map(files);
  const bytes = new TextEncoder().encode(canonicalJson(value));
  out.set(path, bytes);
  const manifest = JSON.parse(new TextDecoder().decode(files.get("manifest.json")));
  for (const f of manifest.files)
    if (f.path === path) Object.assign(f, { sha256: sha256Hex(bytes), bytes: bytes.byteLength });
  out.set("manifest.json", new TextEncoder().encode(canonicalJson(manifest)));
  return out;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "apptwin-eval-"));
  for (const app of ["items", "boards"]) {
    bundles[app] = join(dir, app);
    const built = buildBundle({ evidence: [await readEvidence(fixture(`${app}.capture.json`))] });
    await writeBundle(bundles[app]!, built.files, { force: false });
    if (app !== "items") continue;
    // A seed without "Oat milk": the tasks generated for the real seed cannot all be solved on it.
    const state = JSON.parse(new TextDecoder().decode(built.files.get("state.json")));
    state.collections.items = state.collections.items.filter(
      (e: { title: string }) => e.title !== "Oat milk",
    );
    bundles.broken = join(dir, "broken");
    await writeBundle(bundles.broken, replaced(built.files, "state.json", state), { force: false });
    bundles.old = join(dir, "old");
    await writeBundle(
      bundles.old,
      replaced(built.files, "tasks.json", { schema_version: 1, note: "No tasks yet", tasks: [] }),
      {
        force: false,
      },
    );
  }
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("apptwin eval DIR (oracles)", () => {
  it("items: every oracle passes, printed as a table, exit 0", async () => {
    const { stdout, code } = await runCommand(Eval, [bundles.items!]);
    expect(code).toBe(0);
    const lines = stdout.split("\n");
    expect(lines[0]).toBe("Eval of items-full: oracle solutions");
    expect(lines[2]).toMatch(/^TASK\s+KIND\s+PASSED\s+WHY$/);
    expect(lines).toContain("update.items.done            update            yes");
    expect(stdout).toContain("All 12 oracles passed.");
  });

  it("boards: every oracle passes (--json), each on its own episode", async () => {
    const { stdout, code } = await runCommand(Eval, [bundles.boards!, "--json"]);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as EvalReport;
    expect(report.passed).toBe(true);
    expect(report.mode).toBe("oracle");
    expect(report.runs.map((r) => [r.task, r.passed, r.reasons])).toEqual(
      report.runs.map((r) => [r.task, true, []]),
    );
    expect(report.runs).toHaveLength(18);
    expect(new Set(report.runs.map((r) => r.episode)).size).toBe(18);
    expect(report.runs.find((r) => r.task === "nested_lookup.comments.text")!.answer).toBe(
      "Email draft is ready for review.",
    );
    expect(report.overall).toMatchObject({ tasks: 18, runs: 18, passed_runs: 18, pass_rate: 1 });
  });

  it("--task runs one task, and its oracle's answer is read from the twin's answer", async () => {
    const { stdout, code } = await runCommand(Eval, [bundles.items!, "--task", "list.items.done", "--json"]);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as EvalReport;
    expect(report.runs.map((r) => [r.task, r.kind, r.passed, r.answer])).toEqual([
      ["list.items.done", "list", true, "Renew passport\nWater the plants"],
    ]);
  });

  it("exits 1 and says why when an oracle fails on the bundle's twin", async () => {
    const { stdout, code } = await runCommand(Eval, [bundles.broken!]);
    expect(code).toBe(1);
    expect(stdout).toContain(
      "latest.items.created_at      latest            no      the answer was “Book dentist appointment”; expected “Oat milk”",
    );
    expect(stdout).toContain("delete.items                 delete            no      item 6 was not deleted");
    expect(stdout).toMatch(/\d+ of 12 oracles failed: the bundle has tasks its own tools cannot solve\./);
  });

  it("refuses an unknown task, naming the known ones (exit 2)", async () => {
    const { stderr, code } = await runCommand(Eval, [bundles.items!, "--task", "nope"]);
    expect(code).toBe(2);
    expect(stderr).toContain(
      "--task nope: the bundle has no such task; its tasks are smoke, lookup.items.done,",
    );
  });

  it("refuses a bundle built before tasks were generated, saying to rebuild (exit 2)", async () => {
    const { stderr, code } = await runCommand(Eval, [bundles.old!]);
    expect(code).toBe(2);
    expect(stderr).toContain(
      "tasks.json: holds no tasks (the bundle was built before apptwin generated tasks); rebuild it with apptwin build",
    );
  });
});
