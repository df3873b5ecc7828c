/** What writes answer but reads never show: kept in state, left out of reads, answered again by writes. */
import { describe, expect, it } from "vitest";
import { learnSpecs, list } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const answer = (id: number, t: string) => ({ id, title: { raw: t, rendered: t }, password: "" });
const view = (id: number, t: string) => ({ id, title: { rendered: t } });

describe("fields only writes show", () => {
  const specs = [
    list([view(1, "A")]),
    { method: "POST", path: "/api/things", status: 201, req: { title: "B" }, res: answer(2, "B") },
    { path: "/api/things/2", status: 200, res: view(2, "B") },
    { method: "PATCH", path: "/api/things/2", status: 200, req: { title: "C" }, res: answer(2, "C") },
    { path: "/api/things/2", status: 200, res: view(2, "C") },
  ];

  it("confirms a write whose read-back leaves out what its answer showed, and marks those fields hidden", () => {
    const { model, coverage } = learnSpecs(specs);
    expect(coverage.writes.withheld).toEqual([]);
    expect(model.collections[0]!.hidden).toEqual(["/password", "/title/raw"]);
  });

  it("serves them: the write answers them, the read leaves them out, the next write keeps them", () => {
    const { model, seed } = learnSpecs(specs);
    const ep = createEpisode(model, seed, { episodeId: "h" });
    const made = handleRequest(model, ep, {
      method: "POST",
      path: "/api/things",
      query: [],
      headers: {},
      body: { kind: "json", value: { title: "D" } },
    });
    expect(made.body).toEqual({
      kind: "json",
      value: { id: 3, title: { raw: "D", rendered: "D" }, password: "" },
    });
    const read = handleRequest(model, ep, {
      method: "GET",
      path: "/api/things/3",
      query: [],
      headers: {},
      body: null,
    });
    expect(read.body).toEqual({ kind: "json", value: { id: 3, title: { rendered: "D" } } });
    const patched = handleRequest(model, ep, {
      method: "PATCH",
      path: "/api/things/3",
      query: [],
      headers: {},
      body: { kind: "json", value: { title: "E" } },
    });
    expect(patched.body).toEqual({
      kind: "json",
      value: { id: 3, title: { raw: "E", rendered: "E" }, password: "" },
    });
  });

  it("a field only answers show is unknown before an update of an entity nothing showed it for: kept, not refuted", () => {
    const seedAnswer = { id: 1, title: { raw: "A", rendered: "A" }, password: "" };
    const { model, coverage } = learnSpecs([
      ...specs,
      // Entity 1 was only ever read: its title.raw and password are unknown until this answer shows them.
      { method: "PATCH", path: "/api/things/1", status: 200, req: { other: 1 }, res: seedAnswer },
      { path: "/api/things/1", status: 200, res: view(1, "A") },
    ]);
    expect(coverage.writes.withheld).toEqual([]);
    const patch = model.write_rules.find((r) => r.tool_name === "patch_things_by_id")!;
    expect(patch.fields.find((f) => f.field === "password")!.rule).toEqual({ kind: "keep" });
  });

  it("hides nothing a read-back showed", () => {
    const { model } = learnSpecs([
      list([view(1, "A")]),
      { method: "POST", path: "/api/things", status: 201, req: { title: "B" }, res: answer(2, "B") },
      { path: "/api/things/2", status: 200, res: answer(2, "B") },
    ]);
    expect(model.collections[0]!.hidden).toBeUndefined();
  });
});
