/** Why: a twin is judged by how closely it answers like the real app on requests it never saw; this measures it. */
import { Args, Flags } from "@oclif/core";
import { BaseCommand } from "../cli/base-command.js";
import { UserError } from "../errors/user-error.js";
import { runFidelityFiles } from "../fidelity/fidelity-io.js";
import { formatFidelity } from "../fidelity/format-fidelity.js";
import type { FidelityReport } from "../fidelity/run-fidelity.js";

function parseMinScore(text: string | undefined): number | null {
  if (text === undefined) return null;
  const n = Number(text);
  if (text.trim() === "" || Number.isNaN(n) || n < 0 || n > 1)
    throw new UserError(
      "invalid_flag",
      `--min-score must be a number from 0 to 1, e.g. 0.95 (got ${JSON.stringify(text)})`,
    );
  return n;
}

/** Scores a bundle against a held-out recording of the real app. */
export default class Fidelity extends BaseCommand {
  static override summary =
    "Replay a held-out recording against a bundle's twin and score how alike the answers are.";
  static override description =
    "Sends the API requests of an evidence file recorded after the training capture, in order, to a fresh episode of the twin, and compares each answer with the real one (status, and body with clock fields compared by format). Exits 0 for a completed comparison; with --min-score, exits 1 below it.";
  static override examples = [
    "<%= config.bin %> fidelity items-env --evidence items-heldout.evidence.json --min-score 0.95",
  ];
  static override args = { dir: Args.string({ description: "bundle directory", required: true }) };
  static override flags = {
    evidence: Flags.string({ description: "held-out evidence file", required: true }),
    "max-differences": Flags.integer({ description: "how many differences to list", default: 20, min: 0 }),
    "min-score": Flags.string({ description: "exit 1 when the score (0..1) is below this" }),
  };

  async run(): Promise<FidelityReport> {
    const { args, flags } = await this.parse(Fidelity);
    const min = parseMinScore(flags["min-score"]);
    const report = await runFidelityFiles({
      dir: args.dir,
      evidence: flags.evidence,
      maxDifferences: flags["max-differences"],
    });
    if (!this.jsonEnabled()) for (const line of formatFidelity(report)) this.log(line);
    if (min !== null && report.score < min) {
      process.stderr.write(`Fidelity ${report.score.toFixed(3)} is below --min-score ${min}\n`);
      process.exitCode = 1;
    }
    return report;
  }
}
