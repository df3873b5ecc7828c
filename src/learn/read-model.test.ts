/** Replays: different answers to the same request are served in order; keyed on a header that changes their shape. */
import { describe, expect, it } from "vitest";
import { learnSpecs } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

describe("robustness", () => {
  it("replays different answers to the same request in order", () => {
    const { model } = learnSpecs([
      { path: "/api/stats", status: 200, res: { n: 1 } },
      { path: "/api/stats", status: 200, res: { n: 2 } },
    ]);
    expect(model.replays[0]!.responses.map((r) => r.body)).toEqual([
      { encoding: "json", value: { n: 1 } },
      { encoding: "json", value: { n: 2 } },
    ]);
  });
});

describe("answers whose shape depends on a request header", () => {
  const accept = (value: string) => [{ name: "Accept", value }];
  const report = { total: 3, by_day: { mon: 1, tue: 2 } };
  const csv = { text: "day,n\nmon,1\ntue,2\n", mime: "text/csv" };
  const get = (headers: Record<string, string>) => ({
    method: "GET",
    path: "/api/report",
    query: [] as [string, string][],
    headers,
    body: null,
  });

  it("keys the replay on Accept when each value has its own shape, and serves each its own", () => {
    const { model, seed } = learnSpecs([
      { path: "/api/report", status: 200, res: report, headers: accept("application/json") },
      { path: "/api/report", status: 200, resRaw: csv, headers: accept("text/csv") },
      { path: "/api/report", status: 200, res: report, headers: accept("application/json") },
    ]);
    expect(model.replays[0]!.responses.map((r) => r.headers_match)).toEqual([
      { accept: "application/json" },
      { accept: "text/csv" },
      { accept: "application/json" },
    ]);
    const ep = createEpisode(model, seed, { episodeId: "v" });
    const asCsv = handleRequest(model, ep, get({ accept: "text/csv" }));
    expect(asCsv.body).toEqual({ kind: "text", text: csv.text, content_type: "text/csv" });
    expect(handleRequest(model, ep, get({ Accept: "application/json" })).body).toEqual({
      kind: "json",
      value: report,
    });
    // No Accept (an MCP call): the JSON answers.
    expect(handleRequest(model, ep, get({})).body).toEqual({ kind: "json", value: report });
    const other = handleRequest(model, ep, get({ accept: "application/xml" }));
    expect([other.status, other.served_by]).toEqual([501, "miss"]);
    expect(other.body).toMatchObject({
      value: {
        error: "unrecorded_variant",
        headers: [{ header: "accept", recorded: ["application/json", "text/csv"] }],
      },
    });
  });

  it("keys on an API-version header", () => {
    const { model, seed } = learnSpecs([
      { path: "/api/report", status: 200, res: [1, 2], headers: [{ name: "X-API-Version", value: "1" }] },
      { path: "/api/report", status: 200, res: report, headers: [{ name: "X-API-Version", value: "2" }] },
    ]);
    const ep = createEpisode(model, seed, { episodeId: "v" });
    expect(handleRequest(model, ep, get({ "x-api-version": "2" })).body).toEqual({
      kind: "json",
      value: report,
    });
    expect(handleRequest(model, ep, get({ "x-api-version": "1" })).body).toEqual({
      kind: "json",
      value: [1, 2],
    });
  });

  it("is rejected when the header's values keep one shape: the answers stay in recorded order", () => {
    const { model } = learnSpecs([
      { path: "/api/report", status: 200, res: report, headers: accept("*/*") },
      { path: "/api/report", status: 200, res: { ...report, total: 4 }, headers: accept("application/json") },
    ]);
    expect(model.replays[0]!.responses.map((r) => r.headers_match)).toEqual([undefined, undefined]);
  });
});
