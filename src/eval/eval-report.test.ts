import { describe, expect, it } from "vitest";
import { evalReport, formatReport, type TaskRun } from "./eval-report.js";

function runs(task: string, kind: TaskRun["kind"], passes: boolean[]): TaskRun[] {
  return passes.map((passed, i) => ({
    task,
    kind,
    category: kind === "count" ? "retrieval" : "write",
    run: i + 1,
    episode: `${task}.run-${i + 1}`,
    passed,
    reasons: passed ? [] : ["the answer was 5; expected 4"],
    answer: null,
  }));
}

describe("evalReport", () => {
  it("pass^k is the mean over tasks of C(c,k)/C(n,k) (tau-bench), per kind and overall", () => {
    const report = evalReport({
      bundle: "b",
      mode: "agent",
      agent: "x",
      repeat: 3,
      skipped: [],
      runs: [
        ...runs("a", "count", [true, true, true]),
        ...runs("b", "count", [true, false, true]),
        ...runs("c", "delete", [false, false, false]),
      ],
    });
    expect(report.overall).toEqual({
      tasks: 3,
      runs: 9,
      passed_runs: 5,
      pass_rate: 0.5556,
      pass_hat_k: { "1": 0.5556, "2": 0.4444, "3": 0.3333 },
    });
    expect(report.by_kind.map((k) => [k.kind, k.pass_hat_k])).toEqual([
      ["count", { "1": 0.8333, "2": 0.6667, "3": 0.5 }],
      ["delete", { "1": 0, "2": 0, "3": 0 }],
    ]);
    expect(report.passed).toBe(false);
    expect(formatReport(report).slice(-4)).toEqual([
      "KIND    TASKS  RUNS  PASSED  PASS^1  PASS^3",
      "count   2      6     5       83.3%   50.0%",
      "delete  1      3     0       0.0%    0.0%",
      "all     3      9     5       55.6%   33.3%",
    ]);
  });

  it("an oracle run says whether every oracle passed", () => {
    const ok = evalReport({
      bundle: "b",
      mode: "oracle",
      agent: null,
      repeat: 1,
      skipped: [],
      runs: runs("a", "count", [true]),
    });
    expect(formatReport(ok)).toEqual([
      "Eval of b: oracle solutions",
      "",
      "TASK  KIND   PASSED  WHY",
      "a     count  yes",
      "",
      "All 1 oracles passed.",
    ]);
    const bad = evalReport({
      bundle: "b",
      mode: "oracle",
      agent: null,
      repeat: 1,
      skipped: [],
      runs: runs("a", "count", [false]),
    });
    expect(formatReport(bad).slice(-3)).toEqual([
      "a     count  no      the answer was 5; expected 4",
      "",
      "1 of 1 oracles failed: the bundle has tasks its own tools cannot solve.",
    ]);
  });
});
