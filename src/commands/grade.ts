import { Args, Flags } from "@oclif/core";
import { BaseCommand } from "../cli/base-command.js";
import { type EpisodeGrade, gradeEpisode } from "../eval/grade-episode-io.js";

/** Grades an episode an outside agent produced on a running `apptwin serve`. */
export default class Grade extends BaseCommand {
  static override summary = "Grade one episode of a running twin against one task of its bundle.";
  static override description =
    "Reads the episode's changes from the twin's control plane (GET /__apptwin/episodes/ID/diff) and grades them, with the answer the agent gave, against the task: the expected change is there and nothing else changed. Exits 0 when the episode passes, 1 when it fails.";
  static override examples = [
    '<%= config.bin %> grade ./items-env --task count.items.done --episode run-1 --answer "4"',
    "<%= config.bin %> grade ./items-env --task delete.items --episode run-2 --url http://127.0.0.1:4310 --json",
  ];
  static override args = {
    dir: Args.string({ description: "bundle directory the twin serves", required: true }),
  };
  static override flags = {
    task: Flags.string({ description: "id of the task the episode attempted", required: true }),
    episode: Flags.string({ description: "id of the episode to grade", required: true }),
    answer: Flags.string({ description: "the answer the agent gave (for questions)" }),
    url: Flags.string({ description: "address of the running twin", default: "http://127.0.0.1:4310" }),
  };

  async run(): Promise<EpisodeGrade> {
    const { args, flags } = await this.parse(Grade);
    const grade = await gradeEpisode({
      dir: args.dir,
      url: flags.url,
      task: flags.task,
      episode: flags.episode,
      ...(flags.answer === undefined ? {} : { answer: flags.answer }),
    });
    if (!this.jsonEnabled()) {
      this.log(`${grade.task} on episode ${grade.episode}: ${grade.passed ? "passed" : "failed"}`);
      for (const r of grade.reasons) this.log(`  - ${r}`);
    }
    if (!grade.passed) process.exitCode = 1;
    return grade;
  }
}
