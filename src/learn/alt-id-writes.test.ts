/**
 * Writes to a path naming the entity by another of its ids (`PUT /projects/docs.json` for the project whose
 * `identifier` is `docs`, read back by `GET /projects/3.json`): confirmed and served by either id; and an update a
 * read after it showed unchanged in all it sent, whose hint says so instead of asking for that read again.
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
const project = (p: { id: number; identifier: string; name: string }): RecordSpec => ({
  path: `/projects/${p.id}.json`,
  status: 200,
  res: { project: p },
});

function recording(
  sent: Record<string, unknown> = { name: "Web site" },
  readName = "Web site",
): RecordSpec[] {
  return [
    { path: "/projects.json", status: 200, res: { projects: P } },
    project(P[0]!),
    { path: "/projects/app.json", status: 200, res: { project: P[1] } },
    { method: "PUT", path: "/projects/web.json", status: 204, req: { project: sent } },
    project({ ...P[0]!, name: readName }),
  ];
}

const body = (a: ReturnType<typeof handleRequest>) => (a.body?.kind === "json" ? a.body.value : null);

describe("writes naming the entity by another of its ids", () => {
  it("confirms a PUT by identifier by the read of its id, and serves it by either id", () => {
    const { model, seed, coverage } = learnSpecs(recording());
    expect(coverage.writes.withheld).toEqual([]);
    const ep = createEpisode(model, seed, { episodeId: "alt" });
    const put = handleRequest(model, ep, send("PUT", "/projects/app.json", { project: { name: "Mobile" } }));
    expect(put.status).toBe(204);
    expect(body(handleRequest(model, ep, send("GET", "/projects/2.json")))).toEqual({
      project: { id: 2, identifier: "app", name: "Mobile" },
    });
    expect(
      handleRequest(model, ep, send("PUT", "/projects/2.json", { project: { name: "App" } })).status,
    ).toBe(204);
    expect(body(handleRequest(model, ep, send("GET", "/projects/app.json")))).toEqual({ project: P[1] });
  });

  it("withholds a PUT whose read-back shows none of what it sent, naming that read", () => {
    expect(withheldOf(recording({ notes: "Moved to the new host" }, "Web"))).toEqual([
      [
        "put_projects_by_id",
        "not_read_back",
        'The GET /projects/{id}.json after PUT /projects/{id}.json (records[4]) shows its entity, but no field there changed to what it sent ("notes"), under that name or as the ids of the entities a field lists: the recording holds the read-back and it does not confirm the write; record a PUT /projects/{id}.json that changes a field the GET /projects/{id}.json shows, followed by that read',
      ],
    ]);
  });
});
