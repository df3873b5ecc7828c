/**
 * The human form of a coverage report: a table of tools (tool, method, path,
 * serving, reason), the hints of withheld writes, warnings with their place
 * in the evidence, and the next thing to do. `--json` prints the report itself.
 */
import type { Coverage } from "./coverage-schema.js";
import { verdictSentence } from "./evidence-verdict.js";

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows.map((r) =>
    r
      .map((cell, c) => cell.padEnd(widths[c]!))
      .join("  ")
      .trimEnd(),
  );
}

/** Renders a coverage report as terminal text (no colours, stable for tests). */
export function renderCoverage(c: Coverage): string {
  const lines: string[] = [];
  const withheld = c.writes.withheld.length;
  const reads = c.reads.filter((r) => r.serving !== "inferred");
  const inferred = c.reads.length - reads.length;
  lines.push(
    `Coverage: ${c.status} — ${reads.length} reads${inferred > 0 ? ` (and ${inferred} inferred, never recorded)` : ""}, ${c.writes.served.length} writes served, ${withheld} withheld (${c.counts.api_records} API records of ${c.counts.records})`,
  );
  const verdict = c.evidence ? verdictSentence(c.evidence) : null;
  if (verdict !== null) {
    const knows =
      c.evidence?.verdict === "failed"
        ? "The twin knows only what was recorded before the failure."
        : "The twin knows only what the recording shows.";
    lines.push(`Evidence: ${verdict} ${knows}`);
  }
  const rows = [["TOOL", "METHOD", "PATH", "SERVING", "REASON"]];
  for (const r of c.reads) rows.push([r.tool_name, r.method, r.template, r.serving, ""]);
  for (const w of c.writes.served) rows.push([w.tool_name, w.method, w.template, "state", ""]);
  for (const s of c.sign_in ?? []) rows.push([s.tool_name, s.method, s.template, "replay", "sign-in"]);
  for (const a of c.writes.acknowledged ?? [])
    rows.push([a.tool_name, a.method, a.template, "acknowledged", "no effect shown"]);
  for (const w of c.writes.withheld) rows.push([w.tool_name, w.method, w.template, "withheld", w.reason]);
  if (rows.length > 1) lines.push("", ...table(rows));
  if (c.collections.length > 0)
    lines.push(
      "",
      `Collections: ${c.collections.map((x) => `${x.name} (${x.entities}, by ${x.id_field})`).join(", ")}`,
    );
  if (withheld > 0) {
    lines.push("", "Withheld:");
    for (const w of c.writes.withheld) lines.push(`  ${w.tool_name}: ${w.hint}`);
  }
  const unlearned = c.reads.flatMap((r) =>
    (r.unlearned_query ?? []).map((u) => ({ tool: r.tool_name, ...u })),
  );
  if (unlearned.length > 0) {
    lines.push("", "Query parameters with no learned meaning:");
    for (const u of unlearned) lines.push(`  ${u.tool} ${u.param} (${u.recorded} recorded): ${u.hint}`);
  }
  const inferredQuery = c.reads.flatMap((r) =>
    (r.inferred_query ?? []).map((u) => ({ tool: r.tool_name, ...u })),
  );
  if (inferredQuery.length > 0) {
    lines.push(
      "",
      "Query parameters inferred from a sibling collection (never counted as proven; --no-infer leaves them out):",
    );
    for (const u of inferredQuery)
      lines.push(`  ${u.tool} ${u.param} ${u.serving} (${u.kind}): ${u.explain}`);
  }
  const unconfirmed = c.writes.served.flatMap((w) =>
    (w.unconfirmed ?? []).map((u) => ({ tool: w.tool_name, ...u })),
  );
  if (unconfirmed.length > 0) {
    lines.push("", "Served writes' unconfirmed parts (the documented rule's choice, never recorded):");
    for (const u of unconfirmed) lines.push(`  ${u.tool} ${u.field} ${u.kind}: unconfirmed, ${u.explain}`);
  }
  if ((c.writes.acknowledged ?? []).length > 0) {
    lines.push("", "Acknowledged (answered as recorded, changing nothing; never counted as served):");
    for (const a of c.writes.acknowledged!) lines.push(`  ${a.tool_name}: ${a.explain}`);
  }
  if ((c.validations ?? []).length > 0) {
    lines.push("", "Validations answered as recorded:");
    for (const v of c.validations!) lines.push(`  ${v.tool_name}: ${v.explain}`);
  }
  if (c.warnings.length > 0) {
    lines.push("", "Warnings:");
    for (const w of c.warnings) lines.push(`  ${w.path ?? "evidence"}: ${w.message}`);
  }
  const none = (c.writes.acknowledged ?? []).length > 0 ? "served or acknowledged" : "served";
  lines.push("", `Next: ${c.next ?? `nothing; every recorded write is ${none}`}`);
  return lines.join("\n");
}
