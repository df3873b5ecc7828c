/**
 * `apptwin eval` on the bundles of the real lab apps (WordPress, Redmine,
 * Jupyter, LoopBack; recordings checked in under test/fixtures/real/): every
 * oracle of every generated task passes through a real MCP client on its own
 * episode; the prompts name no tool, no path, no withheld write and no
 * entity id; two builds give the same tasks.json bytes. The
 * task lists themselves follow what learning serves, so they are not pinned
 * here; items and boards pin theirs in eval-tasks.test.ts.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBundle } from "../src/bundle/build-bundle.js";
import { writeBundle } from "../src/bundle/bundle-io.js";
import Eval from "../src/commands/eval.js";
import type { EvalReport } from "../src/eval/eval-report.js";
import { readEvidence } from "../src/evidence/evidence-io.js";
import type { Model, SeedState } from "../src/model/model-schema.js";
import { type TasksFile, TasksFileSchema } from "../src/tasks/task-schema.js";
import { runCommand } from "./fixtures/bundle/run-command.js";

const APPS = ["wordpress", "redmine", "jupyter", "loopback-todo"] as const;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "apptwin-eval-real-"));
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("apptwin eval on the real lab apps' bundles", () => {
  for (const app of APPS) {
    it(`${app}: every oracle passes`, async () => {
      const evidence = await readEvidence(
        join(import.meta.dirname, "fixtures", "real", app, "train.evidence.json"),
      );
      const out = join(dir, app);
      const files = buildBundle({ evidence: [evidence] }).files;
      // Deterministic like every bundle file: a second build gives the same tasks.json bytes.
      const again = buildBundle({ evidence: [evidence] }).files.get("tasks.json")!;
      expect(Buffer.from(again).equals(Buffer.from(files.get("tasks.json")!))).toBe(true);
      await writeBundle(out, files, { force: false });
      const { stdout, code } = await runCommand(Eval, [out, "--json"]);
      const report = JSON.parse(stdout) as EvalReport;
      expect(report.runs.filter((r) => !r.passed).map((r) => [r.task, r.reasons])).toEqual([]);
      expect(code).toBe(0);
      const tasks: TasksFile = TasksFileSchema.parse(
        JSON.parse(await readFile(join(out, "tasks.json"), "utf8")),
      );
      expect(report.runs.map((r) => r.task)).toEqual(tasks.tasks.map((t) => t.id));
      expect(tasks.tasks.filter((t) => t.category === "retrieval").length).toBeGreaterThan(0);
      const model = JSON.parse(await readFile(join(out, "model.json"), "utf8")) as Model;
      const reads = new Set(model.endpoints.filter((e) => e.method === "GET").map((e) => e.tool_name));
      const served = new Set(model.endpoints.filter((e) => e.serving === "state").map((e) => e.tool_name));
      // Every entity id of the seed, of every collection: a prompt names entities by what a person reads.
      const seed = JSON.parse(await readFile(join(out, "state.json"), "utf8")) as SeedState;
      const ids = model.collections.flatMap((c) =>
        (seed.collections[c.name] ?? []).map((e) => String(e[c.id_field])),
      );
      const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      for (const t of tasks.tasks.filter((x) => x.kind !== "smoke")) {
        for (const e of model.endpoints) expect(t.prompt, t.id).not.toContain(e.tool_name);
        for (const e of model.endpoints.filter((x) => x.serving === "withheld"))
          expect(t.prompt, t.id).not.toContain(e.template);
        // Outside the quoted values (a title may hold a number: “Version 2.0 released”).
        const unquoted = t.prompt.replace(/“[^”]*”/g, "“”");
        for (const id of ids)
          expect(unquoted, `${t.id} names the id ${id}`).not.toMatch(
            new RegExp(`(^|[^\\w-])${literal(id)}([^\\w-]|$)`),
          );
        expect(t.prompt, t.id).not.toMatch(/\b(GET|POST|PUT|PATCH|DELETE) \//);
        // A write an oracle makes is one the twin serves from state: never a withheld, acknowledged or replayed one.
        for (const call of t.oracle.calls.filter((c) => !reads.has(c.tool)))
          expect(served, t.id).toContain(call.tool);
      }
    }, 180_000);
  }
});
