/** Creates whose answer carries no entity: named by their Location, else by the next full list, else refused. */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, list } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const a = { id: 1, title: "A", done: false };
const made = (id: number, title: string) => ({ id, title, done: false });
const create = (title: string, id?: number): RecordSpec => ({
  method: "POST",
  path: "/api/things",
  status: 201,
  req: { title },
  ...(id === undefined ? {} : { resHeaders: [{ name: "location", value: `/api/things/${id}` }] }),
});

describe("creates answering no entity", () => {
  it("names the entity by a 201's Location, and the twin answers 201 with the Location filled in", () => {
    const { model, seed, coverage } = learnSpecs([
      list([a]),
      create("B", 2),
      { path: "/api/things/2", status: 200, res: made(2, "B") },
      create("C", 3),
      list([a, made(2, "B"), made(3, "C")]),
    ]);
    expect(coverage.writes.withheld).toEqual([]);
    const rule = model.write_rules.find((r) => r.tool_name === "post_things")!;
    expect([rule.response, rule.location]).toEqual([{ kind: "empty" }, "/api/things/{id}"]);
    const ep = createEpisode(model, seed, { episodeId: "p" });
    const body = { kind: "json" as const, value: { title: "D" } };
    const res = handleRequest(model, ep, {
      method: "POST",
      path: "/api/things",
      query: [],
      headers: {},
      body,
    });
    expect([res.status, res.headers.location, res.body]).toEqual([201, "/api/things/4", null]);
  });

  it("sends no Location when the answers' Locations fit no one template, and still serves the create", () => {
    const other = (title: string, id: number, at: string): RecordSpec => ({
      method: "POST",
      path: "/api/things",
      status: 201,
      req: { title },
      res: made(id, title),
      resHeaders: [{ name: "location", value: `${at}/${id}` }],
    });
    const { model, coverage } = learnSpecs([
      list([a]),
      other("B", 2, "/api/things"),
      other("C", 3, "/api/v2/things"),
      list([a, made(2, "B"), made(3, "C")]),
    ]);
    expect(coverage.writes.withheld).toEqual([]);
    expect(model.write_rules.find((r) => r.tool_name === "post_things")!.location).toBeUndefined();
  });

  it("names it by the next full list when that shows exactly one new entity", () => {
    const { coverage } = learnSpecs([list([a]), create("B"), list([a, made(2, "B")])]);
    expect(coverage.writes.withheld).toEqual([]);
  });

  it("refuses it when two such creates wait for one list: which entity each made is not shown", () => {
    const { coverage } = learnSpecs([
      list([a]),
      create("B"),
      create("C"),
      list([a, made(2, "B"), made(3, "C")]),
    ]);
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason])).toEqual([
      ["post_things", "not_read_back"],
    ]);
  });
});
