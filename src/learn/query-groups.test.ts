/**
 * `or`/`and` groups of filter conditions (src/model/filter-groups.ts) on small hand-made recordings: a group's
 * spelling is a hypothesis, confirmed only when every recorded read holding it answered exactly the union (the
 * intersection) of its branches against the state of that moment, and refused when one answered otherwise.
 */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, list, twinRequest } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const THINGS = [
  { id: 1, title: "Milk", status: "open", price: 3 },
  { id: 2, title: "Bread", status: "done", price: 5 },
  { id: 3, title: "Soap", status: "open", price: 2 },
  { id: 4, title: "Apples", status: "done", price: 4 },
];
const pick = (...ids: number[]) => ids.map((id) => THINGS.find((t) => t.id === id)!);
const json = (param: string, value: unknown) => `${param}=${encodeURIComponent(JSON.stringify(value))}`;
const read = (query: string, ...ids: number[]): RecordSpec => ({
  path: `/api/things?${query}`,
  status: 200,
  res: pick(...ids),
});

/** Learns from a plain list and the reads, then answers one request on a fresh twin: its status and body. */
function serve(specs: RecordSpec[], query: [string, string][]) {
  const { model, seed } = learnSpecs([list(THINGS), ...specs]);
  const ep = createEpisode(model, seed, { episodeId: "groups" });
  const got = handleRequest(model, ep, twinRequest("GET", "/api/things", null, query));
  return { status: got.status, body: (got.body as { value: unknown }).value, model };
}
const ids = (body: unknown) => (body as { id: number }[]).map((e) => e.id);

describe("or groups", () => {
  const orRead = read(json("filter", { where: { or: [{ id: 1 }, { id: 3 }] } }), 1, 3);

  it("confirms an or of branches from a read answering their union, and serves any or of the syntax", () => {
    const { status, body, model } = serve(
      [orRead],
      [["filter", JSON.stringify({ where: { or: [{ id: 2 }, { id: 4 }] } })]],
    );
    expect(model.collections[0]!.query!.rules.find((r) => r.kind === "filter")).toMatchObject({
      path: [
        { literal: "filter" },
        { literal: "where" },
        { literal: "or" },
        { branch: "any" },
        { field: true },
      ],
      fields: { id: "id" },
    });
    expect(model.replays.map((r) => r.path_and_query)).toEqual([]);
    expect(status).toBe(200);
    expect(ids(body)).toEqual([2, 4]);
    // The bracket spelling of a group is the same path; a branch is all of its conditions, in list order.
    const brackets = serve(
      [orRead],
      [
        ["filter[where][or][0][id]", "4"],
        ["filter[where][or][1][id]", "1"],
        ["filter[where][or][1][title]", "Milk"],
        ["filter[where][or][2][title]", "Soap"],
      ],
    );
    expect(ids(brackets.body)).toEqual([1, 3, 4]);
  });

  it("refuses an or a read answered otherwise than the union (the app ignored it): another or is unlearned", () => {
    const ignored = read(json("filter", { where: { or: [{ id: 1 }, { id: 3 }] } }), 1, 2, 3, 4);
    const { status, body, model } = serve(
      [ignored],
      [["filter", JSON.stringify({ where: { or: [{ id: 2 }, { id: 4 }] } })]],
    );
    expect(model.collections[0]!.query!.rules.some((r) => r.kind === "filter")).toBe(false);
    expect(status).toBe(501);
    expect(body).toMatchObject({ error: "unlearned_query" });
  });

  it("refuses an or that one read bears out and another contradicts: both reads replay", () => {
    const other = read(json("filter", { where: { or: [{ id: 2 }, { id: 4 }] } }), 2);
    const { status, model } = serve(
      [orRead, other],
      [["filter", JSON.stringify({ where: { or: [{ id: 1 }, { id: 2 }] } })]],
    );
    expect(model.collections[0]!.query!.rules.some((r) => r.kind === "filter")).toBe(false);
    expect(model.replays.map((r) => decodeURIComponent(r.path_and_query)).sort()).toEqual([
      '/api/things?filter={"where":{"or":[{"id":1},{"id":3}]}}',
      '/api/things?filter={"where":{"or":[{"id":2},{"id":4}]}}',
    ]);
    expect(status).toBe(501);
  });

  it("takes a read too large to try (5 branches) for no evidence against the or another read bore out", () => {
    const many = { where: { or: [1, 2, 3, 4, 3].map((id) => ({ id })) } };
    const { status, body, model } = serve(
      [orRead, read(json("filter", many), 1, 2, 3, 4)],
      [["filter", JSON.stringify({ where: { or: [{ id: 2 }, { id: 3 }] } })]],
    );
    expect(model.replays.map((r) => decodeURIComponent(r.path_and_query))).toEqual([
      `/api/things?filter=${JSON.stringify(many)}`,
    ]);
    expect(status).toBe(200);
    expect(ids(body)).toEqual([2, 3]);
  });
});

describe("and groups", () => {
  it("confirms a $and holding an $or when recorded: the intersection of its branches", () => {
    const where = { $and: [{ $or: [{ id: 1 }, { id: 2 }] }, { status: "open" }] };
    const { status, body, model } = serve(
      [read(json("where", where), 1)],
      [["where", JSON.stringify({ $and: [{ $or: [{ id: 3 }, { id: 4 }] }, { status: "done" }] })]],
    );
    const paths = model.collections[0]!.query!.rules.flatMap((r) => (r.kind === "filter" ? [r.path] : []));
    expect(paths).toContainEqual([
      { literal: "where" },
      { literal: "$and" },
      { branch: "all" },
      { literal: "$or" },
      { branch: "any" },
      { field: true },
    ]);
    expect(paths).toContainEqual([
      { literal: "where" },
      { literal: "$and" },
      { branch: "all" },
      { field: true },
    ]);
    expect(status).toBe(200);
    expect(ids(body)).toEqual([4]);
  });

  it("refuses an and a read answered as the union of its branches", () => {
    const where = { and: [{ status: "open" }, { price: 5 }] };
    const { model } = serve([read(json("where", where), 1, 2, 3)], []);
    expect(model.collections[0]!.query!.rules.some((r) => r.kind === "filter")).toBe(false);
    expect(model.replays.map((r) => r.path_and_query)).toHaveLength(1);
  });
});
