/** Why: serve and eval run on a bundle, built from evidence alone so the same recording always gives the same bytes. */
import { setFlagsFromString } from "node:v8";
import { Flags } from "@oclif/core";
import { type ExportResult, exportBundle, formatExport } from "../bundle/export-bundle-io.js";
import { BaseCommand } from "../cli/base-command.js";

/**
 * How far V8 lets the heap grow past what its last full collection kept, in percent, for the build's one process.
 * V8's own default on a machine with memory to spare is up to 4x: learning's working sets (per observation, per
 * field) outlive the young generation, so after the evidence is read nothing is collected until the heap is about
 * four times the evidence, and the build peaked at 4.3x the evidence's size (100k records). At 1.3x a full
 * collection comes as soon as the heap holds 30% more than was live: peak near 3x, a few full collections more.
 * Which objects live, and so every byte written, is the same either way.
 */
const BUILD_HEAP_GROWING_PERCENT = 30;

/** Builds a deterministic environment bundle from evidence files. */
export default class Build extends BaseCommand {
  static override summary =
    "Build a deterministic environment bundle (tools, state, OpenAPI, coverage) from evidence.";
  static override description =
    "Learns the app's API from one or more evidence files and writes the bundle directory (written beside --out and renamed into place). Same evidence in, same bytes out.";
  static override examples = [
    "<%= config.bin %> build --evidence items.evidence.json --out items-env",
    "<%= config.bin %> build --evidence a.json --evidence b.json --out env --pack",
    "<%= config.bin %> build --evidence items.evidence.json --out items-env --dry-run",
    "<%= config.bin %> build --evidence items.evidence.json --out items-env --no-infer",
  ];
  static override flags = {
    evidence: Flags.string({
      description: "evidence file to learn from (repeatable)",
      required: true,
      multiple: true,
    }),
    out: Flags.string({
      description: "bundle directory to write (must not exist unless --force)",
      required: true,
    }),
    name: Flags.string({
      description:
        "bundle name (default: the evidence's name: its scenario's, its HAR file's, or what its merged sources' names share; else app)",
    }),
    pack: Flags.boolean({ description: "also write OUT.tgz beside the bundle", default: false }),
    force: Flags.boolean({ description: "replace --out (and OUT.tgz) if they exist", default: false }),
    infer: Flags.boolean({
      description:
        "infer the item route of a collection whose list alone was recorded from a sibling's confirmed list + item pair (labelled inferred in coverage); --no-infer turns it off (default: on, or as recorded in the manifest of the bundle whose evidence.json is given)",
      allowNo: true,
    }),
    "dry-run": Flags.boolean({
      description: "check the destination and print the report, but write nothing",
      default: false,
    }),
  };

  async run(): Promise<ExportResult> {
    const { flags } = await this.parse(Build);
    // A one-shot process: the setting ends with it (never set in a long-lived server that builds, such as MCP).
    setFlagsFromString(`--heap-growing-percent=${BUILD_HEAP_GROWING_PERCENT}`);
    const result = await exportBundle({
      evidence: flags.evidence,
      out: flags.out,
      pack: flags.pack,
      force: flags.force,
      dryRun: flags["dry-run"],
      ...(flags.infer === undefined ? {} : { infer: flags.infer }),
      ...(flags.name === undefined ? {} : { name: flags.name }),
    });
    if (!this.jsonEnabled()) for (const line of formatExport(result)) this.log(line);
    return result;
  }
}
