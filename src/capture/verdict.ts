/**
 * The fail-closed verdict of a capture and the step statuses behind it:
 * `passed` only when every step passed and nothing stopped the run short;
 * `incomplete` when something could not be established; `failed` otherwise.
 */
import type { EvidenceRecord, StepResult } from "../evidence/evidence-schema.js";

/** The verdict over step results and the reasons (if any) the run could not be completed. */
export function captureVerdict(
  steps: readonly Pick<StepResult, "status">[],
  incompleteReasons: readonly string[],
): "passed" | "failed" | "incomplete" {
  if (incompleteReasons.length > 0) return "incomplete";
  if (steps.length > 0 && steps.every((s) => s.status === "passed")) return "passed";
  return steps.length === 0 ? "incomplete" : "failed";
}

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/** A write a request step sent (not one refused before it left the browser). */
function isSentWrite(
  r: Pick<EvidenceRecord, "initiator" | "failure"> & { request: { method: string } },
): boolean {
  return (
    r.initiator === "request-step" &&
    !READS.has(r.request.method.toUpperCase()) &&
    r.failure?.kind !== "refused"
  );
}

/** The limitations a capture with these records carries, in a fixed order. */
export function captureLimitations(
  records: readonly (Pick<EvidenceRecord, "initiator" | "failure"> & { request: { method: string } })[],
  sawWebSocket: boolean,
): string[] {
  const out: string[] = [];
  if (records.some(isSentWrite)) out.push("writes were sent without a user gesture");
  if (sawWebSocket) out.push("WebSocket frames are not recorded; only the WebSocket handshake URL was seen");
  return out;
}
