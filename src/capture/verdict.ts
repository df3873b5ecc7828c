/**
 * The fail-closed verdict of a capture and the step statuses behind it:
 * `passed` only when every step passed and nothing stopped the run short;
 * `incomplete` when something could not be established; `failed` otherwise.
 */
import type { StepResult } from "../evidence/evidence-schema.js";

/** The verdict over step results and the reasons (if any) the run could not be completed. */
export function captureVerdict(
  steps: readonly Pick<StepResult, "status">[],
  incompleteReasons: readonly string[],
): "passed" | "failed" | "incomplete" {
  if (incompleteReasons.length > 0) return "incomplete";
  if (steps.length > 0 && steps.every((s) => s.status === "passed")) return "passed";
  return steps.length === 0 ? "incomplete" : "failed";
}

/** The limitations a capture of these actions carries, in a fixed order. */
export function captureLimitations(actions: readonly string[], sawWebSocket: boolean): string[] {
  const out: string[] = [];
  if (actions.includes("request")) out.push("writes were sent without a user gesture");
  if (sawWebSocket) out.push("WebSocket frames are not recorded; only the WebSocket handshake URL was seen");
  return out;
}
