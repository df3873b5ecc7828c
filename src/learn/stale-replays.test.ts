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
