/** The human form of a validation report: each file with ✓ or every problem, then what was skipped. */
import type { ValidationReport } from "./scenario-io.js";

/** Renders a report for the terminal. */
export function formatValidation(report: ValidationReport): string {
  const lines: string[] = [];
  for (const f of report.files) {
    lines.push(`${f.valid ? "✓" : "✗"} ${f.file}`);
    for (const issue of f.issues) lines.push(`  - ${issue.message}`);
  }
  for (const s of report.skipped) lines.push(`- skipped ${s.name}: ${s.reason}`);
  const bad = report.files.filter((f) => !f.valid);
  const problems = bad.reduce((n, f) => n + f.issues.length, 0);
  const count = `${report.files.length} file${report.files.length === 1 ? "" : "s"}`;
  lines.push(
    bad.length === 0
      ? `${count} valid`
      : `${count}: ${bad.length} invalid, ${problems} problem${problems === 1 ? "" : "s"}`,
  );
  return lines.join("\n");
}
