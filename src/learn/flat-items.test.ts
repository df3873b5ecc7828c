/**
 * A nested list whose item route is flat (`/projects/{project_id}/memberships.json` beside `/memberships/{id}.json`):
 * linked into one collection when an item read shows, by the same field, an entity the list showed; its create, PUT
 * and DELETE served; the entities a request array names (`role_ids`) listed from what the recording showed of them
 * (`each`); and the cases rightly refused (a flat path two nested lists may claim, a table one id disagrees in).
 */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, twinRequest as send, withheldOf } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const P = [
  { id: 1, identifier: "web", name: "Web" },
  { id: 2, identifier: "app", name: "App" },
];
const web = { id: 1, name: "Web" };
const member = (id: number, user: { id: number; name: string }, roles: { id: number; name: string }[]) => ({
  id,
  project: web,
  user,
  roles,
});
const DEV = { id: 4, name: "Dev" };
const MANAGER = { id: 3, name: "Manager" };
const ann = { id: 5, name: "Ann" };
const bob = { id: 6, name: "Bob" };
const list = (memberships: unknown[], project = "web"): RecordSpec => ({
  path: `/projects/${project}/memberships.json`,
  status: 200,
  res: { memberships, total_count: memberships.length },
});

function recording(putRoles = [MANAGER, DEV]): RecordSpec[] {
  return [
    { path: "/projects.json", status: 200, res: { projects: P, total_count: 2 } },
    { path: "/projects/1.json", status: 200, res: { project: P[0] } },
    { path: "/projects/app.json", status: 200, res: { project: P[1] } },
    list([member(7, ann, [DEV])]),
    {
      method: "POST",
      path: "/projects/web/memberships.json",
      status: 201,
      req: { membership: { user_id: 6, role_ids: [3] } },
      res: { membership: member(8, bob, [MANAGER]) },
    },
    { path: "/memberships/8.json", status: 200, res: { membership: member(8, bob, [MANAGER]) } },
    {
      method: "PUT",
      path: "/memberships/8.json",
      status: 204,
      req: { membership: { role_ids: [3, 4] } },
    },
    { path: "/memberships/8.json", status: 200, res: { membership: member(8, bob, putRoles) } },
    { method: "DELETE", path: "/memberships/7.json", status: 204 },
    list([member(8, bob, putRoles)]),
  ];
}

const body = (a: ReturnType<typeof handleRequest>) => (a.body?.kind === "json" ? a.body.value : null);

describe("a nested list with a flat item route", () => {
  it("links the flat item route to the nested list's collection and serves its create, PUT and DELETE", () => {
    const { model, seed, coverage } = learnSpecs(recording());
    const c = model.collections.find((x) => x.name === "memberships")!;
    expect([c.item_endpoint, c.item_envelope, c.parent?.reference]).toEqual([
      "get_memberships_by_id",
      { kind: "object", item_key: "membership" },
      "project.id",
    ]);
    expect(coverage.writes.withheld).toEqual([]);
    const ep = createEpisode(model, seed, { episodeId: "flat" });
    // The parent named by its other id; the scope, the reference and the looked-up name follow it.
    const made = handleRequest(
      model,
      ep,
      send("POST", "/projects/app/memberships.json", { membership: { user_id: 6, role_ids: [4] } }),
    );
    expect([made.status, body(made)]).toEqual([
      201,
      { membership: { id: 9, project: { id: 2, name: "App" }, user: bob, roles: [DEV] } },
    ]);
    const put = handleRequest(
      model,
      ep,
      send("PUT", "/memberships/9.json", { membership: { role_ids: [3, 4] } }),
    );
    expect(put.status).toBe(204);
    expect(body(handleRequest(model, ep, send("GET", "/memberships/9.json")))).toEqual({
      membership: { id: 9, project: { id: 2, name: "App" }, user: bob, roles: [MANAGER, DEV] },
    });
    expect(body(handleRequest(model, ep, send("GET", "/projects/app/memberships.json")))).toEqual({
      memberships: [{ id: 9, project: { id: 2, name: "App" }, user: bob, roles: [MANAGER, DEV] }],
      total_count: 1,
    });
    expect(handleRequest(model, ep, send("DELETE", "/memberships/9.json")).status).toBe(204);
    expect(handleRequest(model, ep, send("GET", "/memberships/9.json")).status).toBe(404);
  });

  it("lists the entities a request array names as the recording showed them, and explains one it never showed", () => {
    const { model, seed } = learnSpecs(recording());
    const rule = model.write_rules.find((r) => r.tool_name === "put_memberships_by_id")!;
    expect(rule.fields.find((f) => f.field === "roles")?.rule).toEqual({
      kind: "each",
      pointer: "/membership/role_ids",
      key: "id",
      table: { "3": MANAGER, "4": DEV },
      otherwise: { kind: "keep" },
    });
    const ep = createEpisode(model, seed, { episodeId: "unknown-role" });
    const a = handleRequest(model, ep, send("PUT", "/memberships/8.json", { membership: { role_ids: [9] } }));
    expect([a.status, (body(a) as { error: string; message: string }).message]).toEqual([
      501,
      "put_memberships_by_id lists the entities the request's /membership/role_ids names; the recording showed those with id 3, 4 and this request names 9, so the twin does not know what the app lists for it and does not guess",
    ]);
    // Nothing was written.
    expect(body(handleRequest(model, ep, send("GET", "/memberships/8.json")))).toEqual({
      membership: member(8, bob, [MANAGER, DEV]),
    });
  });
});

describe("flat item routes and reference lists rightly refused", () => {
  it("withholds the writes of a list whose entities one sighting shows otherwise (no constant, no fixed length)", () => {
    // Role 4 shows as "Dev" in the list and as "Developer" after the PUT: no one table holds both.
    const withheld = withheldOf(recording([MANAGER, { id: 4, name: "Developer" }]));
    expect(withheld.map(([tool, reason]) => [tool, reason])).toEqual([
      ["post_projects_memberships_json_by_project_id", "unexplained_field"],
      ["put_memberships_by_id", "unexplained_field"],
    ]);
    expect(withheld[1]![2]).toBe(
      'Field "roles" in PUT /memberships/{id}.json lists the entities the request\'s /membership/role_ids names (by their id), but the recording shows one of them two ways, so no one table of them explains every answer; the twin does not build a list it could not build for every request, so no recording can close this gap: the write stays withheld',
    );
  });

  it("links no flat item route that two nested lists could claim", () => {
    const specs = [
      ...recording(),
      { path: "/groups.json", status: 200, res: { groups: [{ id: 1, name: "G" }] } },
      { path: "/groups/1.json", status: 200, res: { group: { id: 1, name: "G" } } },
      { path: "/groups/2.json", status: 200, res: { group: { id: 2, name: "H" } } },
      {
        path: "/groups/1/memberships.json",
        status: 200,
        res: { memberships: [{ id: 8, group_id: 1 }], total_count: 1 },
      },
    ];
    const { model } = learnSpecs(specs);
    expect(model.collections.filter((c) => c.item_endpoint === "get_memberships_by_id")).toEqual([]);
  });
});
