import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderReadme } from "../src/bundle/bundle-readme.js";
import { exportBundle, formatExport } from "../src/bundle/export-bundle-io.js";
import { learnModel } from "../src/bundle/learn-model.js";
import { toolsFromModel } from "../src/bundle/tool-definitions.js";
import { renderCoverage } from "../src/coverage/render-coverage.js";
import { writeEvidence } from "../src/evidence/evidence-io.js";
import type { Evidence } from "../src/evidence/evidence-schema.js";
import { generateTasks } from "../src/tasks/generate-tasks.js";
import { buildEvidence } from "./fixtures/evidence/build-evidence.js";

const step = (step_id: string, status: "passed" | "failed" | "cancelled", error: string | null = null) => ({
  step_id,
  action: "request",
  status,
  started_at: null,
  duration_ms: null,
  error,
  url_before: null,
  url_after: null,
});

function evidence(over: Partial<Evidence>): Evidence {
  const e = buildEvidence([{ path: "/api/items", status: 200, res: [{ id: 1, title: "a" }] }]);
  return { ...e, ...over };
}

describe("the evidence verdict in coverage, the README and the build summary", () => {
  it("carries a failed capture's verdict and the failed step into the report", () => {
    const failed = evidence({
      verdict: "failed",
      steps: [
        step("open", "passed"),
        step("create", "failed", "expected status 201, got 500"),
        step("read-back", "cancelled", 'cancelled: step "create" failed'),
      ],
    });
    const { model, seed, coverage } = learnModel(failed);
    expect(coverage.status).toBe("complete");
    expect(coverage.evidence).toEqual({
      verdict: "failed",
      reasons: ['step "create" failed: expected status 201, got 500', "1 step after it was cancelled"],
    });
    expect(coverage.next).toBe(
      'Fix what made the capture fail (step "create" failed: expected status 201, got 500), then capture again: the steps after it never ran, so what they would show is missing',
    );
    const text = renderCoverage(coverage);
    expect(text.split("\n").slice(0, 2)).toEqual([
      "Coverage: complete — 1 reads, 0 writes served, 0 withheld (1 API records of 1)",
      'Evidence: failed — step "create" failed: expected status 201, got 500; 1 step after it was cancelled. The twin knows only what was recorded before the failure.',
    ]);
    const tools = toolsFromModel(model);
    const readme = renderReadme({
      name: "t",
      model,
      tools,
      coverage,
      tasks: generateTasks(model, seed, tools),
    });
    expect(readme).toContain(
      'Evidence verdict: **failed** — step "create" failed: expected status 201, got 500; 1 step after it was cancelled.',
    );
  });

  it("prints the verdict in the build's summary, under its coverage line", async () => {
    const dir = mkdtempSync(join(tmpdir(), "apptwin-verdict-"));
    const file = join(dir, "failed.json");
    await writeEvidence(
      file,
      evidence({ verdict: "failed", steps: [step("create", "failed", "timed out")] }),
    );
    const result = await exportBundle({ evidence: [file], out: join(dir, "bundle"), dryRun: true });
    expect(result.coverage.evidence).toEqual({
      verdict: "failed",
      reasons: ['step "create" failed: timed out'],
    });
    expect(formatExport(result).slice(0, 2)).toEqual([
      "Coverage: complete — 1 served from state, 0 replayed, 0 withheld",
      'Evidence: failed — step "create" failed: timed out.',
    ]);
  });

  it("carries an incomplete verdict with its limitations, and says nothing more of a passed one", () => {
    const har = evidence({ verdict: "incomplete", limitations: ["imported from HAR: no step results"] });
    const { coverage } = learnModel(har);
    expect(coverage.evidence).toEqual({
      verdict: "incomplete",
      reasons: ["imported from HAR: no step results"],
    });
    expect(coverage.next).toBeNull();
    expect(renderCoverage(coverage).split("\n")[1]).toBe(
      "Evidence: incomplete — imported from HAR: no step results. The twin knows only what the recording shows.",
    );
    const passed = learnModel(evidence({ verdict: "passed", steps: [step("open", "passed")] })).coverage;
    expect(passed.evidence).toEqual({ verdict: "passed", reasons: [] });
    expect(renderCoverage(passed)).not.toContain("Evidence:");
  });
});
