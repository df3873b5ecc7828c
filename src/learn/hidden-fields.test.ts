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

describe("what only writes show, for an entity only reads showed (a seed entity)", () => {
  const seen = (id: number, t: string) => ({
    id,
    title: { rendered: t },
    _links: { self: `/api/things/${id}` },
  });
  const full = (id: number, t: string, body: string) => ({
    ...seen(id, t),
    title: { rendered: t, raw: t },
    _links: { self: `/api/things/${id}`, edit: `/api/things/${id}` },
    password: "",
    body_raw: body,
    template: "/t/%slug%",
  });
  const made = (id: number, t: string, body: string) => [
    { method: "POST", path: "/api/things", status: 201, req: { title: t, body }, res: full(id, t, body) },
    { path: `/api/things/${id}`, status: 200, res: seen(id, t) },
  ];
  const twinPatch = (specs: Parameters<typeof learnSpecs>[0]) => {
    const { model, seed } = learnSpecs(specs);
    const ep = createEpisode(model, seed, { episodeId: "s" });
    const res = handleRequest(model, ep, {
      method: "PATCH",
      path: "/api/things/1",
      query: [],
      headers: { "content-type": "application/json" },
      body: { kind: "json", value: { title: "Z" } },
    });
    return { seed, res: res.body?.kind === "json" ? (res.body.value as Record<string, unknown>) : null };
  };
  const patchSpecs = [
    { method: "PATCH", path: "/api/things/2", status: 200, req: { title: "C" }, res: full(2, "C", "x") },
    { path: "/api/things/2", status: 200, res: seen(2, "C") },
  ];

  it("fills a hidden field that copies a shown one, or is one value two entities held; a PATCH of the seed entity answers them", () => {
    const { seed, res } = twinPatch([
      list([seen(1, "A")]),
      ...made(2, "B", "x"),
      ...made(3, "D", "y"),
      ...patchSpecs,
    ]);
    expect(seed.collections.things![0]).toMatchObject({
      id: 1,
      title: { rendered: "A", raw: "A" },
      _links: { self: "/api/things/1", edit: "/api/things/1" },
      password: "",
    });
    expect(res).toMatchObject({ _links: { edit: "/api/things/1" }, password: "", title: { raw: "Z" } });
  });

  it("rightly leaves one entity's empty value unknown (it may be that entity's own, as a post's empty excerpt)", () => {
    const { seed, res } = twinPatch([list([seen(1, "A")]), ...made(2, "B", "x"), ...patchSpecs]);
    expect(seed.collections.things![0]).not.toHaveProperty("password");
    expect(res).not.toHaveProperty("password");
    expect(res).toMatchObject({ _links: { edit: "/api/things/1" }, title: { raw: "Z" } });
  });

  it("takes a non-empty value only when two entities held it; one entity's own text is rightly left unknown", () => {
    const one = twinPatch([list([seen(1, "A")]), ...made(2, "B", "x"), ...patchSpecs]).res!;
    expect(one).not.toHaveProperty("template");
    expect(one).not.toHaveProperty("body_raw");
    const two = twinPatch([list([seen(1, "A")]), ...made(2, "B", "x"), ...made(3, "D", "y"), ...patchSpecs])
      .res!;
    expect(two.template).toBe("/t/%slug%");
    // Different in each answer and a copy of nothing shown: the source no read shows stays unknown.
    expect(two).not.toHaveProperty("body_raw");
  });
});
