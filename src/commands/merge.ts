/** Why: an app is rarely recorded in one scenario; learning from several needs them as one evidence. */
import { Args, Flags } from "@oclif/core";
import { BaseCommand } from "../cli/base-command.js";
import { mergeEvidenceFiles, type WriteSummary } from "../evidence/har-io.js";

/** Merges several evidence files into one. */
export default class Merge extends BaseCommand {
  static override summary = "Merge evidence files of the same app into one (a union; no record is dropped).";
  static override examples = [
    "<%= config.bin %> merge a.json b.json",
    "<%= config.bin %> merge a.json b.json --out merged.json",
  ];
  static override strict = false;
  static override args = {
    evidence: Args.string({ description: "evidence files to merge", required: true }),
  };
  static override flags = {
    out: Flags.string({ char: "o", description: "evidence file to write", default: "merged.evidence.json" }),
    force: Flags.boolean({ description: "replace --out if it exists", default: false }),
  };

  async run(): Promise<WriteSummary> {
    const { argv, flags } = await this.parse(Merge);
    const result = await mergeEvidenceFiles(argv as string[], { out: flags.out, force: flags.force });
    if (!this.jsonEnabled()) {
      this.log(
        `Merged ${result.sources} evidence files: ${result.records} records (${result.redactions} redactions) to ${result.out}`,
      );
    }
    return result;
  }
}
