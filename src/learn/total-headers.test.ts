/** Totals in list answers' headers: confirmed by every state-served list read, kept in step with the state. */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const P = [
  { id: 1, title: "A" },
  { id: 2, title: "B" },
  { id: 3, title: "C" },
];
const read = (query: string, rows: unknown[], total: number, pages: number): RecordSpec => ({
  path: `/posts${query}`,
  status: 200,
  res: rows,
  resHeaders: [
    { name: "X-Total", value: String(total) },
    { name: "X-Pages", value: String(pages) },
  ],
});
const get = (path: string, query: [string, string][] = []) => ({
  method: "GET",
  path,
  query,
  headers: {},
  body: null,
});

describe("totals in list headers", () => {
  it("keeps a header that is the total before the page and one that is the page count, and serves both from state", () => {
    const { model, seed } = learnSpecs([
      read("", P, 3, 1),
      read("?per_page=2&page=1", P.slice(0, 2), 3, 2),
      read("?per_page=2&page=2", P.slice(2), 3, 2),
    ]);
    expect(model.collections[0]!.total_headers).toEqual([
      { name: "X-Pages", of: "pages" },
      { name: "X-Total", of: "total" },
    ]);
    const ep = createEpisode(model, seed, { episodeId: "h" });
    const page = handleRequest(model, ep, get("/posts", [["per_page", "1"]]));
    expect([page.headers["X-Total"], page.headers["X-Pages"]]).toEqual(["3", "3"]);
    const all = handleRequest(model, ep, get("/posts"));
    expect([all.headers["X-Total"], all.headers["X-Pages"]]).toEqual(["3", "1"]);
  });

  it("keeps nothing from a header one read contradicts", () => {
    const { model } = learnSpecs([
      read("", P, 3, 1),
      { ...read("", P, 3, 1), resHeaders: [{ name: "X-Total", value: "9" }] },
    ]);
    expect(model.collections[0]!.total_headers).toBeUndefined();
  });
});
