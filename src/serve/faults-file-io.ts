/** Reads `apptwin serve --faults FILE` (and `--latency`) into the plan every episode starts with. */
import { UserError } from "../errors/user-error.js";
import { readTextFile } from "../evidence/evidence-io.js";
import { type FaultPlan, NO_FAULTS, parseFaultPlan, parseLatencyFlag } from "./fault-plan.js";

/** The plan of a faults file, with `--latency` as the delay of every request no rule delays itself. */
export async function readFaultPlan(opts: { file?: string; latency?: string }): Promise<FaultPlan> {
  let plan = NO_FAULTS;
  if (opts.file !== undefined) {
    const text = await readTextFile(opts.file, "faults");
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw new UserError("invalid_json", `${opts.file}: not JSON (${(err as Error).message})`);
    }
    plan = parseFaultPlan(value, opts.file);
  }
  if (opts.latency !== undefined) plan = { ...plan, latency: parseLatencyFlag(opts.latency) };
  return plan;
}
