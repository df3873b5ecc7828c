/** Item-read parameters asserting a field of the entity: kept only where every recorded read fits the hypothesis. */
import { describe, expect, it } from "vitest";
import { learnSpecs } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const doc = (id: string, kind: string, body: string) => ({ id, title: `Doc ${id}`, kind, body });
const DOCS = [doc("alpha", "file", "one"), doc("beta", "folder", "two"), doc("gamma", "file", "three")];
const base = [
  { path: "/api/docs", status: 200, res: DOCS },
  ...DOCS.map((d) => ({ path: `/api/docs/${d.id}`, status: 200, res: d })),
];
const read = (path: string, query: [string, string][]) => ({
  method: "GET",
  path,
  query,
  headers: {},
  body: null,
});
const answer = (specs: Parameters<typeof learnSpecs>[0], path: string, query: [string, string][]) => {
  const { model, seed } = learnSpecs(specs);
  const a = handleRequest(model, createEpisode(model, seed, { episodeId: "a" }), read(path, query));
  return { status: a.status, served_by: a.served_by, value: a.body?.kind === "json" ? a.body.value : null };
};
const refusal = { message: "alpha is not a folder", reason: "bad kind" };
const asserted = [
  ...base,
  { path: "/api/docs/alpha?kind=file", status: 200, res: DOCS[0] },
  { path: "/api/docs/beta?kind=folder", status: 200, res: DOCS[1] },
  { path: "/api/docs/alpha?kind=folder", status: 400, res: refusal },
];

describe("item-read assertions by hypothesis", () => {
  it("learns a parameter asserting a field, with the refusal recorded where it differed", () => {
    const { model } = learnSpecs(asserted);
    const a = model.collections[0]!.item_assertions;
    expect(a?.map((x) => [x.param, x.fields, x.values, x.refusals.map((r) => [r.value, r.status])])).toEqual([
      ["kind", ["kind"], ["file", "folder"], [["folder", 400]]],
    ]);
  });

  it("serves a match as the item read, from the state, for an entity no recorded read asserted", () => {
    expect(answer(asserted, "/api/docs/gamma", [["kind", "file"]])).toEqual({
      status: 200,
      served_by: "state",
      value: DOCS[2],
    });
  });

  it("serves a mismatch as the recorded refusal, spelling the entity's id where the recorded one spelled its own", () => {
    expect(answer(asserted, "/api/docs/gamma", [["kind", "folder"]])).toEqual({
      status: 400,
      served_by: "validation",
      value: { message: "gamma is not a folder", reason: "bad kind" },
    });
  });

  it("explains a mismatch with a value no refusal was recorded for: what the app answers then is unknown", () => {
    const got = answer(asserted, "/api/docs/beta", [["kind", "file"]]);
    expect([got.status, (got.value as { error: string }).error]).toEqual([501, "unlearned_query"]);
    expect(JSON.stringify(got.value)).toContain("never showed what the app answers");
  });

  it("explains a request for an entity whose field the state holds no value of", () => {
    const specs = [
      ...asserted,
      { path: "/api/docs/delta", status: 200, res: { ...doc("delta", "", "four"), kind: null } },
    ];
    const got = answer(specs, "/api/docs/delta", [["kind", "file"]]);
    expect([got.status, JSON.stringify(got.value)]).toEqual([501, expect.stringContaining("holds no value")]);
  });

  it("applies the other parameters' learned projection beside the assertion", () => {
    const specs = [
      ...asserted,
      { path: "/api/docs/alpha?body=0", status: 200, res: { ...DOCS[0], body: null } },
    ];
    expect(
      answer(specs, "/api/docs/gamma", [
        ["body", "0"],
        ["kind", "file"],
      ]),
    ).toEqual({
      status: 200,
      served_by: "state",
      value: { ...DOCS[2], body: null },
    });
  });

  it("with no refusal recorded, learns the assertion and explains every mismatch (no effect fits as well)", () => {
    const specs = [...base, { path: "/api/docs/alpha?kind=file", status: 200, res: DOCS[0] }];
    const { model } = learnSpecs(specs);
    expect(model.collections[0]!.item_assertions?.map((x) => [x.param, x.refusals])).toEqual([["kind", []]]);
    expect(answer(specs, "/api/docs/gamma", [["kind", "file"]]).status).toBe(200);
    expect(answer(specs, "/api/docs/beta", [["kind", "file"]]).status).toBe(501);
  });

  it("explains a request on which two fields that fit every recorded read disagree", () => {
    const twin = (id: string, kind: string, group: string) => ({ id, kind, group });
    const docs = [
      twin("alpha", "file", "file"),
      twin("beta", "folder", "folder"),
      twin("gamma", "file", "folder"),
    ];
    const specs = [
      { path: "/api/docs", status: 200, res: docs },
      ...docs.map((d) => ({ path: `/api/docs/${d.id}`, status: 200, res: d })),
      { path: "/api/docs/alpha?kind=file", status: 200, res: docs[0] },
    ];
    const { model } = learnSpecs(specs);
    expect(model.collections[0]!.item_assertions?.[0]?.fields).toEqual(["group", "kind"]);
    const got = answer(specs, "/api/docs/gamma", [["kind", "file"]]);
    expect([got.status, JSON.stringify(got.value)]).toEqual([501, expect.stringContaining("disagree")]);
  });

  it("rejects it where a read whose value differs from the entity's field answered the entity anyway", () => {
    const specs = [
      ...base,
      { path: "/api/docs/alpha?kind=file", status: 200, res: DOCS[0] },
      { path: "/api/docs/alpha?kind=folder", status: 200, res: DOCS[0] },
    ];
    expect(learnSpecs(specs).model.collections[0]!.item_assertions).toBeUndefined();
    expect(answer(specs, "/api/docs/gamma", [["kind", "file"]]).status).toBe(501);
  });

  it("rejects it where the refusals of one value answered differently", () => {
    const specs = [
      ...asserted,
      { path: "/api/docs/gamma?kind=folder", status: 400, res: { message: "no", reason: "other" } },
    ];
    expect(learnSpecs(specs).model.collections[0]!.item_assertions).toBeUndefined();
  });

  it("rejects it where a refused read met an entity whose field equalled the value", () => {
    const specs = [
      ...base,
      { path: "/api/docs/alpha?kind=file", status: 200, res: DOCS[0] },
      { path: "/api/docs/gamma?kind=file", status: 400, res: { message: "gamma is locked" } },
    ];
    expect(learnSpecs(specs).model.collections[0]!.item_assertions).toBeUndefined();
  });
});

describe("item-read assertions on a credential", () => {
  it("never learns a credential-named parameter as an assertion (it replays, any other value is a miss)", () => {
    const share = (id: number, token: string) => ({ id, title: `s${id}`, token });
    const { model } = learnSpecs([
      { path: "/api/shares", status: 200, res: [share(1, "tokA1"), share(2, "tokB2")] },
      { path: "/api/shares/1", status: 200, res: share(1, "tokA1") },
      { path: "/api/shares/2", status: 200, res: share(2, "tokB2") },
      { path: "/api/shares/1?token=tokA1", status: 200, res: share(1, "tokA1") },
      { path: "/api/shares/2?token=tokB2", status: 200, res: share(2, "tokB2") },
      { path: "/api/shares/2?token=tokA1", status: 400, res: { error: "token invalid" } },
    ]);
    expect(model.collections[0]!.item_assertions ?? []).toEqual([]);
  });
});
