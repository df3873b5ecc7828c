/**
 * A list's default order: insertion order unless a full list proves a field's order — entities with integer ids
 * listed out of ascending id order (the order an app numbering them in turn inserts them in), strictly by the field.
 */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, list } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const term = (id: number, name: string, at: string) => ({ id, name, at });
const create = (made: ReturnType<typeof term>): RecordSpec[] => [
  { method: "POST", path: "/api/things", status: 201, req: { name: made.name }, res: made },
  { path: `/api/things/${made.id}`, status: 200, res: made },
];
const orderOf = (specs: RecordSpec[]) => learnSpecs(specs).model.collections[0]!.list_order;

describe("list order", () => {
  it("sorts by a field a list proved, and serves a created entity in its place", () => {
    const seed = [
      term(2, "News", "2026-01-02T00:00:00Z"),
      term(3, "Tutorials", "2026-01-03T00:00:00Z"),
      term(1, "Uncategorized", "2026-01-01T00:00:00Z"),
    ];
    const { model, seed: state } = learnSpecs([
      list(seed),
      ...create(term(4, "Events", "2026-03-01T10:00:00Z")),
    ]);
    expect(model.collections[0]!.list_order).toEqual({ kind: "field", field: "name", direction: "asc" });
    const ep = createEpisode(model, state, { episodeId: "o" });
    handleRequest(model, ep, {
      method: "POST",
      path: "/api/things",
      query: [],
      headers: {},
      body: { kind: "json", value: { name: "Releases" } },
    });
    const listed = handleRequest(model, ep, {
      method: "GET",
      path: "/api/things",
      query: [],
      headers: {},
      body: null,
    });
    const names = (listed.body as { value: { name: string }[] }).value.map((t) => t.name);
    expect(names).toEqual(["Events", "News", "Releases", "Tutorials", "Uncategorized"]);
  });

  it("of several orders a list proved, takes a time first (newest first), the id last", () => {
    const seed = [term(2, "B", "2026-01-02T00:00:00Z"), term(1, "A", "2026-01-01T00:00:00Z")];
    expect(orderOf([list(seed)])).toEqual({
      kind: "field",
      field: "at",
      direction: "desc",
      also: ["name desc", "id desc"],
    });
  });

  it("of several orders a list proved, ranks a field two entities share last: it leaves their order open", () => {
    const day = (id: number, title: string, on: string) => ({ id, title, on });
    const seed = [day(3, "Beta", "2026-01-03"), day(2, "Gamma", "2026-01-02"), day(1, "Alpha", "2026-01-01")];
    // Created later on the same day as 3: `on` no longer orders every entity, the id still does.
    const made = day(4, "Delta", "2026-01-03");
    const specs: RecordSpec[] = [
      list(seed),
      { method: "POST", path: "/api/things", status: 201, req: { title: made.title }, res: made },
      { path: "/api/things/4", status: 200, res: made },
    ];
    expect(orderOf(specs)).toEqual({
      kind: "field",
      field: "id",
      direction: "desc",
      also: ["on desc"],
    });
  });

  it("of several orders a list proved, ranks a field a recorded update changed after a stable one (updated_on vs id)", () => {
    const issue = (id: number, subject: string, updated: string) => ({ id, subject, updated_on: updated });
    const seed = [
      issue(3, "C", "2026-01-01T10:00:09Z"),
      issue(2, "B", "2026-01-01T10:00:08Z"),
      issue(1, "A", "2026-01-01T10:00:07Z"),
    ];
    const put: RecordSpec[] = [
      list(seed),
      { path: "/api/things/1", status: 200, res: seed[2] },
      { method: "PUT", path: "/api/things/1", status: 204, req: { subject: "A2" } },
      { path: "/api/things/1", status: 200, res: issue(1, "A2", "2026-03-01T10:00:00Z") },
    ];
    // Before the update, a time leads; the update moved `updated_on`, and no list after it showed issue 1 on top.
    expect(orderOf(put.slice(0, 1))).toMatchObject({ field: "updated_on", direction: "desc" });
    expect(orderOf(put)).toEqual({
      kind: "field",
      field: "id",
      direction: "desc",
      also: ["updated_on desc", "subject desc"],
    });
    const { model, seed: state } = learnSpecs(put);
    expect(model.endpoints.find((e) => e.tool_name === "put_things_by_id")?.serving).toBe("state");
    const ep = createEpisode(model, state, { episodeId: "u" });
    const ids = () => {
      const r = handleRequest(model, ep, {
        method: "GET",
        path: "/api/things",
        query: [],
        headers: {},
        body: null,
      });
      return (r.body?.kind === "json" ? (r.body.value as { id: number }[]) : []).map((e) => e.id);
    };
    handleRequest(model, ep, {
      method: "PUT",
      path: "/api/things/2",
      query: [],
      headers: { "content-type": "application/json" },
      body: { kind: "json", value: { subject: "B2" } },
    });
    expect(ids()).toEqual([3, 2, 1]);
  });

  it("takes the field a recorded update changed when a list after the update showed the entity moved by it", () => {
    const issue = (id: number, updated: string) => ({ id, updated_on: updated });
    const seed = [
      issue(3, "2026-01-01T10:00:09Z"),
      issue(2, "2026-01-01T10:00:08Z"),
      issue(1, "2026-01-01T10:00:07Z"),
    ];
    const moved = issue(1, "2026-03-01T10:00:00Z");
    expect(
      orderOf([
        list(seed),
        { path: "/api/things/1", status: 200, res: seed[2] },
        { method: "PUT", path: "/api/things/1", status: 204, req: { updated_on: moved.updated_on } },
        { path: "/api/things/1", status: 200, res: moved },
        list([moved, seed[0], seed[1]]),
      ]),
    ).toEqual({ kind: "field", field: "updated_on", direction: "desc" });
  });

  it("keeps insertion order when the list is in ascending id order, however well a field's order also fits", () => {
    const seed = [
      term(1, "A", "2026-01-01T00:00:00Z"),
      term(2, "B", "2026-01-02T00:00:00Z"),
      term(3, "C", "2026-01-03T00:00:00Z"),
    ];
    expect(orderOf([list(seed), ...create(term(4, "D", "2026-03-01T10:00:00Z"))])).toEqual({
      kind: "insertion",
    });
  });

  it("judges insertion order by the creates made since the last list, even after an empty one", () => {
    // Created 1 then 2, listed newest first: insertion order (2 after 1) is refuted, a field order proven.
    const one = term(1, "A", "2026-03-01T10:00:00Z");
    const two = term(2, "B", "2026-03-01T11:00:00Z");
    expect(orderOf([list([]), ...create(one), ...create(two), list([two, one])])).toEqual({
      kind: "field",
      field: "at",
      direction: "desc",
      also: ["name desc", "id desc"],
    });
    // Listed oldest first, insertion order stands.
    expect(orderOf([list([]), ...create(one), ...create(two), list([one, two])])).toEqual({
      kind: "insertion",
    });
  });

  it("never proves a field whose values tie (a constant sorts every way): newest id first is all it shows", () => {
    const seed = [
      { id: 2, name: "N", kind: "x" },
      { id: 1, name: "N", kind: "x" },
    ];
    expect(orderOf([list(seed)])).toEqual({ kind: "field", field: "id", direction: "desc" });
  });
});
