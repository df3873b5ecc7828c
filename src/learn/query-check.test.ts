/** Queries: a filter or a page is confirmed only when the state proves it. */
import { describe, expect, it } from "vitest";
import { learnSpecs, list } from "../../test/support/learn-specs.js";

describe("robustness", () => {
  it("does not confirm a filter the state contradicts: the query is replayed", () => {
    const all = [
      { id: 1, done: true },
      { id: 2, done: false },
    ];
    const { model } = learnSpecs([list(all), { path: "/api/things?done=true", status: 200, res: all }]);
    expect(model.collections[0]!.filters).toEqual([]);
    expect(model.replays.map((r) => r.path_and_query)).toEqual(["/api/things?done=true"]);
  });
});

describe("rules learned from too little", () => {
  it("does not confirm a filter that excluded nothing (every entity matched by coincidence)", () => {
    const all = [
      { id: 1, status: "open" },
      { id: 2, status: "open" },
    ];
    const { model } = learnSpecs([list(all), { path: "/api/things?status=open", status: 200, res: all }]);
    expect(model.collections[0]!.filters).toEqual([]);
    expect(model.replays.map((r) => r.path_and_query)).toEqual(["/api/things?status=open"]);
  });

  it("does not confirm pagination from a page that cut nothing", () => {
    const all = [{ id: 1 }, { id: 2 }];
    const { model } = learnSpecs([list(all), { path: "/api/things?limit=10", status: 200, res: all }]);
    expect(model.collections[0]!.pagination).toBeNull();
    expect(model.replays.map((r) => r.path_and_query)).toEqual(["/api/things?limit=10"]);
  });
});
