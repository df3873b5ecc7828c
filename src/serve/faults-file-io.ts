/** Reads `apptwin serve --faults FILE` (and `--latency`) into the plan every episode starts with. */
import { DocumentError } from "../errors/user-error.js";
import { parseDocumentJson } from "../evidence/document-json.js";
import { readTextFile } from "../evidence/evidence-io.js";
import { type FaultPlan, NO_FAULTS, parseFaultPlan, parseLatencyFlag } from "./fault-plan.js";

/** The plan of a faults file, with `--latency` as the delay of every request no rule delays itself. */
export async function readFaultPlan(opts: { file?: string; latency?: string }): Promise<FaultPlan> {
  let plan = NO_FAULTS;
  if (opts.file !== undefined) {
    const text = await readTextFile(opts.file, "faults");
    // Read as every document is: too deep a nesting or a key written twice is refused before anything walks it.
    const { raw, issues } = parseDocumentJson(text, opts.file);
    if (issues.length > 0) throw new DocumentError(opts.file, issues);
    plan = parseFaultPlan(raw, opts.file);
  }
  if (opts.latency !== undefined) plan = { ...plan, latency: parseLatencyFlag(opts.latency) };
  return plan;
}
