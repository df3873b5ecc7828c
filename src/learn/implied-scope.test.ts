/**
 * Nested collections whose entities name no parent (`/api/projects/{project_id}/things` answering `[{id, title}]`):
 * scoped by the list route's path parameter, a create under a scope confirmed by that scope's later list, a scope
 * the recording never listed answered with an explained miss; and the cases rightly refused (a read-back that
 * disagrees, an id one value in every create under one parent, entities that name the parent only sometimes).
 */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, twinRequest as send, withheldOf } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const things = (project: string, data: unknown[]): RecordSpec => ({
  path: `/api/projects/${project}/things`,
  status: 200,
  res: data,
});
const create = (project: string, title: string, id: unknown): RecordSpec => ({
  method: "POST",
  path: `/api/projects/${project}/things`,
  status: 201,
  req: { title },
  res: { id, title },
});

function recording(readBack = "Gamma"): RecordSpec[] {
  return [
    things("10", [
      { id: 1, title: "One" },
      { id: 2, title: "Two" },
    ]),
    things("20", [{ id: 3, title: "Three" }]),
    create("10", "Gamma", 4),
    things("10", [
      { id: 1, title: "One" },
      { id: 2, title: "Two" },
      { id: 4, title: readBack },
    ]),
  ];
}

const body = (a: ReturnType<typeof handleRequest>) => (a.body?.kind === "json" ? a.body.value : null);

describe("nested collections scoped by their path", () => {
  it("keeps the scope the path names, serves a create its scope's later list confirmed, and never shows the scope", () => {
    const { model, seed } = learnSpecs(recording());
    const c = model.collections.find((x) => x.name === "things")!;
    expect(c.parent).toEqual({
      collection: null,
      param: "project_id",
      field: "project_id",
      implied: true,
      listed: ["10", "20"],
    });
    expect(model.endpoints.find((e) => e.tool_name === "post_projects_things_by_project_id")?.serving).toBe(
      "state",
    );
    const ep = createEpisode(model, seed, { episodeId: "scoped" });
    const made = handleRequest(model, ep, send("POST", "/api/projects/20/things", { title: "Delta" }));
    expect([made.status, body(made)]).toEqual([201, { id: 5, title: "Delta" }]);
    expect(body(handleRequest(model, ep, send("GET", "/api/projects/20/things")))).toEqual([
      { id: 3, title: "Three" },
      { id: 5, title: "Delta" },
    ]);
    expect(body(handleRequest(model, ep, send("GET", "/api/projects/10/things")))).toEqual([
      { id: 1, title: "One" },
      { id: 2, title: "Two" },
      { id: 4, title: "Gamma" },
    ]);
  });

  it("answers a scope the recording never listed with an explained miss, not an empty list", () => {
    const { model, seed } = learnSpecs(recording());
    const ep = createEpisode(model, seed, { episodeId: "unlisted" });
    const a = handleRequest(model, ep, send("GET", "/api/projects/30/things"));
    expect([a.status, a.served_by, (body(a) as { error: string }).error]).toEqual([
      501,
      "miss",
      "unlisted_scope",
    ]);
    expect((body(a) as { message: string }).message).toBe(
      'GET /api/projects/{project_id}/things lists the things under "30", which the recording never listed and the episode wrote nothing to: the twin does not know what the app holds there',
    );
  });
});

describe("nested scopes rightly refused", () => {
  it("withholds a create whose scope's later list shows another value than it wrote", () => {
    expect(withheldOf(recording("Gamma (copy)")).map(([tool, reason]) => [tool, reason])).toEqual([
      ["post_projects_things_by_project_id", "read_back_disagrees"],
    ]);
  });

  it("withholds an id that was one value in every create under one parent, and serves it once two parents show it", () => {
    const one = [
      things("10", []),
      things("20", [{ id: "main", title: "Old" }]),
      create("10", "Gamma", "main"),
      things("10", [{ id: "main", title: "Gamma" }]),
    ];
    expect(withheldOf(one)).toEqual([
      [
        "post_projects_things_by_project_id",
        "unexplained_field",
        'Field "id" in POST /api/projects/{project_id}/things was one value in every recorded create, all under one {project_id}, which an id fixed per parent and an id the app assigns both fit; record another POST /api/projects/{project_id}/things under another {project_id}, followed by a GET /api/projects/{project_id}/things, so its id shows which',
      ],
    ]);
    const two = [
      ...one,
      things("40", []),
      create("40", "Epsilon", "main"),
      things("40", [{ id: "main", title: "Epsilon" }]),
      things("50", []),
    ];
    const { model, seed, coverage } = learnSpecs(two);
    expect(coverage.writes.withheld).toEqual([]);
    const ep = createEpisode(model, seed, { episodeId: "fixed" });
    // Other parents hold "main": the id is free under this one, and taken under one that holds it.
    const omega = handleRequest(model, ep, send("POST", "/api/projects/50/things", { title: "New" }));
    expect([omega.status, body(omega)]).toEqual([201, { id: "main", title: "New" }]);
    const again = handleRequest(model, ep, send("POST", "/api/projects/40/things", { title: "Again" }));
    expect([again.status, (body(again) as { error: string }).error]).toEqual([501, "id_taken"]);
  });

  it("takes no scope for a list whose entities name the parent in some answers only", () => {
    const specs = [
      things("10", [
        { id: 1, title: "One", owner: 10 },
        { id: 2, title: "Two" },
      ]),
      things("20", [{ id: 3, title: "Three" }]),
    ];
    const { model } = learnSpecs(specs);
    expect(model.collections.find((x) => x.name === "things")).toBeUndefined();
  });
});

describe("nested entities naming their parent by a reference inside an object", () => {
  const projects: RecordSpec[] = [
    {
      path: "/api/projects",
      status: 200,
      res: [
        { id: 1, slug: "web", name: "Web" },
        { id: 2, slug: "app", name: "App" },
      ],
    },
    { path: "/api/projects/1", status: 200, res: { id: 1, slug: "web", name: "Web" } },
    { path: "/api/projects/app", status: 200, res: { id: 2, slug: "app", name: "App" } },
  ];
  const members = (path: string, data: unknown[]): RecordSpec => ({
    path: `/api/projects/${path}/members`,
    status: 200,
    res: data,
  });
  const web = { id: 1, project: { id: 1, name: "Web" }, user: "ann" };
  // Its id is the other project's id, as the path's "2" is: no sign of the scope at the top level, either way.
  const app = { id: 2, project: { id: 2, name: "App" }, user: "bo" };

  it("keeps the parent's id as the scope, so a path naming the parent by another of its ids reads the same list", () => {
    const { model, seed } = learnSpecs([...projects, members("web", [web]), members("2", [app])]);
    const c = model.collections.find((x) => x.name === "members")!;
    expect(c.parent).toEqual({
      collection: "projects",
      param: "project_id",
      field: "project_id",
      implied: true,
      listed: ["1", "2"],
      reference: "project.id",
    });
    const ep = createEpisode(model, seed, { episodeId: "by-reference" });
    expect(body(handleRequest(model, ep, send("GET", "/api/projects/app/members")))).toEqual([app]);
    expect(body(handleRequest(model, ep, send("GET", "/api/projects/1/members")))).toEqual([web]);
  });

  it("takes no reference that names another parent than the path: the path's text stays the scope", () => {
    const wrong = { ...web, project: { id: 2, name: "App" } };
    const { model, seed } = learnSpecs([...projects, members("web", [wrong])]);
    const c = model.collections.find((x) => x.name === "members")!;
    expect(c.parent?.reference).toBeUndefined();
    expect(c.parent?.listed).toEqual(["web"]);
    const ep = createEpisode(model, seed, { episodeId: "no-reference" });
    const a = handleRequest(model, ep, send("GET", "/api/projects/1/members"));
    expect([a.status, (body(a) as { error: string }).error]).toEqual([501, "unlisted_scope"]);
  });
});
