/** Why: before building, a user or agent needs to know what the recording proves and the one thing to record next. */
import { Flags } from "@oclif/core";
import { learnModel } from "../bundle/learn-model.js";
import { BaseCommand } from "../cli/base-command.js";
import type { Coverage } from "../coverage/coverage-schema.js";
import { renderCoverage } from "../coverage/render-coverage.js";
import { readEvidence } from "../evidence/evidence-io.js";
import { mergeEvidence } from "../evidence/merge.js";

/** Reports what a twin learned from evidence would serve, replay and withhold, and why. */
export default class CoverageCommand extends BaseCommand {
  static override summary =
    "Report what a twin learned from evidence serves, replays and withholds, and why.";
  static override description =
    "Learns endpoints, collections and write rules from one or more evidence files (merged in the order given) and prints the coverage: reads (state-backed or replayed), writes served or withheld with a reason and a hint, warnings, and the next thing to record. Exits 0 even when coverage is partial.";
  static override examples = [
    "<%= config.bin %> coverage --evidence evidence.json",
    "<%= config.bin %> coverage --evidence a.json --evidence b.json --json",
  ];
  static override flags = {
    evidence: Flags.string({ description: "evidence file (repeatable)", required: true, multiple: true }),
  };

  async run(): Promise<Coverage> {
    const { flags } = await this.parse(CoverageCommand);
    const list = await Promise.all(flags.evidence.map((f) => readEvidence(f)));
    const { coverage } = learnModel(list.length === 1 ? list[0]! : mergeEvidence(list));
    if (!this.jsonEnabled()) this.log(renderCoverage(coverage));
    return coverage;
  }
}
