/**
 * A collection no read listed whole (only filtered lists and item reads showed its entities): which ids it holds
 * beyond those is unknown, so an id the twin does not hold and a plain list are explained misses, not the app's
 * not-found or a list of whatever the recording happened to show.
 */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const COMMENTS = [
  { id: 3, post: 5, status: "hold", body: "Hm" },
  { id: 4, post: 5, status: "approved", body: "Nice" },
];
const NF = { code: "invalid_id", message: "Invalid comment ID." };
const req = (method: string, path: string, query: [string, string][] = []) => ({
  method,
  path,
  query,
  headers: {},
  body: null,
});

/** Filtered reads and item reads only, one recorded miss (id 99), then comment 4 deleted and read back missing. */
const unlistedSpecs = (plain: boolean): RecordSpec[] => [
  ...(plain ? [{ path: "/api/comments", status: 200, res: COMMENTS }] : []),
  { path: "/api/comments?status=hold", status: 200, res: [COMMENTS[0]] },
  { path: "/api/comments/3", status: 200, res: COMMENTS[0] },
  { path: "/api/comments/4", status: 200, res: COMMENTS[1] },
  { path: "/api/comments/99", status: 404, res: NF },
  { method: "DELETE", path: "/api/comments/4", status: 200, res: COMMENTS[1] },
  { path: "/api/comments/4", status: 404, res: NF },
];

describe("collections no read listed whole", () => {
  it("answers an id the recording never showed absent with an explained 501, and the ids it did show absent with the app's not-found", () => {
    const { model, seed } = learnSpecs(unlistedSpecs(false));
    const c = model.collections.find((x) => x.name === "comments")!;
    expect(c.unlisted).toEqual({ missing: ["4", "99"] });
    const ep = createEpisode(model, seed, { episodeId: "u" });
    expect(handleRequest(model, ep, req("GET", "/api/comments/3")).status).toBe(200);
    const unknown = handleRequest(model, ep, req("GET", "/api/comments/2"));
    expect([unknown.status, unknown.served_by]).toEqual([501, "miss"]);
    expect(unknown.body).toMatchObject({ kind: "json", value: { error: "unlisted_collection", id: "2" } });
    for (const id of ["99", "4"]) {
      const known = handleRequest(model, ep, req("GET", `/api/comments/${id}`));
      expect([known.status, known.body]).toEqual([404, { kind: "json", value: NF }]);
    }
    // A plain list would be only the entities the recording happened to show.
    const list = handleRequest(model, ep, req("GET", "/api/comments"));
    expect([list.status, (list.body as { value: { error: string } }).value.error]).toEqual([
      501,
      "unlisted_collection",
    ]);
  });

  it("an id the episode deleted is the not-found, as in any collection", () => {
    const { model, seed } = learnSpecs(unlistedSpecs(false));
    const ep = createEpisode(model, seed, { episodeId: "u" });
    expect(handleRequest(model, ep, req("DELETE", "/api/comments/3")).status).toBe(200);
    const gone = handleRequest(model, ep, req("GET", "/api/comments/3"));
    expect([gone.status, gone.body]).toEqual([404, { kind: "json", value: NF }]);
  });

  it("is refused where a plain read listed the collection whole: an unknown id is the app's not-found", () => {
    const { model, seed } = learnSpecs(unlistedSpecs(true));
    const c = model.collections.find((x) => x.name === "comments")!;
    expect(c.unlisted).toBeUndefined();
    const ep = createEpisode(model, seed, { episodeId: "l" });
    const unknown = handleRequest(model, ep, req("GET", "/api/comments/2"));
    expect([unknown.status, unknown.body]).toEqual([404, { kind: "json", value: NF }]);
    expect(handleRequest(model, ep, req("GET", "/api/comments")).status).toBe(200);
  });
});
