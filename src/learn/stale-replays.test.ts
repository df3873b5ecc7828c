/**
 * Replays older than the state a fresh twin starts from (the end of training) are not answered: a later recorded
 * answer of the same request is, or with none the twin's explained miss.
 */
import { describe, expect, it } from "vitest";
import { learnSpecs, list, twinRequest } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const A = { id: 1, title: "A" };
const B = { id: 2, title: "B" };

function answer(specs: Parameters<typeof learnSpecs>[0], path: string, query: [string, string][]) {
  const { model, seed } = learnSpecs(specs);
  const ep = createEpisode(model, seed, { episodeId: "e" });
  return handleRequest(model, ep, twinRequest("GET", path, null, query));
}

describe("replays older than the end of training", () => {
  const item = (id: number, res: unknown, status = 200) => ({ path: `/api/things/${id}`, status, res });

  it("does not replay an item read with a query of an entity deleted later: an explained miss", () => {
    const res = answer(
      [
        list([A, B]),
        item(1, A),
        { path: "/api/things/2?include=notes", status: 200, res: { ...B, notes: [] } },
        { method: "DELETE", path: "/api/things/2", status: 204, res: null },
        item(2, { error: "not found" }, 404),
      ],
      "/api/things/2",
      [["include", "notes"]],
    );
    expect(res.status).toBe(501);
    expect(res.served_by).toBe("miss");
    // The miss says the request was recorded and what made its answer out of date, not "never recorded".
    expect(res.body).toEqual({
      kind: "json",
      value: {
        error: "stale_replay",
        message:
          'GET /api/things/2?include=notes was recorded, but its answer shows things "2", which the later recorded DELETE /api/things/2 changed; a fresh episode starts from the end of the recording, so that answer was out of date from the start and the twin does not replay it',
        request: "GET /api/things/2?include=notes",
        collection: "things",
        id: "2",
        write: "DELETE /api/things/2",
        hint: "Record GET /api/things/2?include=notes again after the last write to things (or record reads that confirm a rule for it), then rebuild the bundle.",
      },
    });
  });

  it("lists a dropped read no later answer replaces in the model, and not one a later answer replaces", () => {
    const { model } = learnSpecs([
      list([A, B]),
      item(1, A),
      { path: "/api/things/2?include=notes", status: 200, res: { ...B, notes: [] } },
      { path: "/api/things?title=~B&fields=id", status: 200, res: [{ id: 2 }] },
      {
        method: "PATCH",
        path: "/api/things/2",
        status: 200,
        req: { title: "C" },
        res: { id: 2, title: "C" },
      },
      item(2, { id: 2, title: "C" }),
      { path: "/api/things?title=~B&fields=id", status: 200, res: [] },
    ]);
    expect(model.stale_replays).toEqual([
      {
        method: "GET",
        path_and_query: "/api/things/2?include=notes",
        tool_name: "get_things_by_id",
        collection: "things",
        id: "2",
        write: "PATCH /api/things/2",
      },
    ]);
  });

  it("answers the latest recorded answer when it postdates the write", () => {
    const res = answer(
      [
        list([A, B]),
        item(1, A),
        { path: "/api/things?title=~B&fields=id", status: 200, res: [{ id: 2 }] },
        { method: "DELETE", path: "/api/things/2", status: 204, res: null },
        item(2, { error: "not found" }, 404),
        { path: "/api/things?title=~B&fields=id", status: 200, res: [] },
      ],
      "/api/things",
      [
        ["title", "~B"],
        ["fields", "id"],
      ],
    );
    expect(res.body).toEqual({ kind: "json", value: [] });
  });

  it("keeps replaying a read whose entities no later write changed (rightly not stale)", () => {
    const res = answer(
      [
        list([A, B]),
        item(1, A),
        { path: "/api/things?title=~B&fields=id", status: 200, res: [{ id: 2 }] },
        { method: "DELETE", path: "/api/things/1", status: 204, res: null },
        item(1, { error: "not found" }, 404),
      ],
      "/api/things",
      [
        ["title", "~B"],
        ["fields", "id"],
      ],
    );
    expect(res.body).toEqual({ kind: "json", value: [{ id: 2 }] });
  });
});
