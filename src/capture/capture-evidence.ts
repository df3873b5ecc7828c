/** Pieces of a capture's Evidence that are plain data: cancelled step results and record warnings. */
import type { Evidence, EvidenceWarning, StepResult } from "../evidence/evidence-schema.js";

/** The result of a step that never ran because an earlier one failed. */
export function cancelledStep(stepId: string, action: string, failedStep: string): StepResult {
  return {
    step_id: stepId,
    action,
    status: "cancelled",
    started_at: null,
    duration_ms: null,
    error: `cancelled: step "${failedStep}" failed`,
    url_before: null,
    url_after: null,
  };
}

/** Warnings pointing into the records: refused writes and truncated bodies. */
export function recordWarnings(records: Evidence["records"]): EvidenceWarning[] {
  const out: EvidenceWarning[] = [];
  for (const [i, r] of records.entries()) {
    if (r.failure?.kind === "refused") {
      out.push({ code: "write_refused", message: r.failure.message, pointer: `/records/${i}` });
    }
    for (const part of ["request", "response"] as const) {
      const body = r[part]?.body;
      if (body?.truncated) {
        out.push({
          code: "body_truncated",
          message: `the ${part} body of ${r.request.method} ${r.request.url} was ${body.size} bytes; only the first part was kept`,
          pointer: `/records/${i}/${part}/body`,
        });
      }
    }
  }
  return out;
}
