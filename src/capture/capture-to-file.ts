/**
 * The file-level capture the CLI (and the MCP tool) run: read and validate
 * the scenario, refuse an existing destination, check secrets, run, and
 * write the redacted evidence atomically. Returns the summary both print.
 */
import { writeEvidence } from "../evidence/evidence-io.js";
import type { Evidence } from "../evidence/evidence-schema.js";
import { loadScenario } from "../scenario/scenario-io.js";
import { assertFileDestination } from "../util/atomic-write.js";
import { resolveSecrets } from "./resolve-secrets.js";
import { type CaptureOptions, runCapture } from "./run-capture.js";

/** The summary of a capture: what `--json` prints. */
export interface CaptureSummary {
  verdict: Evidence["verdict"];
  out: string;
  evidence_id: string;
  steps: { step_id: string; status: string; duration_ms: number | null; error: string | null }[];
  /** Number of HTTP transactions recorded. */
  records: number;
  /** Writes (not GET/HEAD/OPTIONS) that reached a server. */
  writes_sent: number;
  /** Number of values replaced by markers. */
  redactions: number;
  limitations: string[];
}

/** Options of {@link captureToFile}: the scenario file, the destination and the run options. */
export interface CaptureFileOptions extends Omit<CaptureOptions, "scenario" | "file"> {
  scenarioPath: string;
  out: string;
  force?: boolean;
}

/** Captures `scenarioPath` into `out`; throws a UserError (exit 2) when it cannot run at all. */
export async function captureToFile(options: CaptureFileOptions): Promise<CaptureSummary> {
  const { scenarioPath, out, force, ...run } = options;
  const scenario = await loadScenario(scenarioPath);
  await assertFileDestination(out, { force: force === true });
  resolveSecrets(scenario, run.env ?? process.env, scenarioPath);
  const { evidence, writesSent } = await runCapture({ ...run, scenario, file: scenarioPath });
  await writeEvidence(out, evidence);
  return summarize(evidence, out, writesSent);
}

/** The summary of an evidence written to `out`. */
export function summarize(evidence: Evidence, out: string, writesSent: number): CaptureSummary {
  return {
    verdict: evidence.verdict,
    out,
    evidence_id: evidence.evidence_id,
    steps: evidence.steps.map((s) => ({
      step_id: s.step_id,
      status: s.status,
      duration_ms: s.duration_ms,
      error: s.error,
    })),
    records: evidence.records.length,
    writes_sent: writesSent,
    redactions: evidence.redactions.reduce((n, r) => n + r.count, 0),
    limitations: evidence.limitations,
  };
}
