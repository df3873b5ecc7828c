/** Why: a scenario's mistakes are cheaper to find before a browser starts. */
import { Args } from "@oclif/core";
import { BaseCommand } from "../cli/base-command.js";
import { formatValidation } from "../scenario/format-validation.js";
import { type ValidationReport, validateScenarioPath } from "../scenario/scenario-io.js";

/** Checks scenario files and reports every problem of every file; exit 2 when any is invalid. */
export default class Validate extends BaseCommand {
  static override summary = "Check scenario files: every problem of every file, each naming the field.";
  static override description =
    "Reads a scenario .json file, or every .json file of a directory in name order, and reports each problem with its file and field path. Exits 0 when all are valid, 2 otherwise.";
  static override examples = [
    "<%= config.bin %> validate login.json",
    "<%= config.bin %> validate scenarios/ --json",
  ];
  static override args = {
    path: Args.string({ required: true, description: "a scenario .json file or a directory of them" }),
  };

  async run(): Promise<ValidationReport> {
    const { args } = await this.parse(Validate);
    const report = await validateScenarioPath(args.path);
    if (!this.jsonEnabled()) this.log(formatValidation(report));
    if (!report.valid) process.exitCode = 2;
    return report;
  }
}
