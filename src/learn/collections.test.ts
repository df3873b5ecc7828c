/** Collections: their id field and unique names. */
import { describe, expect, it } from "vitest";
import { learnSpecs, list } from "../../test/support/learn-specs.js";

describe("rules learned from too little", () => {
  it("keeps collection names unique when a joined name is taken too", () => {
    const { model, seed } = learnSpecs([
      { path: "/api/a/items", status: 200, res: [{ id: 1 }] },
      { path: "/api/b/items", status: 200, res: [{ id: 2 }] },
      { path: "/api/b_items", status: 200, res: [{ id: 3 }] },
    ]);
    expect(model.collections.map((c) => [c.name, c.list_endpoint])).toEqual([
      ["b_items", "get_b_items"],
      ["b_items_2", "get_b_items_2"],
      ["items", "get_a_items"],
    ]);
    expect(seed.collections).toEqual({ b_items: [{ id: 2 }], b_items_2: [{ id: 3 }], items: [{ id: 1 }] });
  });
});

describe("id field", () => {
  it("keeps id when one entity lacks it (not a foreign key unique by coincidence), and warns", () => {
    const { model, seed, coverage } = learnSpecs([
      list([
        { id: 1, owner_id: 7, title: "A" },
        { owner_id: 8, title: "B" },
      ]),
    ]);
    expect(model.collections.map((c) => c.id_field)).toEqual(["id"]);
    expect(seed.collections["things"]).toEqual([{ id: 1, owner_id: 7, title: "A" }]);
    expect(coverage.warnings.map((w) => [w.code, w.path, w.message])).toEqual([
      [
        "missing_id",
        "records[0].response.body[1]",
        'an entity of things has no id field "id"; the twin leaves it out of the seed state',
      ],
    ]);
  });

  it("prefers <singular>_id over another unique *_id", () => {
    const { model } = learnSpecs([
      list([
        { owner_id: 1, thing_id: 5, t: "a" },
        { owner_id: 2, thing_id: 6, t: "b" },
      ]),
    ]);
    expect(model.collections.map((c) => c.id_field)).toEqual(["thing_id"]);
  });

  it("requires the id to be unique in every list read, not only the first ones", () => {
    const specs = Array.from({ length: 200 }, () =>
      list([
        { id: 1, code: 10 },
        { id: 2, code: 20 },
      ]),
    );
    specs.push(
      list([
        { id: 1, code: 10 },
        { id: 1, code: 30 },
      ]),
    );
    expect(learnSpecs(specs).model.collections.map((c) => c.id_field)).toEqual([]);
  });
});

describe("collections at different paths and ids by role", () => {
  const P = [
    { id: 1, identifier: "website", name: "Website" },
    { id: 2, identifier: "mobile-app", name: "Mobile App" },
  ];
  const envelope = (projects: unknown[]) => ({
    projects,
    total_count: projects.length,
    offset: 0,
    limit: 25,
  });

  it("links a list and an item at sibling paths (`/projects.json`, `/projects/{id}.json`) by ids that coincide, with the item under any one key", () => {
    const { model } = learnSpecs([
      { path: "/projects.json", status: 200, res: envelope(P) },
      { path: "/projects/1.json", status: 200, res: { project: { ...P[0], homepage: "" } } },
      { path: "/projects/mobile-app.json", status: 200, res: { project: { ...P[1], homepage: "" } } },
      { path: "/projects.json", status: 200, res: envelope(P) },
    ]);
    const [c] = model.collections;
    expect(c).toMatchObject({
      name: "projects",
      id_field: "id",
      alt_id_fields: ["identifier"],
      list_endpoint: "get_projects_json",
      item_endpoint: "get_projects_by_id",
      item_envelope: { kind: "object", item_key: "project" },
      list_view: { omit: ["homepage"], nulls: [], defaults: { homepage: "" } },
    });
  });

  it("echoes a query parameter in the envelope (`limit`), with its default when the request leaves it out", () => {
    const three = [...P, { id: 3, identifier: "docs", name: "Docs" }];
    const { model } = learnSpecs([
      { path: "/projects.json", status: 200, res: envelope(three) },
      {
        path: "/projects.json?limit=1",
        status: 200,
        res: { projects: [three[0]], total_count: 3, offset: 0, limit: 1 },
      },
    ]);
    expect(model.collections[0]!.envelope).toEqual({
      kind: "object",
      items_key: "projects",
      total_key: "total_count",
      constants: { offset: 0 },
      echoes: { limit: { param: "limit", default: 25 } },
    });
  });

  it("does not link a sibling item path whose answers show no entity of the list", () => {
    const { model } = learnSpecs([
      { path: "/projects.json", status: 200, res: envelope(P) },
      {
        path: "/projects/9.json",
        status: 200,
        res: { project: { id: 9, identifier: "other", name: "Other" } },
      },
    ]);
    expect(model.collections[0]!.item_endpoint).toBeNull();
  });

  it("links a list beside its items (`/wiki/index.json`, `/wiki/{id}.json`) by ids that coincide, and not otherwise", () => {
    const pages = [
      { title: "Deployment", version: 2 },
      { title: "Glossary", version: 1 },
    ];
    const page = (title: string) => ({ wiki_page: { title, text: `h1. ${title}`, version: 1 } });
    const { model } = learnSpecs([
      { path: "/wiki/index.json", status: 200, res: { wiki_pages: pages } },
      { path: "/wiki/Deployment.json", status: 200, res: page("Deployment") },
      { path: "/wiki/Glossary.json", status: 200, res: page("Glossary") },
    ]);
    expect(model.collections[0]).toMatchObject({
      id_field: "title",
      list_endpoint: "get_wiki_index_json",
      item_endpoint: "get_wiki_by_id",
    });
    // Item reads of entities the list never showed are not its items (nor does anything confirm `title` as an id).
    const other = learnSpecs([
      { path: "/wiki/index.json", status: 200, res: { wiki_pages: pages } },
      { path: "/wiki/Roadmap.json", status: 200, res: page("Roadmap") },
      { path: "/wiki/Runbook.json", status: 200, res: page("Runbook") },
    ]);
    expect(other.model.collections).toEqual([]);
    expect(other.coverage.reads.map((r) => [r.template, r.serving])).toEqual([
      ["/wiki/{id}.json", "replay"],
      ["/wiki/index.json", "replay"],
    ]);
  });
});

describe("item reads with a query", () => {
  it("judge no shape: a projected item read without the id leaves the collection, its id and envelope standing", () => {
    const things = [
      { id: 1, title: "A", views: 3 },
      { id: 2, title: "B", views: 5 },
    ];
    const { model } = learnSpecs([
      { path: "/api/things", status: 200, res: { data: things } },
      { path: "/api/things/1", status: 200, res: { data: things[0] } },
      { path: "/api/things/2?fields=title", status: 200, res: { data: { title: "B" } } },
    ]);
    expect(model.collections.map((c) => [c.name, c.id_field, c.item_envelope])).toEqual([
      ["things", "id", { kind: "object", item_key: "data" }],
    ]);
    expect(model.replays.map((r) => r.path_and_query)).toEqual(["/api/things/2?fields=title"]);
  });
});

describe("item envelope siblings", () => {
  const things = [
    { id: 1, title: "A" },
    { id: 2, title: "B" },
  ];
  it("keeps a key beside the entity that every item answer held alike, and serves it", () => {
    const { model } = learnSpecs([
      { path: "/api/things", status: 200, res: { data: things } },
      { path: "/api/things/1", status: 200, res: { data: things[0], meta: {} } },
      { path: "/api/things/2", status: 200, res: { data: things[1], meta: {} } },
    ]);
    expect(model.collections[0]!.item_envelope).toEqual({
      kind: "object",
      item_key: "data",
      constants: { meta: {} },
    });
  });

  it("rejects one that differs between answers (a request id): left out, never answered as a constant", () => {
    const { model } = learnSpecs([
      { path: "/api/things", status: 200, res: { data: things } },
      { path: "/api/things/1", status: 200, res: { data: things[0], meta: { request: "a1" } } },
      { path: "/api/things/2", status: 200, res: { data: things[1], meta: { request: "b2" } } },
    ]);
    expect(model.collections[0]!.item_envelope).toEqual({ kind: "object", item_key: "data" });
  });
});

describe("keyed maps", () => {
  const things = [
    { id: 1, title: "A", done: false },
    { id: 2, title: "B", done: true },
    { id: 3, title: "C", done: false },
  ];
  const keyed = (rows: typeof things) => Object.fromEntries(rows.map((t) => [String(t.id), t]));

  it("reads {<id>: {...}} as the list, filters it, and answers it keyed from the state", () => {
    const specs = [
      { path: "/api/things", status: 200, res: keyed(things) },
      { path: "/api/things?done=false", status: 200, res: keyed([things[0]!, things[2]!]) },
    ];
    const { model, seed } = learnSpecs(specs);
    const c = model.collections[0]!;
    expect([c.envelope, c.id_field, c.query?.rules.map((r) => r.kind)]).toEqual([
      { kind: "keyed" },
      "id",
      ["filter"],
    ]);
    expect(seed.collections.things).toEqual(things);
    expect(model.replays).toEqual([]);
  });

  it("rejects an object of objects whose keys are no field's value (a settings document stays replayed)", () => {
    const { model } = learnSpecs([
      {
        path: "/api/settings",
        status: 200,
        res: { mail: { id: 1, on: true }, push: { id: 2, on: false } },
      },
    ]);
    expect(model.collections).toEqual([]);
    expect(model.replays.map((r) => r.path_and_query)).toEqual(["/api/settings"]);
  });
});
