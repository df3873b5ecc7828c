/**
 * `apptwin eval`: the bundle's twin started in-process on loopback, then
 * each task run on a fresh episode — by its oracle through a real MCP
 * client, or by the user's agent command — and graded on the episode's
 * diff, read over the control plane as an outside grader would.
 */
import { UserError } from "../errors/user-error.js";
import { startHttpTwin } from "../serve/start-twin.js";
import { gradeTask } from "../tasks/grade-task.js";
import type { Task, TasksFile } from "../tasks/task-schema.js";
import { type AgentExit, runAgent, startEpisodeProxy } from "./agent-run-io.js";
import { ControlPlane } from "./control-plane-io.js";
import { readEvalBundle } from "./eval-bundle-io.js";
import { type EvalReport, evalReport, type TaskRun } from "./eval-report.js";
import { runOracle } from "./oracle-run-io.js";

/** What to run. */
export interface EvalOptions {
  dir: string;
  /** Only this task. */
  task?: string;
  /** A shell command that solves one task (else the oracles run). */
  agent?: string;
  /** Runs per task (pass^k). */
  repeat: number;
  /** Per run of the agent. */
  timeoutMs: number;
  /** Runs at once, each on its own episode (default 1). */
  concurrency?: number;
  /** Called after each run, for progress. */
  onRun?: (run: TaskRun) => void;
}

/** The tasks to run: all, or the one named by --task (an unknown id lists the known ones). */
export function selectTasks(file: TasksFile, id: string | undefined): Task[] {
  if (id === undefined) return file.tasks;
  const task = file.tasks.find((t) => t.id === id);
  if (!task)
    throw new UserError(
      "unknown_task",
      `--task ${id}: the bundle has no such task; its tasks are ${file.tasks.map((t) => t.id).join(", ")}`,
    );
  return [task];
}

/** Why an agent run fails whatever its episode shows: it was stopped, or it exited with an error. */
function agentProblems(exit: AgentExit, timeoutMs: number): string[] {
  if (exit.timedOut) return [`the agent did not finish within ${timeoutMs / 1000} s and was stopped`];
  return exit.exitCode === 0 ? [] : [`the agent exited with code ${exit.exitCode}`];
}

/** Runs the bundle's tasks (oracles, or the agent) and grades each run. */
export async function runEval(opts: EvalOptions): Promise<EvalReport> {
  const { bundle, tasks: file } = await readEvalBundle(opts.dir);
  const chosen = selectTasks(file, opts.task);
  const agentMode = opts.agent !== undefined;
  const skipped = agentMode
    ? chosen
        .filter((t) => t.kind === "smoke")
        .map((t) => ({
          task: t.id,
          reason: "it checks the environment, not an agent; run it without --agent",
        }))
    : [];
  const runnable = agentMode ? chosen.filter((t) => t.kind !== "smoke") : chosen;
  const { twin, endpoints } = await startHttpTwin(bundle, {
    port: 0,
    host: "127.0.0.1",
    maxEpisodes: Math.max(64, runnable.length * opts.repeat + 1),
  });
  const control = new ControlPlane(endpoints.url);
  const proxy = agentMode ? await startEpisodeProxy(endpoints.url) : null;
  const runOne = async (task: Task, run: number): Promise<TaskRun> => {
    const episode = `${task.id}.run-${run}`.slice(0, 128);
    await control.createEpisode(episode);
    const base = { task: task.id, kind: task.kind, category: task.category, run, episode };
    if (proxy) {
      const env = {
        APPTWIN_TASK: task.id,
        APPTWIN_TASK_PROMPT: task.prompt,
        APPTWIN_MCP_URL: proxy.urlFor(episode),
      };
      const exit = await runAgent(opts.agent!, env, opts.timeoutMs);
      const answer = exit.stdout.trim() === "" ? null : exit.stdout.trim();
      const grade = gradeTask(
        task,
        { changes: await control.diff(episode), answer },
        file.collections,
        bundle.seed,
      );
      const reasons = [...agentProblems(exit, opts.timeoutMs), ...grade.reasons];
      const agent = {
        exit_code: exit.exitCode,
        timed_out: exit.timedOut,
        duration_ms: exit.durationMs,
        stderr_tail: exit.stderr,
      };
      return { ...base, passed: reasons.length === 0, reasons, answer, agent };
    }
    const oracle = await runOracle(endpoints.mcp, episode, task);
    const outcome = { changes: await control.diff(episode), answer: oracle.answer, calls: oracle.calls };
    const reasons = [...oracle.problems, ...gradeTask(task, outcome, file.collections, bundle.seed).reasons];
    return { ...base, passed: reasons.length === 0, reasons, answer: oracle.answer };
  };
  // Every run of every task, each on its own episode; up to `concurrency` at once, reported in this order.
  const jobs = runnable.flatMap((task) =>
    Array.from({ length: opts.repeat }, (_, i) => ({ task, run: i + 1 })),
  );
  const runs: TaskRun[] = [];
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const at = next++;
      const { task, run } = jobs[at]!;
      runs[at] = await runOne(task, run);
      opts.onRun?.(runs[at]!);
    }
  };
  try {
    await Promise.all(
      Array.from({ length: Math.max(1, Math.min(opts.concurrency ?? 1, jobs.length)) }, worker),
    );
  } finally {
    await proxy?.close();
    await twin.close();
  }
  return evalReport({
    bundle: bundle.manifest.name,
    mode: agentMode ? "agent" : "oracle",
    agent: opts.agent ?? null,
    repeat: opts.repeat,
    runs,
    skipped,
  });
}
