import { Args, Flags } from "@oclif/core";
import { BaseCommand } from "../cli/base-command.js";
import { UserError } from "../errors/user-error.js";
import { type EvalReport, formatReport } from "../eval/eval-report.js";
import { runEval } from "../eval/run-eval-io.js";

/** Runs a bundle's tasks: every oracle (the bundle's self-check), or a user's agent, graded on state. */
export default class Eval extends BaseCommand {
  static override summary =
    "Run a bundle's tasks on fresh episodes and grade them on state: the oracles, or your agent.";
  static override description =
    "Without --agent, runs every task's oracle solution through a real MCP client on its own fresh episode and exits 1 if any fails (a task its own tools cannot solve is a defect of the bundle). With --agent, runs the command once per task (and per --repeat) with APPTWIN_TASK, APPTWIN_TASK_PROMPT and APPTWIN_MCP_URL (that episode's MCP endpoint) in its environment, takes its stdout as the answer, grades the episode, and reports the pass rate and pass^k per task kind.";
  static override examples = [
    "<%= config.bin %> eval ./items-env",
    "<%= config.bin %> eval ./items-env --task update.items.done --json",
    '<%= config.bin %> eval ./items-env --agent "python my_agent.py" --repeat 3 --timeout 120',
  ];
  static override args = {
    dir: Args.string({ description: "bundle directory (from apptwin build)", required: true }),
  };
  static override flags = {
    task: Flags.string({ description: "run only the task with this id" }),
    agent: Flags.string({
      description: "shell command that solves one task (see the description for its environment)",
    }),
    repeat: Flags.integer({
      description: "runs per task; pass^k counts tasks passed in every run",
      default: 1,
      min: 1,
      max: 100,
    }),
    concurrency: Flags.integer({
      description: "runs at once, each on its own episode",
      default: 1,
      min: 1,
      max: 32,
    }),
    timeout: Flags.integer({
      description: "seconds one agent run may take before it is stopped",
      default: 300,
      min: 1,
    }),
    "min-pass-rate": Flags.string({
      description: "with --agent: exit 1 when pass^k over all tasks (0..1) is below this",
    }),
  };

  async run(): Promise<EvalReport> {
    const { args, flags } = await this.parse(Eval);
    const min = flags["min-pass-rate"] === undefined ? null : Number(flags["min-pass-rate"]);
    if (min !== null && (Number.isNaN(min) || min < 0 || min > 1 || flags["min-pass-rate"]!.trim() === ""))
      throw new UserError(
        "invalid_flag",
        `--min-pass-rate must be a number from 0 to 1, e.g. 0.8 (got ${JSON.stringify(flags["min-pass-rate"])})`,
      );
    if (flags.agent !== undefined && flags.agent.trim() === "")
      throw new UserError("invalid_flag", '--agent must be a command, e.g. --agent "node my-agent.mjs"');
    const report = await runEval({
      dir: args.dir,
      task: flags.task,
      agent: flags.agent,
      repeat: flags.repeat,
      timeoutMs: flags.timeout * 1000,
      concurrency: flags.concurrency,
      ...(flags.agent !== undefined && !this.jsonEnabled()
        ? {
            onRun: (r) => process.stderr.write(`${r.task} run ${r.run}: ${r.passed ? "passed" : "failed"}\n`),
          }
        : {}),
    });
    if (!this.jsonEnabled()) for (const line of formatReport(report)) this.log(line);
    const passHat = report.overall.pass_hat_k[String(report.repeat)] ?? 0;
    if (report.mode === "oracle" && !report.passed) process.exitCode = 1;
    if (report.mode === "agent" && min !== null && passHat < min) {
      process.stderr.write(`pass^${report.repeat} ${passHat.toFixed(3)} is below --min-pass-rate ${min}\n`);
      process.exitCode = 1;
    }
    return report;
  }
}
