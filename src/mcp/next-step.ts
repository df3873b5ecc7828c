/**
 * What an agent should do after each stage, decided from the data (the
 * capture's verdict, the coverage's withheld reasons, what an earlier
 * recording of the same scenario already tried), so that every tool result
 * and prompt ends with one honest next step. A gap is re-recorded at most
 * once: a write withheld for the same reason after a second recording, or
 * one no recording can close, is reported as withheld, never looped on.
 */
import type { Coverage, CoverageWithheld } from "../coverage/coverage-schema.js";

/** One withheld write and what to do about it. */
export interface GapAdvice {
  tool: string;
  request: string;
  reason: string;
  hint: string;
  /** `record`: one more recording can close it; `stop`: report it as withheld. */
  action: "record" | "stop";
  why: string;
}

/** The coverage numbers and gaps a tool result shows (never the whole report). */
export interface CoverageSummary {
  status: Coverage["status"];
  collections: { name: string; entities: number }[];
  reads: { state: number; replayed: number };
  writes_served: string[];
  sign_in: string[];
  gaps: GapAdvice[];
}

/** Advice for each withheld write; `before` is the coverage of the previous recording of the same scenario. */
export function adviseGaps(coverage: Coverage, before: Coverage | null): GapAdvice[] {
  const seen = new Set((before?.writes.withheld ?? []).map((w) => `${w.tool_name} ${w.reason}`));
  return coverage.writes.withheld.map((w: CoverageWithheld) => {
    const base = { tool: w.tool_name, request: `${w.method} ${w.template}`, reason: w.reason, hint: w.hint };
    if (w.closable === false)
      return { ...base, action: "stop", why: "no recording can close this gap: report it as withheld" };
    if (seen.has(`${w.tool_name} ${w.reason}`))
      return {
        ...base,
        action: "stop",
        why: "the previous recording of this scenario was withheld for the same reason, so recording again will not close it: report it as withheld",
      };
    return { ...base, action: "record", why: "one more recording that does what the hint says can close it" };
  });
}

/** The summary of a coverage report, with advice per gap. */
export function summarizeCoverage(coverage: Coverage, before: Coverage | null): CoverageSummary {
  return {
    status: coverage.status,
    collections: coverage.collections.map((c) => ({ name: c.name, entities: c.entities })),
    reads: {
      state: coverage.reads.filter((r) => r.serving === "state").length,
      replayed: coverage.reads.filter((r) => r.serving === "replay").length,
    },
    writes_served: coverage.writes.served.map((w) => w.tool_name),
    sign_in: (coverage.sign_in ?? []).map((s) => s.tool_name),
    gaps: adviseGaps(coverage, before),
  };
}

/** The human lines of a coverage summary. */
export function coverageLines(s: CoverageSummary): string[] {
  const lines = [
    `Coverage: ${s.status}. ${s.reads.state} reads from state, ${s.reads.replayed} replayed; ${s.writes_served.length} writes served${s.writes_served.length > 0 ? ` (${s.writes_served.join(", ")})` : ""}; ${s.gaps.length} withheld.`,
  ];
  if (s.collections.length > 0)
    lines.push(`Collections: ${s.collections.map((c) => `${c.name} (${c.entities})`).join(", ")}.`);
  for (const g of s.gaps)
    lines.push(`- withheld ${g.tool} (${g.request}): ${g.reason}. ${g.hint}. → ${g.action}: ${g.why}.`);
  return lines;
}

/** The next step after a capture or import, from its verdict and coverage. */
export function nextAfterCapture(
  id: string,
  verdict: "passed" | "failed" | "incomplete",
  summary: CoverageSummary,
): string {
  if (verdict !== "passed")
    return `Next: the capture ${id} is ${verdict}. Fix the first failed step (its target, text, timeout_ms or expected_status) and call capture_browser_scenario again with the whole scenario. Do not export a ${verdict} capture as if it were complete.`;
  return nextAfterCoverage([id], summary);
}

/** The next step once coverage is known: re-record what one recording can close, else export. */
export function nextAfterCoverage(ids: readonly string[], summary: CoverageSummary): string {
  const record = summary.gaps.filter((g) => g.action === "record");
  const list = JSON.stringify(ids);
  if (summary.status === "empty")
    return "Next: nothing was learnable. Add request steps that read the app's collections (GET of each list and of one item) and capture again.";
  if (record.length > 0)
    return `Next: ${record.length} withheld write(s) can be closed by one more recording (${record.map((g) => g.tool).join(", ")}): add what each hint says to the scenario and capture it again — ask the user first, because it writes. Or, if the user accepts the gaps, call export_environment_bundle with capture_ids ${list} and an absolute destination that does not exist.`;
  return `Next: call export_environment_bundle with capture_ids ${list} and an absolute destination that does not exist (try dry_run first to see the report). Report every withheld write with its reason.`;
}
