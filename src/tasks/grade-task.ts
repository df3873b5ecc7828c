/**
 * Grading one episode of one task: the final state's changes and the answer
 * for a retrieval or write task; for the smoke task, the status and body of
 * each of its oracle's calls against the recording.
 */
import type { SeedState } from "../model/model-schema.js";
import { gradeAnswer } from "./grade-answer.js";
import { type EpisodeChange, gradeChanges } from "./grade-changes.js";
import { firstDifference, schemaMismatch } from "./match-recorded.js";
import type { CollectionLabel, Task } from "./task-schema.js";

/** What one tool call answered: the result's `{status, body}`, or the error text of a failed call. */
export interface CallOutcome {
  tool: string;
  status: number | null;
  body: unknown;
  error: string | null;
}

/** What an episode left: its changes from the seed, the answer given, and (oracle runs) each call's outcome. */
export interface EpisodeOutcome {
  changes: EpisodeChange[];
  answer: string | null;
  calls?: CallOutcome[];
}

/** A task's grade: passed only when no reason was found. */
export interface Grade {
  passed: boolean;
  reasons: string[];
}

function gradeSmoke(task: Task, calls: CallOutcome[]): string[] {
  const reasons: string[] = [];
  for (const check of task.checks ?? []) {
    const call = calls[check.call];
    const tool = task.oracle.calls[check.call]?.tool ?? `call ${check.call}`;
    if (!call) {
      reasons.push(`${tool} was not called`);
      continue;
    }
    if (call.error !== null) {
      reasons.push(`${tool} failed: ${call.error}`);
      continue;
    }
    if (call.status !== check.status) {
      reasons.push(`${tool} answered ${call.status}; the recording answered ${check.status}`);
      continue;
    }
    if (check.body !== undefined) {
      const at = firstDifference(call.body, check.body);
      if (at !== null)
        reasons.push(`${tool} answered a body other than the recorded one (first difference at ${at})`);
    } else if (check.schema !== undefined) {
      const m = schemaMismatch(check.schema, call.body);
      if (m !== null) reasons.push(`${tool} answered a body unlike the recorded ones: ${m}`);
    }
  }
  return reasons;
}

/**
 * Grades an episode of `task`. Labels (tasks.json `collections`) and the seed name entities in the reasons.
 * The smoke task needs the calls' outcomes, which only an oracle run has.
 */
export function gradeTask(
  task: Task,
  outcome: EpisodeOutcome,
  labels: CollectionLabel[],
  seed?: SeedState,
): Grade {
  const reasons =
    task.kind === "smoke"
      ? outcome.calls
        ? gradeSmoke(task, outcome.calls)
        : ["the smoke task is graded on its oracle's own calls; run it with apptwin eval, not an agent"]
      : [];
  reasons.push(...gradeChanges(task.expected.changes, outcome.changes, labels, seed));
  reasons.push(...gradeAnswer(task.answer, outcome.answer));
  return { passed: reasons.length === 0, reasons };
}
