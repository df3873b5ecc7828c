/** Why: a recording made by hand in DevTools is evidence too, redacted on the way in like a capture. */
import { Args, Flags } from "@oclif/core";
import { BaseCommand } from "../cli/base-command.js";
import { importHarFile, secretsFromEnv, type WriteSummary } from "../evidence/har-io.js";

/** Imports a HAR 1.2 recording as redacted evidence. */
export default class Import extends BaseCommand {
  static override summary = "Import a HAR 1.2 recording as redacted evidence.";
  static override description =
    "Reads a HAR file (e.g. exported from the browser's DevTools), redacts credentials, cookies and the values of --secret-env variables, and writes evidence.json.";
  static override examples = [
    "<%= config.bin %> import recording.har",
    "<%= config.bin %> import recording.har --out recording.evidence.json",
    "<%= config.bin %> import recording.har --out evidence.json --secret-env APP_PASSWORD",
  ];
  static override args = { file: Args.string({ description: "HAR 1.2 file to import", required: true }) };
  static override flags = {
    out: Flags.string({ char: "o", description: "evidence file to write", default: "evidence.json" }),
    "secret-env": Flags.string({
      description: "environment variable whose value must be redacted",
      multiple: true,
    }),
    force: Flags.boolean({ description: "replace --out if it exists", default: false }),
  };

  async run(): Promise<WriteSummary> {
    const { args, flags } = await this.parse(Import);
    const secrets = secretsFromEnv(flags["secret-env"] ?? [], process.env);
    const result = await importHarFile(args.file, { out: flags.out, force: flags.force, secrets });
    if (!this.jsonEnabled()) {
      this.log(`Imported ${result.records} records (${result.redactions} redactions) to ${result.out}`);
    }
    return result;
  }
}
