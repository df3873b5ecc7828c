/** The human form of a fidelity report: the overall rate, a per-tool table and the first differences. */
import type { FidelityReport } from "./run-fidelity.js";

function pct(score: number): string {
  return `${(score * 100).toFixed(1)}%`;
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? "undefined";
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** Lines of text describing a fidelity report, for the terminal. */
export function formatFidelity(report: FidelityReport): string[] {
  const lines = [
    `Fidelity: ${report.matched} of ${report.requests} requests answered like the app (${pct(report.score)}), held-out evidence ${report.evidence_id}`,
    "",
  ];
  const width = Math.max(4, ...report.tools.map((t) => t.tool.length));
  lines.push(`  ${"tool".padEnd(width)}  matched  rate`);
  for (const t of report.tools) {
    lines.push(`  ${t.tool.padEnd(width)}  ${`${t.matched}/${t.requests}`.padEnd(7)}  ${pct(t.score)}`);
  }
  if (report.differences.length === 0) {
    lines.push("", "No differences.");
    return lines;
  }
  lines.push("", "First differences:");
  const explained = new Set<number>();
  const why = new Map(report.results.map((r) => [r.index, r.twin_explanation]));
  for (const d of report.differences) {
    lines.push(
      `  records[${d.index}] ${d.tool} ${d.request}: ${d.field} expected ${show(d.expected)}, got ${show(d.got)}`,
    );
    const because = why.get(d.index) ?? null;
    if (because !== null && !explained.has(d.index)) {
      explained.add(d.index);
      lines.push(`    the twin: ${because}`);
    }
  }
  return lines;
}
