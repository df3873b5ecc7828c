/** Why: a real browser session is the honest source of an app's traffic; it is recorded here and redacted before anything is written. */
import { Args, Flags } from "@oclif/core";
import { type CaptureSummary, captureToFile } from "../capture/capture-to-file.js";
import { isLiveTerminal, progressReporter } from "../capture/progress-reporter.js";
import { BaseCommand } from "../cli/base-command.js";

/** Runs a scenario in a real Chromium and writes redacted evidence; exit 0 passed, 1 failed/incomplete, 2 could not run. */
export default class Capture extends BaseCommand {
  static override summary = "Run a scenario in a real Chromium and write redacted evidence.";
  static override description =
    "Exit code 0 when every step passed, 1 when a step failed or the run was incomplete, 2 when it could not run (bad scenario, missing secret, no browser).";
  static override examples = [
    "ITEMS_PASSWORD=… <%= config.bin %> capture scenario.json --out evidence.json",
    "<%= config.bin %> capture scenario.json --out evidence.json --trace trace.zip --screenshots shots",
  ];
  static override args = { scenario: Args.string({ description: "The scenario file", required: true }) };
  static override flags = {
    out: Flags.string({ char: "o", description: "Where to write the evidence", default: "evidence.json" }),
    force: Flags.boolean({ description: "Overwrite --out if it exists" }),
    browser: Flags.string({
      description: "Path of the Chromium to drive (else APPTWIN_BROWSER, Playwright's, the system's)",
    }),
    headed: Flags.boolean({ description: "Show the browser window" }),
    trace: Flags.string({ description: "Also write a Playwright trace here (holds unredacted data)" }),
    screenshots: Flags.string({ description: "Also write one PNG per step into this folder (unredacted)" }),
  };

  async run(): Promise<CaptureSummary> {
    const { args, flags } = await this.parse(Capture);
    const human = !this.jsonEnabled();
    for (const [flag, path] of [
      ["--trace", flags.trace],
      ["--screenshots", flags.screenshots],
    ] as const) {
      if (path && human)
        process.stderr.write(
          `warning: ${flag} ${path} holds unredacted data (secrets, cookies, tokens); do not share it\n`,
        );
    }
    // Ctrl+C stops the browser and writes nothing (exit 130); a second one ends the process the default way.
    const interrupt = new AbortController();
    const onSigint = () => interrupt.abort();
    process.once("SIGINT", onSigint);
    const summary = await captureToFile({
      signal: interrupt.signal,
      interruptible: true,
      scenarioPath: args.scenario,
      out: flags.out,
      force: flags.force,
      browser: flags.browser,
      headed: flags.headed,
      tracePath: flags.trace,
      screenshotsDir: flags.screenshots,
      ...(human
        ? {
            onProgress: progressReporter({
              write: (t) => process.stderr.write(t),
              live: isLiveTerminal(process.stderr, process.env),
            }),
          }
        : {}),
    }).finally(() => process.off("SIGINT", onSigint));
    if (human) {
      const count = (s: string) => summary.steps.filter((x) => x.status === s).length;
      this.log(
        `${summary.verdict}: ${count("passed")} passed, ${count("failed")} failed, ${count("cancelled")} cancelled`,
      );
      this.log(
        `${summary.records} records, ${summary.writes_sent} writes sent, ${summary.redactions} redactions → ${summary.out}`,
      );
      for (const l of summary.limitations) this.log(`limitation: ${l}`);
    }
    if (summary.verdict !== "passed") process.exitCode = 1;
    return summary;
  }
}
