/**
 * Merging evidence files: a union that never drops a record. Each source's
 * records stay together and in order, sources are ordered by their first
 * record's time (then evidence id), so the result does not depend on the
 * order the files were named in. Every record keeps where it came from.
 */
import { UserError } from "../errors/user-error.js";
import { computeEvidenceId } from "./evidence-id.js";
import { sourceNames } from "./evidence-name.js";
import type { Evidence, EvidenceRecord, EvidenceWarning, StepResult } from "./evidence-schema.js";
import { EVIDENCE_SCHEMA_VERSION } from "./evidence-schema.js";
import { countMarkers } from "./redact-evidence.js";

const VERDICT_RANK = { passed: 0, incomplete: 1, failed: 2 } as const;

function firstTime(e: Evidence): number {
  const times = e.records.flatMap((r) => (r.started_at === null ? [] : [r.started_at]));
  if (times.length > 0) return times.reduce((a, b) => Math.min(a, b));
  return e.started_at ?? Number.POSITIVE_INFINITY;
}

function compareSources(a: Evidence, b: Evidence): number {
  const ta = firstTime(a);
  const tb = firstTime(b);
  if (ta !== tb) return ta < tb ? -1 : 1;
  return a.evidence_id < b.evidence_id ? -1 : a.evidence_id > b.evidence_id ? 1 : 0;
}

function sortedUnique(values: Iterable<string>): string[] {
  return [...new Set(values)].sort();
}

function minOf(values: (number | null)[]): number | null {
  const ns = values.filter((v): v is number => v !== null);
  return ns.length === 0 ? null : ns.reduce((a, b) => Math.min(a, b));
}

function maxOf(values: (number | null)[]): number | null {
  const ns = values.filter((v): v is number => v !== null);
  return ns.length === 0 ? null : ns.reduce((a, b) => Math.max(a, b));
}

/** Moves a warning's `/records/<i>` or `/steps/<i>` pointer to where that item sits in the merged evidence. */
function shiftPointer(pointer: string | null, offsets: { records: number; steps: number }): string | null {
  if (pointer === null) return null;
  return pointer.replace(/^\/(records|steps)\/(\d+)/, (_m, list: "records" | "steps", i: string) => {
    return `/${list}/${Number(i) + offsets[list]}`;
  });
}

/** Merges evidence into one: records renumbered 0..n-1 with their origin, verdict the worst, app origins must agree. */
export function mergeEvidence(list: Evidence[]): Evidence {
  if (list.length === 0) throw new UserError("nothing_to_merge", "merge needs at least one evidence file");
  const origins = sortedUnique(list.map((e) => e.app_origin));
  if (origins.length > 1) {
    throw new UserError(
      "app_origin_mismatch",
      `cannot merge evidence of different apps: ${origins.map((o) => JSON.stringify(o)).join(" and ")}; merge only captures of the same app origin`,
    );
  }
  // The same evidence named twice is one source: a union, not a duplication.
  const byId = new Map(list.map((e) => [e.evidence_id, e]));
  const sources = [...byId.values()].sort(compareSources);
  const records: EvidenceRecord[] = [];
  const steps: StepResult[] = [];
  const warnings: EvidenceWarning[] = [];
  for (const e of sources) {
    const offsets = { records: records.length, steps: steps.length };
    for (const r of e.records) {
      const origin = r.origin ?? { evidence_id: e.evidence_id, seq: r.seq };
      records.push({ ...r, seq: records.length, origin });
    }
    steps.push(...e.steps);
    for (const w of e.warnings) warnings.push({ ...w, pointer: shiftPointer(w.pointer, offsets) });
  }
  const worst = sources.reduce(
    (w, e) => (VERDICT_RANK[e.verdict] > VERDICT_RANK[w] ? e.verdict : w),
    "passed" as Evidence["verdict"],
  );
  const merged: Omit<Evidence, "redactions" | "evidence_id"> = {
    schema_version: EVIDENCE_SCHEMA_VERSION,
    source: {
      kind: "merge" as const,
      scenario: null,
      har: null,
      merged: sources.map((e) => e.evidence_id),
      names: sources.flatMap(sourceNames),
    },
    app_origin: origins[0]!,
    allowed_origins: sortedUnique(sources.flatMap((e) => e.allowed_origins)),
    browser: sources.find((e) => e.browser !== null)?.browser ?? null,
    started_at: minOf(sources.map((e) => e.started_at)),
    finished_at: maxOf(sources.map((e) => e.finished_at)),
    verdict: worst,
    steps,
    records,
    warnings,
    limitations: sortedUnique(sources.flatMap((e) => e.limitations)),
  };
  return { ...merged, redactions: countMarkers(merged), evidence_id: computeEvidenceId(merged) };
}
