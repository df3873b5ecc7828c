/**
 * The result of an eval run as data and as text: one row per run of a task
 * (task, kind, passed, why), pass rates per task kind, and pass^k — the
 * share of tasks an agent solves in every one of k runs (tau-bench's
 * measure of reliability), estimated from the K runs as the mean of
 * C(c, k) / C(K, k) over tasks with c passing runs.
 */
import { TASK_KINDS, type TaskCategory, type TaskKind } from "../tasks/task-schema.js";

/** One run of one task on its own fresh episode. */
export interface TaskRun {
  task: string;
  kind: TaskKind;
  category: TaskCategory;
  /** 1-based run number (up to --repeat). */
  run: number;
  episode: string;
  passed: boolean;
  reasons: string[];
  /** The answer graded: the oracle's, or the agent's stdout. */
  answer: string | null;
  /** How the agent process ended (agent runs only). */
  agent?: { exit_code: number | null; timed_out: boolean; duration_ms: number; stderr_tail: string };
}

/** Pass rates of one task kind. */
export interface KindSummary {
  kind: TaskKind;
  tasks: number;
  runs: number;
  passed_runs: number;
  /** Share of runs that passed (pass^1). */
  pass_rate: number;
  /** pass^k for k = 1..repeat, keyed by k. */
  pass_hat_k: Record<string, number>;
}

/** Every run, the summary per kind and overall, and whether every run passed. */
export interface EvalReport {
  bundle: string;
  mode: "oracle" | "agent";
  agent: string | null;
  repeat: number;
  runs: TaskRun[];
  /** Tasks not run in this mode, with why (the smoke task in agent runs). */
  skipped: { task: string; reason: string }[];
  by_kind: KindSummary[];
  overall: Omit<KindSummary, "kind">;
  passed: boolean;
}

function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
}

function summarise(runs: TaskRun[], repeat: number): Omit<KindSummary, "kind"> {
  const perTask = new Map<string, { c: number; n: number }>();
  for (const r of runs) {
    const t = perTask.get(r.task) ?? { c: 0, n: 0 };
    t.n++;
    if (r.passed) t.c++;
    perTask.set(r.task, t);
  }
  const passed = runs.filter((r) => r.passed).length;
  const passHat: Record<string, number> = {};
  for (let k = 1; k <= repeat; k++) {
    const tasks = [...perTask.values()];
    const sum = tasks.reduce((s, t) => s + choose(t.c, k) / choose(t.n, k), 0);
    passHat[String(k)] = tasks.length === 0 ? 0 : round(sum / tasks.length);
  }
  return {
    tasks: perTask.size,
    runs: runs.length,
    passed_runs: passed,
    pass_rate: runs.length === 0 ? 0 : round(passed / runs.length),
    pass_hat_k: passHat,
  };
}

function round(x: number): number {
  return Math.round(x * 10000) / 10000;
}

/** Builds the report of a set of runs. */
export function evalReport(input: Omit<EvalReport, "by_kind" | "overall" | "passed">): EvalReport {
  const by_kind = TASK_KINDS.filter((k) => input.runs.some((r) => r.kind === k)).map((kind) => ({
    kind,
    ...summarise(
      input.runs.filter((r) => r.kind === kind),
      input.repeat,
    ),
  }));
  return {
    ...input,
    by_kind,
    overall: summarise(input.runs, input.repeat),
    passed: input.runs.every((r) => r.passed),
  };
}

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows.map((r) =>
    r
      .map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c]!)))
      .join("  ")
      .trimEnd(),
  );
}

function pct(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

/** The report as terminal text: the runs table, then pass rates per kind (agent runs) or the oracle verdict. */
export function formatReport(report: EvalReport): string[] {
  const rows = [["TASK", "KIND", "RUN", "PASSED", "WHY"]];
  for (const r of report.runs) {
    rows.push([r.task, r.kind, `${r.run}/${report.repeat}`, r.passed ? "yes" : "no", r.reasons.join("; ")]);
  }
  const runsTable = table(report.repeat > 1 ? rows : rows.map((r) => [...r.slice(0, 2), ...r.slice(3)]));
  const lines = [
    `Eval of ${report.bundle}: ${report.mode === "oracle" ? "oracle solutions" : `agent ${JSON.stringify(report.agent)}`}`,
    "",
    ...runsTable,
  ];
  for (const s of report.skipped) lines.push(`(${s.task} not run: ${s.reason})`);
  const o = report.overall;
  if (report.mode === "oracle") {
    lines.push(
      "",
      report.passed
        ? `All ${o.runs} oracles passed.`
        : `${o.runs - o.passed_runs} of ${o.runs} oracles failed: the bundle has tasks its own tools cannot solve.`,
    );
    return lines;
  }
  const k = String(report.repeat);
  const head = ["KIND", "TASKS", "RUNS", "PASSED", "PASS^1", ...(report.repeat > 1 ? [`PASS^${k}`] : [])];
  const kindRows = [head];
  for (const s of [...report.by_kind, { kind: "all", ...o }]) {
    const rates = [pct(s.pass_hat_k["1"] ?? 0), ...(report.repeat > 1 ? [pct(s.pass_hat_k[k] ?? 0)] : [])];
    kindRows.push([s.kind, String(s.tasks), String(s.runs), String(s.passed_runs), ...rates]);
  }
  lines.push("", ...table(kindRows));
  return lines;
}
