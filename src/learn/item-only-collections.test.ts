/**
 * Collections the app reads only by id (no list route: Jupyter's sessions): learned when a create's answered id is
 * read back by the item route, served unlisted (an id the twin does not hold is an explained miss, a deleted one the
 * app's not-found). Rightly refused: a create no read named afterwards.
 */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, twinRequest as send } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const A = "2ba037ae-df91-4b19-af94-674ad1040a99";
const B = "64cbda3b-9866-49af-8451-e380376b7e45";
const session = (id: string, path: string) => ({ id, path, type: "notebook" });
const missing = (id: string) => ({ message: `Session not found: ${id}` });

function recording(readBack = true): RecordSpec[] {
  return [
    {
      method: "POST",
      path: "/api/sessions",
      status: 201,
      req: { path: "a.ipynb", type: "notebook" },
      res: session(A, "a.ipynb"),
    },
    ...(readBack ? [{ path: `/api/sessions/${A}`, status: 200, res: session(A, "a.ipynb") }] : []),
    {
      method: "PATCH",
      path: `/api/sessions/${A}`,
      status: 200,
      req: { path: "b.ipynb" },
      res: session(A, "b.ipynb"),
    },
    ...(readBack ? [{ path: `/api/sessions/${A}`, status: 200, res: session(A, "b.ipynb") }] : []),
    {
      method: "POST",
      path: "/api/sessions",
      status: 201,
      req: { path: "c.ipynb", type: "notebook" },
      res: session(B, "c.ipynb"),
    },
    ...(readBack ? [{ path: `/api/sessions/${B}`, status: 200, res: session(B, "c.ipynb") }] : []),
    { method: "DELETE", path: `/api/sessions/${B}`, status: 204 },
    { path: `/api/sessions/${B}`, status: 404, res: missing(B) },
  ];
}

const body = (a: ReturnType<typeof handleRequest>) =>
  (a.body?.kind === "json" ? a.body.value : null) as Record<string, unknown>;

describe("collections read only by id", () => {
  it("serves creates, updates and deletes of a collection no route lists, unlisted", () => {
    const { model, seed, coverage } = learnSpecs(recording());
    expect(coverage.writes.withheld).toEqual([]);
    const c = model.collections.find((x) => x.name === "sessions")!;
    expect([c.list_endpoint, c.item_endpoint, c.id_kind, c.unlisted]).toEqual([
      null,
      "get_sessions_by_id",
      "uuid",
      { missing: [B] },
    ]);
    expect(model.endpoints.map((e) => `${e.method} ${e.template}`)).not.toContain("GET /api/sessions");
    const ep = createEpisode(model, seed, { episodeId: "s" });
    const made = handleRequest(
      model,
      ep,
      send("POST", "/api/sessions", { path: "d.ipynb", type: "notebook" }),
    );
    expect(made.status).toBe(201);
    const id = String(body(made)["id"]);
    expect(body(handleRequest(model, ep, send("GET", `/api/sessions/${id}`)))).toEqual(
      session(id, "d.ipynb"),
    );
    expect(handleRequest(model, ep, send("DELETE", `/api/sessions/${id}`)).status).toBe(204);
    const gone = handleRequest(model, ep, send("GET", `/api/sessions/${id}`));
    expect([gone.status, body(gone)]).toEqual([404, missing(id)]);
    // An id the recording never showed: the app may hold it; the twin cannot know.
    const unknown = handleRequest(
      model,
      ep,
      send("GET", "/api/sessions/7d1e6c2a-5b4f-4e3d-9c8b-0a1f2e3d4c5b"),
    );
    expect([unknown.status, body(unknown)["error"]]).toEqual([501, "unlisted_collection"]);
  });

  it("learns none where no read named a created id afterwards", () => {
    const { model } = learnSpecs(recording(false));
    expect(model.collections.map((c) => c.name)).not.toContain("sessions");
  });
});
