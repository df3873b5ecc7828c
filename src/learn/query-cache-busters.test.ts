import { describe, expect, it } from "vitest";
import { buildEvidence, type RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, T0 } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";
import { selectApiRecords } from "./api-records.js";
import { findCacheBusters } from "./query-cache-busters.js";

const things = [
  { id: 1, title: "A", done: false },
  { id: 2, title: "B", done: true },
];
// Record i starts at T0 + i s: a client clock is that time, in ms.
const at = (i: number) => T0 + i * 1000;
const busters = (specs: RecordSpec[]) =>
  findCacheBusters(selectApiRecords(buildEvidence(specs)).api).map((b) => b.param);

describe("cache-busters by hypothesis", () => {
  it("confirms a clock value new on every read that changed nothing between two reads", () => {
    const specs: RecordSpec[] = [
      { path: `/api/things?_=${at(0)}`, status: 200, res: things },
      { path: `/api/things?_=${at(1)}`, status: 200, res: things },
      { path: `/api/things?done=true&_=${at(2)}`, status: 200, res: [things[1]] },
      { path: `/api/things/1?_=${at(3)}`, status: 200, res: things[0] },
    ];
    expect(busters(specs)).toEqual(["_"]);
    const { model } = learnSpecs(specs);
    expect(model.cache_busters?.map((b) => b.param)).toEqual(["_"]);
    const col = model.collections.find((c) => c.name === "things")!;
    // With the buster out, the first reads are plain lists: the filter is learned, the item is served from state.
    expect(col.query?.rules.map((r) => r.kind)).toEqual(["filter"]);
    expect(model.replays).toEqual([]);
  });

  it("serves a read with a new clock value from the state, as if it were not sent", () => {
    const { model, seed } = learnSpecs([
      { path: `/api/things?_=${at(0)}`, status: 200, res: things },
      { path: `/api/things?_=${at(1)}`, status: 200, res: things },
      { path: `/api/things?done=true&_=${at(2)}`, status: 200, res: [things[1]] },
    ]);
    const episode = createEpisode(model, seed, { episodeId: "e" });
    const r = handleRequest(model, episode, {
      method: "GET",
      path: "/api/things",
      query: [
        ["done", "false"],
        ["_", String(at(99))],
      ],
      headers: {},
      body: null,
    });
    expect([r.status, r.served_by, r.body]).toEqual([200, "state", { kind: "json", value: [things[0]] }]);
  });

  it("rejects a time parameter whose reads answered otherwise with nothing written between (it filters)", () => {
    expect(
      busters([
        { path: `/api/things?since=${at(0)}`, status: 200, res: things },
        { path: `/api/things?since=${at(1)}`, status: 200, res: [things[1]] },
      ]),
    ).toEqual([]);
  });

  it("rejects a time parameter whose reads answered alike but otherwise than the same read without it (it filters)", () => {
    expect(
      busters([
        { path: "/api/things", status: 200, res: things },
        { path: `/api/things?since=${at(1)}`, status: 200, res: [] },
        { path: `/api/things?since=${at(2)}`, status: 200, res: [] },
        { path: `/api/things?since=${at(3)}`, status: 200, res: [] },
      ]),
    ).toEqual([]);
    // The same reads answered as the plain read did confirm it.
    expect(
      busters([
        { path: "/api/things", status: 200, res: things },
        { path: `/api/things?since=${at(1)}`, status: 200, res: things },
        { path: `/api/things?since=${at(2)}`, status: 200, res: things },
      ]),
    ).toEqual(["since"]);
  });

  it("rejects a value sent twice, a value no time near the request, and one with no pair to confirm it", () => {
    expect(
      busters([
        { path: `/api/things?v=${at(0)}`, status: 200, res: things },
        { path: `/api/things?v=${at(0)}`, status: 200, res: things },
      ]),
    ).toEqual([]);
    expect(
      busters([
        { path: "/api/things?t=1500000000000", status: 200, res: things },
        { path: "/api/things?t=1500000000001", status: 200, res: things },
      ]),
    ).toEqual([]);
    expect(
      busters([
        { path: `/api/things?_=${at(0)}`, status: 200, res: things },
        { path: `/api/other?_=${at(1)}`, status: 200, res: things },
      ]),
    ).toEqual([]);
  });
});
