/** Partial updates widened to fields another write proves settable, and never beyond the evidence. */
import { describe, expect, it } from "vitest";
import { isoAt, type RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, list, twinRequest } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

describe("partial updates of fields the recording never patched", () => {
  const before = { id: 1, title: "A", done: false, at: "2026-01-01T00:00:00.000Z" };
  const created = (title: string) => ({ id: 2, title, done: false, at: isoAt(1) });
  const patched = { ...before, done: true, at: isoAt(3) };
  const specs = (patchReq: unknown, patchRes: unknown): RecordSpec[] => [
    list([before]),
    { method: "POST", path: "/api/things", status: 201, req: { title: "B" }, res: created("B") },
    list([before, created("B")]),
    { method: "PATCH", path: "/api/things/1", status: 200, req: patchReq, res: patchRes },
    { path: "/api/things/1", status: 200, res: patchRes },
  ];

  it("takes a field the create sets from the request when a patch sends it, else keeps it", () => {
    const { model } = learnSpecs(specs({ done: true }, patched));
    const patch = model.write_rules.find((r) => r.tool_name === "patch_things_by_id")!;
    expect(Object.fromEntries(patch.fields.map((f) => [f.field, f.rule]))).toEqual({
      id: { kind: "keep" },
      title: {
        kind: "from_request",
        pointer: "/title",
        otherwise: { kind: "keep" },
        settable_by: "POST /api/things",
      },
      done: { kind: "from_request", pointer: "/done", otherwise: { kind: "keep" } },
      at: { kind: "clock", format: "iso" },
    });
    expect(patch.explain).toBe(
      "PATCH /api/things/{id} updates one thing and answers 200 with the entity (id: kept as it was; title: from the request when sent (settable: POST /api/things sets it), else kept; done: taken from the request body at /done, or kept as it was when the request has none; at: the episode clock, as an ISO 8601 time).",
    );
  });

  it("never widens an action (POST /things/{id}/archive), the id, or a field the app assigns", () => {
    const archived = { ...before, done: true, at: isoAt(3) };
    const { model } = learnSpecs([
      ...specs({ done: true }, patched).slice(0, 3),
      { method: "POST", path: "/api/things/1/archive", status: 200, res: archived },
      { path: "/api/things/1", status: 200, res: archived },
    ]);
    const action = model.write_rules.find((r) => r.tool_name === "post_things_archive_by_thing_id")!;
    expect(action.fields.map((f) => [f.field, f.rule.kind])).toEqual([
      ["id", "keep"],
      ["title", "keep"],
      ["done", "constant"],
      ["at", "clock"],
    ]);
  });
});

describe("fields an update's entities never held", () => {
  // Thing 1 has a `tag`, thing 2 none; the recorded patch wrote only thing 2, so its rule knows no `tag`.
  const one = { id: 1, title: "A", tag: "home" };
  const two = { id: 2, title: "B" };
  const specs = (postReq: unknown, postRes: unknown): RecordSpec[] => [
    list([one, two]),
    {
      method: "PATCH",
      path: "/api/things/2",
      status: 200,
      req: { title: "B2" },
      res: { ...two, title: "B2" },
    },
    { path: "/api/things/2", status: 200, res: { ...two, title: "B2" } },
    { method: "POST", path: "/api/things", status: 201, req: postReq, res: postRes },
    list([one, { ...two, title: "B2" }, postRes]),
  ];

  it("sets such a field from the request where another write takes it from there, else keeps it", () => {
    const { model, seed } = learnSpecs(
      specs({ title: "C", tag: "work" }, { id: 3, title: "C", tag: "work" }),
    );
    const patch = model.write_rules.find((r) => r.tool_name === "patch_things_by_id")!;
    expect(patch.fields.find((f) => f.field === "tag")?.rule).toEqual({
      kind: "from_request",
      pointer: "/tag",
      otherwise: { kind: "keep" },
      settable_by: "POST /api/things",
    });
    const ep = createEpisode(model, seed, { episodeId: "tag" });
    const res = handleRequest(model, ep, twinRequest("PATCH", "/api/things/2", { tag: "garden" }));
    expect([res.status, res.body]).toEqual([
      200,
      { kind: "json", value: { id: 2, title: "B2", tag: "garden" } },
    ]);
  });

  it("adds none where the other write was seen to ignore it (its answer shows another value)", () => {
    const { model } = learnSpecs(specs({ title: "C", tag: "work" }, { id: 3, title: "C", tag: "inbox" }));
    const patch = model.write_rules.find((r) => r.tool_name === "patch_things_by_id")!;
    expect(patch.fields.map((f) => f.field)).not.toContain("tag");
  });
});

describe("generalisations that must not outrun the evidence", () => {
  it("does not widen a field another update of the collection was seen to ignore", () => {
    const item = (title: string, sku: string, done = false) => ({ id: 1, title, sku, done });
    const { model } = learnSpecs([
      list([item("A", "S1")]),
      {
        method: "POST",
        path: "/api/things",
        status: 201,
        req: { title: "B", sku: "S2" },
        res: { id: 2, title: "B", sku: "S2", done: false },
      },
      list([item("A", "S1"), { id: 2, title: "B", sku: "S2", done: false }]),
      // The PUT sends a new sku and the app keeps the old one: sku is fixed once created.
      {
        method: "PUT",
        path: "/api/things/1",
        status: 200,
        req: { title: "C", sku: "S9", done: false },
        res: item("C", "S1"),
      },
      { path: "/api/things/1", status: 200, res: item("C", "S1") },
      {
        method: "PATCH",
        path: "/api/things/1",
        status: 200,
        req: { done: true },
        res: item("C", "S1", true),
      },
      { path: "/api/things/1", status: 200, res: item("C", "S1", true) },
    ]);
    const patch = model.write_rules.find((r) => r.tool_name === "patch_things_by_id")!;
    expect(Object.fromEntries(patch.fields.map((f) => [f.field, f.rule]))).toMatchObject({
      title: { kind: "from_request", settable_by: "POST /api/things" },
      sku: { kind: "keep" },
    });
  });
});

describe("creates take the fields an update proves settable", () => {
  const seed = { id: 1, title: "A" };
  const updatedSpecs = (
    createReq: Record<string, unknown>,
    createRes: Record<string, unknown>,
  ): RecordSpec[] => [
    list([seed]),
    { method: "POST", path: "/api/things", status: 201, req: createReq, res: createRes },
    { path: "/api/things/2", status: 200, res: createRes },
    { method: "PATCH", path: "/api/things/2", status: 204, req: { done: true } },
    { path: "/api/things/2", status: 200, res: { ...createRes, done: true } },
  ];

  it("takes a field only a PATCH was seen to set from the request when a create sends it, else leaves it out", () => {
    const { model } = learnSpecs(updatedSpecs({ title: "B" }, { id: 2, title: "B" }));
    const create = model.write_rules.find((r) => r.tool_name === "post_things")!;
    expect(create.fields.find((f) => f.field === "done")).toEqual({
      field: "done",
      rule: {
        kind: "from_request",
        pointer: "/done",
        otherwise: { kind: "omit" },
        settable_by: "PATCH /api/things/{id}",
      },
    });
    expect(create.explain).toContain(
      "done: from the request when sent (settable: PATCH /api/things/{id} sets it), else left out",
    );
    const endpoint = model.endpoints.find((e) => e.tool_name === "post_things")!;
    expect(endpoint.request_schema).toMatchObject({ properties: { done: { type: "boolean" } } });
  });

  it("never widens a create that was seen to receive the field and not take it", () => {
    const { model } = learnSpecs(
      updatedSpecs({ title: "B", done: true }, { id: 2, title: "B", done: false }),
    );
    const create = model.write_rules.find((r) => r.tool_name === "post_things")!;
    expect(create.fields.find((f) => f.field === "done")).toEqual({
      field: "done",
      rule: { kind: "constant", value: false },
    });
  });
});

describe("a replace (a PUT building the whole entity) recorded with fewer fields than the create sets", () => {
  const seeded = { id: 1, title: "A" };
  const created = { id: 2, title: "B", tag: "home" };
  const specs = (putReq: unknown, readBack: unknown): RecordSpec[] => [
    list([seeded]),
    { method: "POST", path: "/api/things", status: 200, req: { title: "B", tag: "home" }, res: created },
    list([seeded, created]),
    { method: "PUT", path: "/api/things/2", status: 204, req: putReq },
    { path: "/api/things/2", status: 200, res: readBack },
  ];

  it("takes a field the create sets from the request when a PUT sends it, else leaves it out (the replace drops it)", () => {
    const recording = specs({ title: "C" }, { id: 2, title: "C" });
    const { model, seed } = learnSpecs(recording);
    const put = model.write_rules.find((r) => r.tool_name === "put_things_by_id")!;
    expect([put.kind, put.fields.find((f) => f.field === "tag")]).toEqual([
      "replace",
      {
        field: "tag",
        rule: {
          kind: "from_request",
          pointer: "/tag",
          otherwise: { kind: "omit" },
          settable_by: "POST /api/things",
        },
      },
    ]);
    const ep = createEpisode(model, seed, { episodeId: "r" });
    expect(
      handleRequest(model, ep, twinRequest("PUT", "/api/things/1", { title: "D", tag: "work" })).status,
    ).toBe(204);
    expect(handleRequest(model, ep, twinRequest("GET", "/api/things/1")).body).toEqual({
      kind: "json",
      value: { id: 1, title: "D", tag: "work" },
    });
  });

  it("never widens it to a field the PUT was seen to receive and not take", () => {
    const { model } = learnSpecs(specs({ title: "C", tag: "work" }, { id: 2, title: "C" }));
    const put = model.write_rules.find((r) => r.tool_name === "put_things_by_id")!;
    expect(put.fields.find((f) => f.field === "tag")?.rule.kind).not.toBe("from_request");
  });
});
