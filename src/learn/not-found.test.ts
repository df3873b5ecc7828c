/** Not-found answers per route template: the misses that teach them, and an answer that names its id. */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
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

  describe("an id the app held and deleted", () => {
    const forbidden = { errors: [{ message: "You don't have permission to access this." }] };
    const gone = { errors: [{ message: "Item 2 was deleted" }] };
    const recording = [
      { path: "/todos", status: 200, res: TODOS },
      { path: "/todos/1", status: 200, res: TODOS[0] },
      { path: "/todos/50", status: 403, res: forbidden },
      { path: "/todos/60", status: 403, res: forbidden },
      { method: "DELETE", path: "/todos/2", status: 204 },
      { path: "/todos/2", status: 404, res: gone },
    ];

    it("answers as the app did where its deleted ids differ from those it never held (404 beside a 403)", () => {
      const { model, seed } = learnSpecs(recording);
      const c = model.collections[0]!;
      expect(c.not_found).toMatchObject({ status: 403, body: forbidden });
      expect(c.gone).toMatchObject({ status: 404, body: gone });
      expect(c.gone_id).toBe("2");
      const ep = createEpisode(model, seed, { episodeId: "gone" });
      const del = (path: string) => ({ ...get(path), method: "DELETE" });
      // An id never held: the app's refusal; the seed's 1, deleted in this episode: the app's answer to a deleted id.
      expect(handleRequest(model, ep, get("/todos/77")).status).toBe(403);
      expect(handleRequest(model, ep, del("/todos/1")).status).toBe(204);
      const after = handleRequest(model, ep, get("/todos/1"));
      expect([after.status, after.body]).toEqual([
        404,
        { kind: "json", value: { errors: [{ message: "Item 1 was deleted" }] } },
      ]);
      // A write to it answers the same (failed before: a second DELETE, or a PATCH, got the 403 of an unknown id).
      const again = handleRequest(model, ep, del("/todos/1"));
      expect([again.status, again.body]).toEqual([
        404,
        { kind: "json", value: { errors: [{ message: "Item 1 was deleted" }] } },
      ]);
      // Another episode never deleted it.
      const fresh = createEpisode(model, seed, { episodeId: "fresh" });
      expect(handleRequest(model, fresh, get("/todos/1")).status).toBe(200);
      // The recording deleted 2: the seed does not hold it, and it is gone, not unknown.
      expect(c.gone_ids).toEqual(["2"]);
      const two = handleRequest(model, fresh, get("/todos/2"));
      expect([two.status, two.body]).toEqual([404, { kind: "json", value: gone }]);
      expect(handleRequest(model, fresh, del("/todos/2")).body).toEqual({ kind: "json", value: gone });
    });

    it("is the one not-found answer where both kinds of miss answer alike (rightly no `gone`)", () => {
      const { model } = learnSpecs([
        { path: "/todos", status: 200, res: TODOS },
        { path: "/todos/1", status: 200, res: TODOS[0] },
        miss(99, "Entity not found: Todo with id 99"),
        { method: "DELETE", path: "/todos/2", status: 204 },
        miss(2, "Entity not found: Todo with id 2"),
      ]);
      const c = model.collections[0]!;
      expect(c.gone).toBeUndefined();
      expect(c.not_found_id).toBe("99");
    });

    it("is not told apart when the recording shows misses of deleted ids only", () => {
      const { model } = learnSpecs([
        { path: "/todos", status: 200, res: TODOS },
        { path: "/todos/1", status: 200, res: TODOS[0] },
        { method: "DELETE", path: "/todos/2", status: 204 },
        { path: "/todos/2", status: 410, res: gone },
      ]);
      const c = model.collections[0]!;
      expect(c.gone).toBeUndefined();
      expect(c.not_found).toMatchObject({ status: 410 });
    });
  });

  describe("an id that cannot be one of the collection's", () => {
    const invalid = (value: string) => ({
      error: {
        statusCode: 400,
        name: "BadRequestError",
        code: "INVALID_PARAMETER_VALUE",
        message: `Invalid data "${value}" for parameter "id".`,
      },
    });
    const recording = [
      { path: "/todos", status: 200, res: TODOS },
      { path: "/todos/1", status: 200, res: TODOS[0] },
      miss(99, "Entity not found: Todo with id 99"),
      { path: "/todos/abc", status: 400, res: invalid("abc") },
      { path: "/todos/x-y", status: 400, res: invalid("x-y") },
    ];

    it("is an id of the route (no literal route of its own) answered with the app's own refusal, naming the id", () => {
      const { model, seed } = learnSpecs(recording);
      expect(model.endpoints.map((e) => e.template)).toEqual(["/todos", "/todos/{id}"]);
      const c = model.collections[0]!;
      expect(c.malformed_id).toMatchObject({ status: 400, body: invalid("abc") });
      expect(c.malformed_id_id).toBe("abc");
      const ep = createEpisode(model, seed, { episodeId: "malformed" });
      const xyz = handleRequest(model, ep, get("/todos/xyz"));
      expect([xyz.status, xyz.body]).toEqual([400, { kind: "json", value: invalid("xyz") }]);
      // An integer id the app does not hold is still its not-found.
      expect(handleRequest(model, ep, get("/todos/42")).status).toBe(404);
    });

    it("answers a write to such an id with the same refusal (failed before: the not-found of an unknown id)", () => {
      const { model, seed } = learnSpecs([
        ...recording,
        { method: "DELETE", path: "/todos/2", status: 204 },
        miss(2, "Entity not found: Todo with id 2"),
      ]);
      expect(model.write_rules.map((r) => r.tool_name)).toEqual(["delete_todos_by_id"]);
      const ep = createEpisode(model, seed, { episodeId: "malformed-write" });
      const del = handleRequest(model, ep, { ...get("/todos/xyz"), method: "DELETE" });
      expect([del.status, del.body]).toEqual([400, { kind: "json", value: invalid("xyz") }]);
      expect(handleRequest(model, ep, { ...get("/todos/42"), method: "DELETE" }).status).toBe(404);
    });

    it("names the requested id from one such read when its answer quotes it (an echoed input)", () => {
      const { model, seed } = learnSpecs([
        { path: "/todos", status: 200, res: TODOS },
        { path: "/todos/1", status: 200, res: TODOS[0] },
        { path: "/todos/abc", status: 400, res: invalid("abc") },
      ]);
      expect(model.collections[0]!.malformed_id_id).toBe("abc");
      const ep = createEpisode(model, seed, { episodeId: "one-quoted" });
      expect(handleRequest(model, ep, get("/todos/xyz")).body).toEqual({
        kind: "json",
        value: invalid("xyz"),
      });
    });

    it("names the requested id only where two such reads agree on where it stands, or one quotes it (a bare word may name it by chance)", () => {
      const { model, seed } = learnSpecs([
        { path: "/todos", status: 200, res: TODOS },
        { path: "/todos/1", status: 200, res: TODOS[0] },
        { path: "/todos/bad", status: 400, res: { error: "bad id" } },
      ]);
      const c = model.collections[0]!;
      expect([c.malformed_id?.status, c.malformed_id_id]).toEqual([400, undefined]);
      const ep = createEpisode(model, seed, { episodeId: "one-odd" });
      expect(handleRequest(model, ep, get("/todos/zz")).body).toEqual({
        kind: "json",
        value: { error: "bad id" },
      });
    });

    it("is rightly not learned where the ids are any text, or the odd id was answered as a miss", () => {
      const files = [
        { id: "a1", title: "x" },
        { id: "b2", title: "y" },
      ];
      const text = learnSpecs([
        { path: "/notes", status: 200, res: files },
        { path: "/notes/a1", status: 200, res: files[0] },
        { path: "/notes/zz", status: 400, res: { error: "bad" } },
      ]).model.collections[0]!;
      expect(text.malformed_id).toBeUndefined();
      const missed = learnSpecs([
        { path: "/todos", status: 200, res: TODOS },
        { path: "/todos/1", status: 200, res: TODOS[0] },
        miss("abc", "Entity not found: Todo with id abc"),
      ]).model.collections[0]!;
      expect(missed.malformed_id).toBeUndefined();
    });

    /** Todos with a delete and a miss of an unknown integer id; `extra` reads after them. */
    const unanswered = (...extra: RecordSpec[]) =>
      learnSpecs([
        { path: "/todos", status: 200, res: TODOS },
        { path: "/todos/1", status: 200, res: TODOS[0] },
        miss(99, "Entity not found: Todo with id 99"),
        { method: "DELETE", path: "/todos/2", status: 204 },
        miss(2, "Entity not found: Todo with id 2"),
        ...extra,
      ]);

    it("is an explained 501 to a read or a write where the recording never showed the answer to one", () => {
      const { model, seed } = unanswered();
      const c = model.collections[0]!;
      expect([c.malformed_id, c.malformed_id_not_found]).toEqual([undefined, undefined]);
      const ep = createEpisode(model, seed, { episodeId: "unanswered" });
      for (const method of ["GET", "DELETE"]) {
        const res = handleRequest(model, ep, { ...get("/todos/abc"), method });
        expect(res.status).toBe(501);
        const body = (res.body as { kind: "json"; value: { error: string; message: string } }).value;
        expect(body.error).toBe("unlearned_id_kind");
        expect(body.message).toBe(
          `${method.toLowerCase()}_todos_by_id: "abc" is not an integer, the kind every recorded id of todos has, and the recording never showed what the app answers to such an id (a refusal such as 400, or its not-found); apptwin does not guess it`,
        );
      }
      // An integer id the app does not hold is the recorded not-found, for a read and a write alike.
      expect(handleRequest(model, ep, get("/todos/42")).status).toBe(404);
      expect(handleRequest(model, ep, { ...get("/todos/42"), method: "DELETE" }).status).toBe(404);
    });

    it("is rightly the not-found where the recording showed the app answering one so, or the ids are any text", () => {
      const shown = unanswered(miss("abc", "Entity not found: Todo with id abc"));
      expect(shown.model.collections[0]!.malformed_id_not_found).toBe(true);
      const ep = createEpisode(shown.model, shown.seed, { episodeId: "shown" });
      const res = handleRequest(shown.model, ep, get("/todos/xyz"));
      expect([res.status, res.body]).toEqual([
        404,
        {
          kind: "json",
          value: { error: { statusCode: 404, message: "Entity not found: Todo with id xyz" } },
        },
      ]);
      const notes = [{ id: "a1", title: "x" }];
      const text = learnSpecs([
        { path: "/notes", status: 200, res: notes },
        { path: "/notes/a1", status: 200, res: notes[0] },
        { path: "/notes/zz", status: 404, res: { error: "none" } },
      ]);
      const tep = createEpisode(text.model, text.seed, { episodeId: "text" });
      expect(handleRequest(text.model, tep, get("/notes/42")).status).toBe(404);
    });
  });
});
