/**
 * A list read whose parameters only order it (`orderby=name&order=desc`) shows its scope whole: a later filtered
 * read of a collection no plain list showed is then judged against that state and its filter confirmed.
 */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";
import { headersSayCut, orderingOnly } from "./sorted-whole-reads.js";

const TAGS = [
  { id: 4, name: "release", slug: "release", count: 1 },
  { id: 5, name: "howto", slug: "howto", count: 2 },
  { id: 6, name: "perf", slug: "perf", count: 0 },
];
const idOf = (e: Record<string, unknown>) => String(e.id);
const req = (path: string, query: [string, string][] = []) => ({
  method: "GET",
  path,
  query,
  headers: {},
  body: null,
});

/** No plain list: the collection is known only from a read that sorts it, then one slug filter. */
const specs = (sortQuery: string, sorted: typeof TAGS): RecordSpec[] => [
  { path: `/api/tags?${sortQuery}`, status: 200, res: sorted },
  { path: "/api/tags/5", status: 200, res: TAGS[1] },
  { path: "/api/tags?slug=perf", status: 200, res: [TAGS[2]] },
];
const byNameDesc = [TAGS[0]!, TAGS[2]!, TAGS[1]!];

describe("reads that only order their scope", () => {
  it("a sort and its direction, the answer in that order, count as the whole scope", () => {
    expect(
      orderingOnly(
        [
          ["orderby", "name"],
          ["order", "desc"],
        ],
        byNameDesc,
        [],
        idOf,
      ),
    ).toEqual([{ field: "name", direction: "desc" }]);
    expect(orderingOnly([["sort", "id:desc"]], [...TAGS].reverse(), [], idOf)).toEqual([
      { field: "id", direction: "desc" },
    ]);
  });

  it("is rejected for an answer out of the named order, a parameter named as a field, no direction, or a known entity left out", () => {
    // Named desc, answered ascending: the parameter did not order it so (it may filter).
    expect(
      orderingOnly(
        [
          ["orderby", "name"],
          ["order", "desc"],
        ],
        [TAGS[1]!, TAGS[2]!, TAGS[0]!],
        [],
        idOf,
      ),
    ).toBeNull();
    // `slug=name`: a name that is a field may filter by it.
    expect(
      orderingOnly(
        [
          ["slug", "name"],
          ["order", "desc"],
        ],
        byNameDesc,
        [],
        idOf,
      ),
    ).toBeNull();
    // No direction anywhere: the order tells nothing of what the parameter did.
    expect(orderingOnly([["orderby", "name"]], byNameDesc, [], idOf)).toBeNull();
    // An entity the walk holds is missing from the answer: it may have been filtered out.
    expect(
      orderingOnly(
        [
          ["orderby", "name"],
          ["order", "desc"],
        ],
        [TAGS[0]!, TAGS[1]!],
        [TAGS[2]!],
        idOf,
      ),
    ).toBeNull();
    // An answer that reads alike in both directions (all equal in the key) carries no evidence.
    const same = TAGS.map((t) => ({ ...t, count: 1 }));
    expect(
      orderingOnly(
        [
          ["orderby", "count"],
          ["order", "asc"],
        ],
        same,
        [],
        idOf,
      ),
    ).toBeNull();
  });

  it("lets a later filtered read confirm its filter, served from state for another value", () => {
    const { model, seed } = learnSpecs(specs("orderby=name&order=desc", byNameDesc));
    const c = model.collections.find((x) => x.name === "tags")!;
    expect((c.query?.rules ?? []).some((r) => r.kind === "filter")).toBe(true);
    // No plain list was seen: the collection stays unlisted (a plain list would be a guess of the app's order).
    expect(c.unlisted).toBeDefined();
    const ep = createEpisode(model, seed, { episodeId: "s" });
    const got = handleRequest(model, ep, req("/api/tags", [["slug", "howto"]]));
    expect([got.status, got.served_by, got.body]).toEqual([200, "state", { kind: "json", value: [TAGS[1]] }]);
  });

  it("learns no filter when the sorted read's envelope counts more than it shows (a page the app cut)", () => {
    const page = (res: unknown[], total: number) => ({ tags: res, total_count: total });
    const { model } = learnSpecs([
      { path: "/api/tags?orderby=name&order=desc", status: 200, res: page(byNameDesc, 9) },
      { path: "/api/tags/5", status: 200, res: { tag: TAGS[1] } },
      { path: "/api/tags?slug=perf", status: 200, res: page([TAGS[2]], 1) },
    ]);
    const c = model.collections.find((x) => x.name === "tags")!;
    expect((c.query?.rules ?? []).some((r) => r.kind === "filter")).toBe(false);
  });

  it("learns no filter when the first read is out of its named order (not known whole)", () => {
    const { model } = learnSpecs(specs("orderby=name&order=asc", byNameDesc));
    const c = model.collections.find((x) => x.name === "tags")!;
    expect((c.query?.rules ?? []).some((r) => r.kind === "filter")).toBe(false);
  });
});

describe("headersSayCut", () => {
  it("takes a header total above the page, or a next link, for a cut read", () => {
    expect(headersSayCut([{ name: "X-WP-Total", value: "12" }], 10)).toBe(true);
    expect(headersSayCut([{ name: "x-total-count", value: "3" }], 2)).toBe(true);
    expect(headersSayCut([{ name: "Link", value: '<http://a/x?page=2>; rel="next"' }], 10)).toBe(true);
  });

  it("refuses a total equal to the page, a non-total integer header, and a link with no next", () => {
    expect(headersSayCut([{ name: "X-WP-Total", value: "10" }], 10)).toBe(false);
    expect(headersSayCut([{ name: "Content-Length", value: "5120" }], 10)).toBe(false);
    expect(headersSayCut([{ name: "Link", value: '<http://a/x?page=1>; rel="prev"' }], 10)).toBe(false);
  });
});
