/** Writes whose query picks what they do: the one variant every read-back confirms, served under its own query. */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, twinRequest } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const c = (id: number, status = "approved") => ({ id, text: `c${id}`, status });
const all = [c(1), c(2), c(3)];
const seedReads: RecordSpec[] = [
  { path: "/api/comments", status: 200, res: all },
  { path: "/api/comments/1", status: 200, res: c(1) },
];
/** A DELETE that keeps its entity (trashed), read back; the path and query of the DELETE. */
const trash = (id: number, query = ""): RecordSpec[] => [
  { method: "DELETE", path: `/api/comments/${id}${query}`, status: 200, res: c(id, "trash") },
  { path: `/api/comments/${id}`, status: 200, res: c(id, "trash") },
];
/** A DELETE for good, read back as a 404. */
const purge = (id: number, query: string): RecordSpec[] => [
  {
    method: "DELETE",
    path: `/api/comments/${id}${query}`,
    status: 200,
    res: { deleted: true, previous: c(id, "trash") },
  },
  { path: `/api/comments/${id}`, status: 404, res: { code: "invalid_id" } },
];

describe("a write whose query picks what it does", () => {
  it("serves each variant its read-backs confirm under its own query: a trash without it, a delete with it", () => {
    const { model, seed, coverage } = learnSpecs([...seedReads, ...trash(1), ...purge(1, "?force=true")]);
    const rule = model.write_rules.find((r) => r.tool_name === "delete_comments_by_id")!;
    expect([rule.kind, rule.query]).toEqual(["delete", [{ param: "force", values: ["true"] }]]);
    expect(rule.query_variants?.map((v) => [v.kind, v.query])).toEqual([["merge", undefined]]);
    expect(rule.explain).toContain("With another query: DELETE /api/comments/{id} updates one comment");
    expect(rule.explain).toContain("Served only without a query.");
    expect(coverage.writes.withheld).toEqual([]);
    const ep = createEpisode(model, seed, { episodeId: "variants" });
    const gone = handleRequest(
      model,
      ep,
      twinRequest("DELETE", "/api/comments/2", null, [["force", "true"]]),
    );
    expect(gone.status).toBe(200);
    expect(handleRequest(model, ep, twinRequest("GET", "/api/comments/2")).status).toBe(404);
    // Without the query: the trash the recording showed, an update of the entity's status.
    const trashed = handleRequest(model, ep, twinRequest("DELETE", "/api/comments/3"));
    expect([trashed.status, trashed.served_by, trashed.body]).toEqual([
      200,
      "state",
      { kind: "json", value: c(3, "trash") },
    ]);
    expect(handleRequest(model, ep, twinRequest("GET", "/api/comments/3")).body).toEqual({
      kind: "json",
      value: c(3, "trash"),
    });
    // A value of the query no recording showed is an explained miss, and changes nothing.
    const unknown = handleRequest(
      model,
      ep,
      twinRequest("DELETE", "/api/comments/3", null, [["force", "maybe"]]),
    );
    expect(unknown.status).toBe(501);
    expect(handleRequest(model, ep, twinRequest("GET", "/api/comments/3")).status).toBe(200);
  });

  it("rightly withholds the route when deletes of one query are read back both kept and gone, saying so", () => {
    const { coverage } = learnSpecs([...seedReads, ...trash(1), ...purge(2, "")]);
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason, w.hint, w.closable])).toEqual([
      [
        "delete_comments_by_id",
        "read_back_disagrees",
        "The read after DELETE /api/comments/{id} (records[3]) still shows the entity it deleted: the app kept it (a delete that moves it to a trash or changes its status leaves it readable), which the twin's delete (the entity gone, its item read answering not-found) does not reproduce, so no recording can close this gap: the write stays withheld",
        false,
      ],
    ]);
  });
});
