import { describe, expect, it } from "vitest";
import type { Coverage, CoverageWithheld } from "../coverage/coverage-schema.js";
import { adviseGaps, nextAfterCapture, nextAfterCoverage, summarizeCoverage } from "./next-step.js";

function withheld(tool: string, reason: CoverageWithheld["reason"], closable = true): CoverageWithheld {
  return {
    tool_name: tool,
    method: "POST",
    template: "/api/things",
    collection: "things",
    observations: 1,
    reason,
    hint: `hint for ${tool}`,
    closable,
  };
}

function coverage(gaps: CoverageWithheld[]): Coverage {
  return {
    schema_version: 1,
    status: gaps.length > 0 ? "partial" : "complete",
    app_origin: "http://127.0.0.1:1",
    counts: { records: 3, api_records: 3, assets: 0, ignored: 0 },
    collections: [{ name: "things", id_field: "id", entities: 2 }],
    reads: [],
    writes: { served: [], withheld: gaps },
    warnings: [],
    next: null,
  };
}

describe("adviseGaps", () => {
  it("records a closable gap once, and stops on an unclosable one or one the previous recording left the same", () => {
    const now = coverage([
      withheld("post_things", "not_read_back"),
      withheld("put_things", "unexplained_field", false),
      withheld("delete_things", "read_back_disagrees"),
    ]);
    const before = coverage([withheld("delete_things", "read_back_disagrees")]);
    expect(adviseGaps(now, before).map((g) => [g.tool, g.action])).toEqual([
      ["post_things", "record"],
      ["put_things", "stop"],
      ["delete_things", "stop"],
    ]);
    expect(adviseGaps(now, before)[2]!.why).toBe(
      "the previous recording of this scenario was withheld for the same reason, so recording again will not close it: report it as withheld",
    );
  });
});

describe("next steps", () => {
  it("fixes a failed capture before anything else", () => {
    const s = summarizeCoverage(coverage([]), null);
    expect(nextAfterCapture("app-1", "failed", s)).toMatch(
      /^Next: the capture app-1 is failed\. Fix the first failed step/,
    );
  });

  it("exports when nothing can be closed, and asks before re-recording a write", () => {
    expect(
      nextAfterCoverage(["a-1"], summarizeCoverage(coverage([withheld("x", "failed_status", false)]), null)),
    ).toBe(
      'Next: call export_environment_bundle with capture_ids ["a-1"] and an absolute destination that does not exist (try dry_run first to see the report). Report every withheld write with its reason.',
    );
    expect(
      nextAfterCoverage(["a-1"], summarizeCoverage(coverage([withheld("x", "not_read_back")]), null)),
    ).toContain("ask the user first, because it writes");
  });
});
