/**
 * `apptwin grade`: one episode an outside agent produced on a running
 * `apptwin serve`, graded against one task of the bundle: the episode's
 * diff read from the control plane, and the answer the agent gave.
 */
import { UserError } from "../errors/user-error.js";
import type { EpisodeChange } from "../tasks/grade-changes.js";
import { type Grade, gradeTask } from "../tasks/grade-task.js";
import { ControlPlane } from "./control-plane-io.js";
import { readEvalBundle } from "./eval-bundle-io.js";
import { selectTasks } from "./run-eval-io.js";

/** The grade of one episode, with what it was graded on. */
export interface EpisodeGrade extends Grade {
  task: string;
  kind: string;
  episode: string;
  answer: string | null;
  changes: EpisodeChange[];
}

/** Grades episode `episode` of the twin at `url` against task `task` of the bundle in `dir`. */
export async function gradeEpisode(opts: {
  dir: string;
  url: string;
  task: string;
  episode: string;
  answer?: string;
}): Promise<EpisodeGrade> {
  const { bundle, tasks } = await readEvalBundle(opts.dir);
  const [task] = selectTasks(tasks, opts.task);
  if (task!.kind === "smoke")
    throw new UserError(
      "smoke_not_gradable",
      "The smoke task is graded on its oracle's own calls; run apptwin eval DIR --task smoke instead.",
    );
  const control = new ControlPlane(opts.url);
  const twin = await control.identity();
  const tools = bundle.tools.map((t) => t.name).sort();
  if (twin.name !== bundle.manifest.name || JSON.stringify([...twin.tools].sort()) !== JSON.stringify(tools))
    throw new UserError(
      "other_bundle",
      `The twin at ${opts.url} serves "${twin.name}" (${twin.tools.length} tools), not the bundle ${opts.dir} ("${bundle.manifest.name}", ${tools.length} tools); grade against the bundle it serves`,
    );
  const changes = await control.diff(opts.episode);
  const answer = opts.answer === undefined || opts.answer.trim() === "" ? null : opts.answer.trim();
  const grade = gradeTask(task!, { changes, answer }, tasks.collections, bundle.seed);
  return { task: task!.id, kind: task!.kind, episode: opts.episode, answer, changes, ...grade };
}
