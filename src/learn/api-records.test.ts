/** Which records are learned: truncated and non-JSON answers warn, a 304 teaches nothing. */
import { describe, expect, it } from "vitest";
import { learnSpecs } from "../../test/support/learn-specs.js";

describe("robustness", () => {
  it("warns about a truncated body and a non-JSON API answer, without crashing", () => {
    const { coverage } = learnSpecs([
      {
        path: "/api/things",
        status: 200,
        resRaw: { text: '[{"id":1', mime: "application/json", truncated: true },
      },
      { path: "/api/health", status: 200, resRaw: { text: "ok", mime: "text/html" } },
    ]);
    expect(coverage.warnings.map((w) => [w.code, w.path])).toEqual([
      ["truncated_body", "records[0].response.body"],
      ["non_json_response", "records[1].response.body"],
    ]);
    expect(coverage.reads.map((r) => [r.tool_name, r.serving])).toEqual([
      ["get_health", "replay"],
      ["get_things", "replay"],
    ]);
  });
});

describe("real-recording oddities", () => {
  it("learns nothing from a 304 (the browser's cache answered; the twin has no cache)", () => {
    const { model, coverage } = learnSpecs([
      { path: "/api/stats", status: 200, res: { n: 1 } },
      { path: "/api/stats", status: 304 },
    ]);
    expect(model.replays[0]!.responses.map((r) => r.status)).toEqual([200]);
    expect(coverage.counts).toEqual({ records: 2, api_records: 1, assets: 0, ignored: 1 });
  });
});

describe("an alias of the app's host (issue 13)", () => {
  it("is another origin: its records are not learned, and a warning says why", () => {
    const { coverage } = learnSpecs([
      { path: "/api/things", status: 200, res: [{ id: 1 }] },
      { path: "/api/things", status: 200, res: [{ id: 1 }], origin: "http://localhost:4010" },
      { path: "/api/other", status: 200, res: [], origin: "http://localhost:4010" },
    ]);
    expect(
      coverage.warnings.filter((w) => w.code === "origin_alias").map((w) => [w.message, w.path]),
    ).toEqual([
      [
        "2 records went to http://localhost:4010, not the app's origin http://127.0.0.1:4010; they were not learned (localhost and 127.0.0.1 are this same machine and port, but different origins to the browser and to apptwin; use one host name, the one the scenario starts on, everywhere)",
        "records[1]",
      ],
    ]);
    expect(coverage.reads.map((r) => r.tool_name)).toEqual(["get_things"]);
  });
});
