/**
 * The "Tasks" section of a bundle's README: how many tasks of each kind
 * tasks.json holds, how to run them, and every task shape that was not
 * generated with the reason (a withheld or acknowledged write, no learned
 * filter, no readable field...).
 */
import { TASK_KINDS, type TasksFile } from "./task-schema.js";

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}

/** The README lines of the Tasks section (a `## Tasks` heading first). */
export function tasksReadme(file: TasksFile): string[] {
  const lines = ["## Tasks", ""];
  if (file.tasks.length === 0) lines.push("None: the recording gave nothing a task could be graded on.");
  else {
    lines.push(
      `\`tasks.json\` holds ${file.tasks.length} tasks, each graded on the episode's final state (the expected change is there and nothing else changed) and, for questions, on the answer; each has an oracle solution.`,
      "",
      "| kind | tasks |",
      "|---|---|",
    );
    for (const kind of TASK_KINDS) {
      const n = file.tasks.filter((t) => t.kind === kind).length;
      if (n > 0) lines.push(`| ${kind} | ${n} |`);
    }
    lines.push(
      "",
      "```sh",
      "apptwin eval <this-directory>                          # every oracle must pass",
      'apptwin eval <this-directory> --agent "<command>"      # score an agent: pass rate and pass^k per kind',
      "apptwin grade <this-directory> --task ID --episode ID  # grade an episode of a running apptwin serve",
      "```",
    );
  }
  lines.push("", "### Not generated", "");
  if (file.not_generated.length === 0)
    lines.push("Nothing: every task shape was generated where the recording allowed it.");
  else {
    lines.push("| subject | task | reason | why |", "|---|---|---|---|");
    for (const s of file.not_generated)
      lines.push(`| \`${cell(s.subject)}\` | ${s.kind} | ${s.reason} | ${cell(s.explain)} |`);
  }
  lines.push("");
  return lines;
}
