/** Why: evidence opens in DevTools and other HAR tools for inspection; only its redacted values leave. */
import { Args, Flags } from "@oclif/core";
import { BaseCommand } from "../cli/base-command.js";
import { exportHarFile, type WriteSummary } from "../evidence/har-io.js";

/** Exports evidence as a HAR 1.2 file. */
export default class ExportHar extends BaseCommand {
  static override summary = "Export evidence as a HAR 1.2 file (for DevTools and other HAR tools).";
  static override examples = [
    "<%= config.bin %> export-har evidence.json",
    "<%= config.bin %> export-har evidence.json --out items.har",
  ];
  static override args = {
    evidence: Args.string({ description: "evidence file to export", required: true }),
  };
  static override flags = {
    out: Flags.string({ char: "o", description: "HAR file to write", default: "recording.har" }),
    force: Flags.boolean({ description: "replace --out if it exists", default: false }),
  };

  async run(): Promise<WriteSummary> {
    const { args, flags } = await this.parse(ExportHar);
    const result = await exportHarFile(args.evidence, { out: flags.out, force: flags.force });
    if (!this.jsonEnabled()) {
      this.log(`Exported ${result.records} records (${result.redactions} redactions) to ${result.out}`);
    }
    return result;
  }
}
