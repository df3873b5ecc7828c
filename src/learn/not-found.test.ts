/** Not-found answers per route template: the misses that teach them, and an answer that names its id. */
import { describe, expect, it } from "vitest";
import { learnSpecs } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const TODOS = [
  { id: 1, title: "Milk" },
  { id: 2, title: "Bread" },
];
const miss = (id: string | number, message: string) => ({
  path: `/todos/${id}`,
  status: 404,
  res: { error: { statusCode: 404, message } },
});
const get = (path: string) => ({ method: "GET", path, query: [], headers: {}, body: null });

describe("not-found answers per route", () => {
  it("names the requested id where every recorded miss named its own", () => {
    const { model, seed } = learnSpecs([
      { path: "/todos", status: 200, res: TODOS },
      { path: "/todos/1", status: 200, res: TODOS[0] },
      miss(99, "Entity not found: Todo with id 99"),
      miss(7, "Entity not found: Todo with id 7"),
    ]);
    const c = model.collections[0]!;
    expect(c.not_found_id).toBe("99");
    const ep = createEpisode(model, seed, { episodeId: "nf" });
    const answer = handleRequest(model, ep, get("/todos/42"));
    expect([answer.status, answer.body]).toEqual([
      404,
      { kind: "json", value: { error: { statusCode: 404, message: "Entity not found: Todo with id 42" } } },
    ]);
  });

  it("keeps the recorded answer when the misses do not name their ids the same way", () => {
    const { model } = learnSpecs([
      { path: "/todos", status: 200, res: TODOS },
      { path: "/todos/1", status: 200, res: TODOS[0] },
      miss(99, "Entity not found: Todo with id 99"),
      miss(7, "No such thing"),
    ]);
    expect(model.collections[0]!.not_found_id).toBeUndefined();
  });

  it("does not read an id inside a longer token as the id (`99` in `199`)", () => {
    const { model } = learnSpecs([
      { path: "/todos", status: 200, res: TODOS },
      { path: "/todos/1", status: 200, res: TODOS[0] },
      miss(99, "Error 199: not found"),
    ]);
    expect(model.collections[0]!.not_found_id).toBeUndefined();
  });

  it("takes a path only ever answered not-found beside ids for an unknown id of the route, not a route of its own", () => {
    const files = [
      { path: "notes.md", name: "notes.md" },
      { path: "data.csv", name: "data.csv" },
    ];
    const { model } = learnSpecs([
      { path: "/api/contents", status: 200, res: { content: files } },
      { path: "/api/contents/notes.md", status: 200, res: files[0] },
      {
        path: "/api/contents/nope.md",
        status: 404,
        res: { message: "file or directory does not exist: 'nope.md'" },
      },
    ]);
    expect(model.endpoints.map((e) => e.template)).toEqual(["/api/contents", "/api/contents/{id}"]);
    expect(model.collections[0]).toMatchObject({ id_field: "path", not_found_id: "nope.md" });
  });
});
