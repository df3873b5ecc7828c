import { describe, expect, it } from "vitest";
import { UserError } from "../errors/user-error.js";
import type { Evidence, EvidenceRecord } from "./evidence-schema.js";
import { mergeEvidence } from "./merge.js";
import { createRedactor, redactEvidence } from "./redaction.js";

const O = "http://127.0.0.1:4010";
const rec = (seq: number, t: number, path: string): EvidenceRecord => ({
  seq,
  step_id: null,
  started_at: t,
  duration_ms: 1,
  resource_type: "fetch",
  initiator: "page",
  request: { method: "GET", url: `${O}${path}`, headers: [], body: null },
  response: { status: 200, status_text: "OK", headers: [], body: null, redirect_to: null },
  failure: null,
  origin: null,
});

function evidence(name: string, t: number, verdict: Evidence["verdict"], origin = O): Evidence {
  return redactEvidence(
    {
      schema_version: 1,
      source: { kind: "capture", scenario: { name, digest: name }, har: null, merged: null },
      app_origin: origin,
      allowed_origins: [],
      browser: null,
      started_at: t,
      finished_at: t + 10,
      verdict,
      steps: [
        {
          step_id: `${name}-1`,
          action: "navigate",
          status: "passed",
          started_at: t,
          duration_ms: 1,
          error: null,
          url_before: null,
          url_after: null,
        },
      ],
      records: [rec(0, t, `/${name}/a`), rec(1, t + 1, `/${name}/b`)],
      warnings: [{ code: "w", message: name, pointer: "/records/1/response/body" }],
      limitations: [`limitation of ${name}`],
    },
    createRedactor({ secrets: [] }),
  );
}

describe("mergeEvidence", () => {
  const early = evidence("early", 1000, "passed");
  const late = evidence("late", 5000, "incomplete");

  it("keeps every record, sources ordered by their first record time, seq renumbered, origin kept", () => {
    const m = mergeEvidence([late, early]);
    expect(m.records.map((r) => [r.seq, r.request.url, r.origin])).toEqual([
      [0, `${O}/early/a`, { evidence_id: early.evidence_id, seq: 0 }],
      [1, `${O}/early/b`, { evidence_id: early.evidence_id, seq: 1 }],
      [2, `${O}/late/a`, { evidence_id: late.evidence_id, seq: 0 }],
      [3, `${O}/late/b`, { evidence_id: late.evidence_id, seq: 1 }],
    ]);
    expect(m.source).toEqual({
      kind: "merge",
      scenario: null,
      har: null,
      merged: [early.evidence_id, late.evidence_id],
      // The sources' names, in merge order: a bundle of the merge is named after them.
      names: ["early", "late"],
    });
    expect(m.steps.map((s) => s.step_id)).toEqual(["early-1", "late-1"]);
    expect(m.warnings.map((w) => w.pointer)).toEqual([
      "/records/1/response/body",
      "/records/3/response/body",
    ]);
    expect(m.verdict).toBe("incomplete");
    expect(m.limitations).toEqual(["limitation of early", "limitation of late"]);
    expect(m.started_at).toBe(1000);
    expect(m.finished_at).toBe(5010);
  });

  it("does not depend on the order of its arguments", () => {
    expect(mergeEvidence([late, early])).toEqual(mergeEvidence([early, late]));
  });

  it("keeps the original origin of records that were merged before", () => {
    const again = mergeEvidence([mergeEvidence([early, late]), evidence("later", 9000, "failed")]);
    expect(again.records.map((r) => r.origin?.evidence_id)).toEqual([
      early.evidence_id,
      early.evidence_id,
      late.evidence_id,
      late.evidence_id,
      evidence("later", 9000, "failed").evidence_id,
      evidence("later", 9000, "failed").evidence_id,
    ]);
    expect(again.verdict).toBe("failed");
  });

  it("refuses evidence of different app origins, naming both", () => {
    const other = evidence("other", 2000, "passed", "http://127.0.0.1:5000");
    expect(() => mergeEvidence([early, other])).toThrow(UserError);
    expect(() => mergeEvidence([early, other])).toThrow(
      'cannot merge evidence of different apps: "http://127.0.0.1:4010" and "http://127.0.0.1:5000"; merge only captures of the same app origin',
    );
  });
});
