import { describe, expect, it } from "vitest";
import { buildEvidence } from "../../test/fixtures/evidence/build-evidence.js";
import { learn } from "./learn.js";
import { bodyNotRecorded } from "./unrecorded-bodies.js";

describe("bodyNotRecorded", () => {
  const h = (name: string, value: string) => [{ name, value }];
  it("holds when the headers say there was a body and the recording kept none", () => {
    expect(
      bodyNotRecorded("GET", { status: 200, headers: h("content-type", "application/json"), body: null }),
    ).toBe(true);
    expect(bodyNotRecorded("GET", { status: 200, headers: h("content-length", "42"), body: null })).toBe(
      true,
    );
  });

  it("does not hold for an answer that truly had none", () => {
    expect(
      bodyNotRecorded("DELETE", { status: 204, headers: h("content-type", "application/json"), body: null }),
    ).toBe(false);
    expect(bodyNotRecorded("GET", { status: 200, headers: h("content-length", "0"), body: null })).toBe(
      false,
    );
    expect(bodyNotRecorded("GET", { status: 200, headers: [], body: null })).toBe(false);
    expect(bodyNotRecorded("HEAD", { status: 200, headers: h("content-length", "42"), body: null })).toBe(
      false,
    );
    expect(bodyNotRecorded("GET", { status: 302, headers: h("content-type", "text/html"), body: null })).toBe(
      false,
    );
  });
});

describe("findUnrecordedBodies (through learn)", () => {
  it("lists the answer in the model and warns with a pointer at the record", () => {
    const e = buildEvidence([
      { path: "/api/items", status: 200, res: [{ id: 1 }] },
      { path: "/api/stats?range=week", status: 200, res: { open: 1 } },
    ]);
    e.records[1]!.response!.body = null;
    const learned = learn(e);
    expect(learned.model.unrecorded_bodies).toEqual([
      {
        tool_name: "get_stats",
        method: "GET",
        path_and_query: "/api/stats?range=week",
        status: 200,
        pointers: ["/records/1/response/body"],
      },
    ]);
    expect(learned.warnings.filter((w) => w.code === "unrecorded_body")).toEqual([
      {
        code: "unrecorded_body",
        message:
          "GET /api/stats?range=week answered 200 with a body the recording did not keep; the twin replays it without one and says so (x-apptwin-body: not-recorded). Re-record it with bodies kept (a HAR exported with content)",
        pointer: "/records/1/response/body",
      },
    ]);
  });
});
