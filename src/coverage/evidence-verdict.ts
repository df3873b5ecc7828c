/**
 * The evidence's own verdict as coverage reports it: a twin learned from a
 * capture that failed or could not be completed is learned from less than
 * the scenario meant to show, and every summary (coverage, the build's, the
 * bundle's README) says so next to its status, never "complete" alone.
 */
import type { Evidence } from "../evidence/evidence-schema.js";

/** The verdict and why it is not `passed` (empty when it is). */
export interface EvidenceVerdict {
  verdict: Evidence["verdict"];
  reasons: string[];
}

/** The verdict of an evidence and its reasons: failed steps and what was cancelled after them, else its limitations. */
export function evidenceVerdict(e: Pick<Evidence, "verdict" | "steps" | "limitations">): EvidenceVerdict {
  if (e.verdict === "passed") return { verdict: "passed", reasons: [] };
  const failed = e.steps.filter((s) => s.status === "failed");
  const reasons = failed.map((s) => `step "${s.step_id}" failed${s.error ? `: ${s.error}` : ""}`);
  const cancelled = e.steps.filter((s) => s.status === "cancelled").length;
  if (cancelled > 0)
    reasons.push(
      `${cancelled} step${cancelled === 1 ? "" : "s"} after it ${cancelled === 1 ? "was" : "were"} cancelled`,
    );
  if (failed.length === 0) reasons.push(...e.limitations);
  if (reasons.length === 0)
    reasons.push(e.steps.length === 0 ? "no steps ran" : "the run could not be completed");
  return { verdict: e.verdict, reasons };
}

/** The next thing to do when a step failed (capture again), or null when the verdict asks for nothing a capture can give. */
export function verdictNext(v: EvidenceVerdict, steps: Evidence["steps"]): string | null {
  const first = steps.find((s) => s.status === "failed");
  if (v.verdict === "passed" || !first) return null;
  const why = `step "${first.step_id}" failed${first.error ? `: ${first.error}` : ""}`;
  return `Fix what made the capture fail (${why}), then capture again: the steps after it never ran, so what they would show is missing`;
}

/** One sentence for summaries: `failed — step "x" failed: …; 1 step after it was cancelled.` (null when passed). */
export function verdictSentence(v: EvidenceVerdict): string | null {
  if (v.verdict === "passed") return null;
  return `${v.verdict} — ${v.reasons.join("; ")}.`;
}
