/**
 * A collection read only through projections (`?_fields=id,title`, no plain list, no item read): still a collection,
 * its entities known in part from those reads and the creates' answers, a create confirmed by the projected read after
 * it served; never listed whole, so a plain list is the explained `unlisted_collection` miss; what the projection left
 * out is no hidden field. Rejected: a projected read after the create that disagrees with it, and a list read only
 * with a query that names no fields (a search), which stays replayed.
 */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, twinRequest } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";
import { namesItsFields } from "./projected-reads.js";

const projectedList = (res: unknown[]): RecordSpec => ({
  path: "/api/posts?_fields=id,title",
  status: 200,
  res,
});
const created = { id: 2, title: { rendered: "B", raw: "B" }, status: "draft", author: 1 };
const create = (title: string): RecordSpec => ({
  method: "POST",
  path: "/api/posts",
  status: 201,
  req: { title },
  res: created,
});

describe("a collection read only through projections", () => {
  const specs: RecordSpec[] = [
    projectedList([{ id: 1, title: { rendered: "A" } }]),
    create("B"),
    projectedList([
      { id: 1, title: { rendered: "A" } },
      { id: 2, title: { rendered: "B" } },
    ]),
  ];

  it("is a collection whose create the projected read confirms, served; a plain list is the unlisted miss", () => {
    const { model, seed, coverage } = learnSpecs(specs);
    const posts = model.collections.find((c) => c.name === "posts")!;
    expect(posts.unlisted).toEqual({ missing: [] });
    // Only what the projection left out inside a field it named (`title.raw`) is what reads leave out.
    expect(posts.hidden).toEqual(["/title/raw"]);
    expect(coverage.writes.withheld).toEqual([]);
    expect(model.write_rules.map((r) => r.tool_name)).toEqual(["post_posts"]);
    const ep = createEpisode(model, seed, { episodeId: "projected" });
    const res = handleRequest(model, ep, twinRequest("POST", "/api/posts", { title: "C" }));
    expect([res.status, res.served_by, res.body]).toEqual([
      201,
      "state",
      { kind: "json", value: { id: 3, title: { rendered: "C", raw: "C" }, status: "draft", author: 1 } },
    ]);
    const plain = handleRequest(model, ep, twinRequest("GET", "/api/posts"));
    expect([plain.status, (plain.body as { value: { error: string } }).value.error]).toEqual([
      501,
      "unlisted_collection",
    ]);
  });

  it("rightly withholds the create when the projected read after it disagrees with its answer", () => {
    const { model, coverage } = learnSpecs([
      projectedList([{ id: 1, title: { rendered: "A" } }]),
      create("B"),
      projectedList([
        { id: 1, title: { rendered: "A" } },
        { id: 2, title: { rendered: "Other" } },
      ]),
    ]);
    expect(model.write_rules).toEqual([]);
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason])).toEqual([
      ["post_posts", "read_back_disagrees"],
    ]);
  });

  it("rightly finds no collection where the only list reads carry a query that names no fields", () => {
    const { model, coverage } = learnSpecs([
      { path: "/api/posts?search=a", status: 200, res: [{ id: 1, title: "A" }] },
      { method: "POST", path: "/api/posts", status: 201, req: { title: "B" }, res: { id: 2, title: "B" } },
      { path: "/api/posts?search=b", status: 200, res: [{ id: 2, title: "B" }] },
    ]);
    expect(model.collections).toEqual([]);
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason])).toEqual([
      ["post_posts", "no_collection"],
    ]);
  });
});

describe("namesItsFields", () => {
  it("tells a projection from a query whose value names no field of the answer", () => {
    expect(namesItsFields([["_fields", "id,title,tags"]], [{ id: 1, title: "x" }])).toBe(true);
    expect(namesItsFields([["title", "x"]], [{ id: 1, title: "x" }])).toBe(false);
    expect(namesItsFields([["_fields", "id"]], [])).toBe(false);
  });
});
