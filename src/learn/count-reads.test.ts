/** Count reads: a number confirmed against the state of every recorded moment, or left replayed. */
import { describe, expect, it } from "vitest";
import { learnSpecs } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const T = [
  { id: 1, title: "Milk", done: true },
  { id: 2, title: "Bread", done: false },
  { id: 3, title: "Soap", done: false },
];
const todos = (...ids: number[]) => ({
  path: "/todos",
  status: 200,
  res: T.filter((t) => ids.includes(t.id)),
});
const count = (n: number, query = "") => ({ path: `/todos/count${query}`, status: 200, res: { count: n } });
const get = (path: string, query: [string, string][] = []) => ({
  method: "GET",
  path,
  query,
  headers: {},
  body: null,
});
const where = (json: unknown) => `?where=${encodeURIComponent(JSON.stringify(json))}`;
const filtered = (json: unknown, ...ids: number[]) => ({
  path: `/todos?filter=${encodeURIComponent(JSON.stringify(json))}`,
  status: 200,
  res: T.filter((t) => ids.includes(t.id)),
});

describe("count reads", () => {
  it("counts a collection when every recorded number is its size at that moment, and serves it from state", () => {
    const { model, seed } = learnSpecs([
      todos(1, 2),
      count(2),
      filtered({ where: { done: false } }, 2),
      todos(1, 2, 3),
      count(3),
      count(2, where({ done: false })),
    ]);
    const c = model.collections[0]!;
    expect(c.counts).toEqual([
      expect.objectContaining({ tool_name: "get_todos_count", key: "count", query_prefix: ["filter"] }),
    ]);
    expect(model.endpoints.find((e) => e.tool_name === "get_todos_count")).toMatchObject({
      collection: "todos",
      serving: "state",
    });
    expect(model.replays.filter((r) => r.tool_name === "get_todos_count")).toEqual([]);
    const ep = createEpisode(model, seed, { episodeId: "c" });
    expect(handleRequest(model, ep, get("/todos/count")).body).toEqual({ kind: "json", value: { count: 3 } });
    const open = handleRequest(model, ep, get("/todos/count", [["where", JSON.stringify({ done: true })]]));
    expect(open.body).toEqual({ kind: "json", value: { count: 1 } });
    // A query the collection's language cannot read is explained, never answered with the whole count.
    const odd = handleRequest(model, ep, get("/todos/count", [["colour", "red"]]));
    expect([odd.status, odd.served_by]).toEqual([501, "miss"]);
  });

  it("is not learned from one number (it fits too much by chance): the read stays replayed", () => {
    const { model } = learnSpecs([todos(1, 2), count(2), count(2)]);
    expect(model.collections[0]!.counts).toBeUndefined();
    expect(model.replays.map((r) => r.path_and_query)).toContain("/todos/count");
  });

  it("is rejected when one recorded number is not the size of the state at its moment", () => {
    const { model } = learnSpecs([todos(1, 2), count(2), todos(1, 2, 3), count(7)]);
    expect(model.collections[0]!.counts).toBeUndefined();
  });
});
