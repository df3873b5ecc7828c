import { describe, expect, it } from "vitest";
import { ITEMS_SEED_STATE, itemsModel } from "../../../test/fixtures/models/items-twin.js";
import { createEpisode } from "./create-episode.js";
import { handleRequest } from "./handle-request.js";
import type { TwinRequest } from "./twin-types.js";

const get = (path: string, query: [string, string][]): TwinRequest => ({
  method: "GET",
  path,
  query,
  headers: {},
  body: null,
});
const answer = (value: unknown) => ({
  status: 200,
  headers: { "content-type": "application/json" },
  body: { encoding: "json" as const, value },
});

describe("replays under a cache-buster (a parameter holding the client's clock)", () => {
  const base = itemsModel();
  const model = {
    ...base,
    // The recording ended at 1796123970000 (ms): a value within a day of it was the page's clock.
    clock: { ...base.clock, last_time_ms: 1_796_123_970_000 },
    replays: [
      ...base.replays,
      // The page asked twice, each time with its clock in `_` (ms): the later answer is the app's newest.
      {
        method: "GET",
        path_and_query: "/api/config?_=1796123964658",
        tool_name: "get_config",
        responses: [answer({ v: 1 })],
      },
      {
        method: "GET",
        path_and_query: "/api/config?_=1796123967385",
        tool_name: "get_config",
        responses: [answer({ v: 2 })],
      },
      {
        method: "GET",
        path_and_query: "/api/tree?type=directory&t=1796123964",
        tool_name: "get_tree",
        responses: [answer({ tree: "dir" })],
      },
      {
        method: "GET",
        path_and_query: "/api/ids?id=1700000000000",
        tool_name: "get_ids",
        responses: [answer({ id: 1 })],
      },
    ],
  };
  const ask = (path: string, query: [string, string][]) =>
    handleRequest(model, createEpisode(model, ITEMS_SEED_STATE, { episodeId: "e1" }), get(path, query));

  it("answers a new clock value with the latest recorded answer, the exact one still exact", () => {
    expect(ask("/api/config", [["_", "1796200000000"]])).toMatchObject({
      status: 200,
      served_by: "replay",
      body: { value: { v: 2 } },
    });
    expect(ask("/api/config", [["_", "1796123964658"]])).toMatchObject({ body: { value: { v: 1 } } });
  });

  it("keeps every other parameter exact, seconds count as a clock too", () => {
    expect(
      ask("/api/tree", [
        ["t", "1800000000"],
        ["type", "directory"],
      ]),
    ).toMatchObject({ served_by: "replay", body: { value: { tree: "dir" } } });
    expect(
      ask("/api/tree", [
        ["t", "1800000000"],
        ["type", "file"],
      ]).served_by,
    ).toBe("miss");
  });

  it("never takes a value that is not a clock, a missing cache-buster, or one under another name for one", () => {
    // A clock's shape, but a year before the recording ended: an id, whatever it looks like.
    expect(ask("/api/ids", [["id", "1700000000001"]]).served_by).toBe("miss");
    expect(ask("/api/config", [["_", "17"]]).served_by).toBe("miss");
    expect(ask("/api/config", [["_", "99999999999999"]]).served_by).toBe("miss");
    expect(ask("/api/config", []).served_by).toBe("miss");
    expect(ask("/api/config", [["cb", "1796200000000"]]).served_by).toBe("miss");
  });
});
