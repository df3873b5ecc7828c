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

describe("totals inside the list envelope", () => {
  const meta = (page: number, pageSize: number, pageCount: number, total: number, extra = {}) => ({
    pagination: { page, pageSize, pageCount, total, ...extra },
  });
  const read = (query: string, rows: unknown[], m: unknown): RecordSpec => ({
    path: `/posts${query}`,
    status: 200,
    res: { data: rows, meta: m },
  });

  it("keeps a nested total, page count, echoed page parameters and constants in step with the state", () => {
    const { model, seed } = learnSpecs([
      read("", P, meta(1, 25, 1, 3, { kind: "offset" })),
      read("?pageSize=2&page=1", P.slice(0, 2), meta(1, 2, 2, 3, { kind: "offset" })),
      read("?pageSize=2&page=2", P.slice(2), meta(2, 2, 2, 3, { kind: "offset" })),
    ]);
    expect(model.collections[0]!.envelope_fields).toEqual([
      { pointer: "/meta/pagination/page", of: "echo", param: "page", value: 1 },
      { pointer: "/meta/pagination/pageSize", of: "echo", param: "pageSize", value: 25 },
      { pointer: "/meta/pagination/pageCount", of: "pages" },
      { pointer: "/meta/pagination/total", of: "total" },
      { pointer: "/meta/pagination/kind", of: "constant", value: "offset" },
    ]);
    const ep = createEpisode(model, seed, { episodeId: "m" });
    const page = handleRequest(
      model,
      ep,
      get("/posts", [
        ["pageSize", "1"],
        ["page", "3"],
      ]),
    );
    expect(page.body).toEqual({
      kind: "json",
      value: {
        data: [P[2]],
        meta: { pagination: { page: 3, pageSize: 1, pageCount: 3, total: 3, kind: "offset" } },
      },
    });
  });

  it("leaves out a leaf one read contradicts (a cursor), and an object whose total a read contradicts", () => {
    const cursor = (c: string) => ({ ...meta(1, 25, 1, 3), cursor: c });
    const { model } = learnSpecs([read("", P, cursor("a1")), read("", P, cursor("b2"))]);
    expect(model.collections[0]!.envelope_fields?.map((f) => f.pointer)).not.toContain("/meta/cursor");
    const wrong = learnSpecs([read("", P, { total: 3 }), read("", P, { total: 7 })]).model;
    expect(wrong.collections[0]!.envelope_fields).toBeUndefined();
  });
});

describe("the Link header of paged lists", () => {
  const O = "http://127.0.0.1:4010";
  const api = `<${O}/api-root>; rel="https://example.org/api"`;
  const linked = (query: string, rows: unknown[], link: string): RecordSpec => ({
    path: `/posts${query}`,
    status: 200,
    res: rows,
    resHeaders: [{ name: "Link", value: link }],
  });

  it("keeps next/prev in step with the state, the app's other entries word for word", () => {
    const { model, seed } = learnSpecs([
      linked("", P, api),
      linked("?per_page=2&page=1", P.slice(0, 2), `${api}, <${O}/posts?per_page=2&page=2>; rel="next"`),
      linked("?per_page=2&page=2", P.slice(2), `${api}, <${O}/posts?per_page=2&page=1>; rel="prev"`),
    ]);
    expect(model.collections[0]!.link_header).toMatchObject({ page_param: "page", base: 1, origin: O });
    const ep = createEpisode(model, seed, { episodeId: "l" });
    const page = handleRequest(
      model,
      ep,
      get("/posts", [
        ["per_page", "1"],
        ["page", "2"],
      ]),
    );
    expect(page.headers.Link).toBe(
      `${api}, <${O}/posts?per_page=1&page=1>; rel="prev", <${O}/posts?per_page=1&page=3>; rel="next"`,
    );
    expect(handleRequest(model, ep, get("/posts")).headers.Link).toBe(api);
  });

  it("is rejected when one read's link is not the request's own URL with the page set (another order)", () => {
    const { model } = learnSpecs([
      linked("", P, api),
      linked("?per_page=2&page=1", P.slice(0, 2), `${api}, <${O}/posts?page=2&per_page=2>; rel="next"`),
      linked("?per_page=2&page=2", P.slice(2), `${api}, <${O}/posts?page=1&per_page=2>; rel="prev"`),
    ]);
    expect(model.collections[0]!.link_header).toBeUndefined();
  });
});

describe("headers sent only on paged reads (a mock server's X-Total-Count and Link beside _page/_limit)", () => {
  const O = "http://127.0.0.1:4010";
  const paged = (query: string, rows: unknown[], link: string | null): RecordSpec => ({
    path: `/posts${query}`,
    status: 200,
    res: rows,
    resHeaders: [
      ...(query.includes("_") ? [{ name: "X-Total-Count", value: "3" }] : []),
      ...(link === null ? [] : [{ name: "Link", value: link }]),
    ],
  });
  const specs: RecordSpec[] = [
    paged("", P, null),
    paged("?_limit=2", P.slice(0, 2), null),
    paged(
      "?_page=1&_limit=2",
      P.slice(0, 2),
      `<${O}/posts?_page=1&_limit=2>; rel="first", <${O}/posts?_page=2&_limit=2>; rel="next", <${O}/posts?_page=2&_limit=2>; rel="last"`,
    ),
    paged(
      "?_page=2&_limit=2",
      P.slice(2),
      `<${O}/posts?_page=1&_limit=2>; rel="first", <${O}/posts?_page=1&_limit=2>; rel="prev", <${O}/posts?_page=2&_limit=2>; rel="last"`,
    ),
  ];

  it("keeps them on exactly the reads that send a paging parameter, in step with the state", () => {
    const { model, seed } = learnSpecs(specs);
    const c = model.collections[0]!;
    expect(c.total_headers).toEqual([{ name: "X-Total-Count", of: "total", when_sent: ["_limit", "_page"] }]);
    expect(c.link_header?.when_paged).toBe(true);
    const ep = createEpisode(model, seed, { episodeId: "h" });
    const plain = handleRequest(model, ep, get("/posts"));
    expect([plain.headers["X-Total-Count"], plain.headers.Link]).toEqual([undefined, undefined]);
    const limited = handleRequest(model, ep, get("/posts", [["_limit", "1"]]));
    expect([limited.headers["X-Total-Count"], limited.headers.Link]).toEqual(["3", undefined]);
    const page = handleRequest(
      model,
      ep,
      get("/posts", [
        ["_page", "3"],
        ["_limit", "1"],
      ]),
    );
    expect(page.headers.Link).toBe(
      `<${O}/posts?_page=1&_limit=1>; rel="first", <${O}/posts?_page=2&_limit=1>; rel="prev", <${O}/posts?_page=3&_limit=1>; rel="last"`,
    );
  });

  it("is rejected when a read without a paging parameter carries the header too, and another lacks it", () => {
    const { model } = learnSpecs([
      ...specs,
      {
        path: "/posts?title=A",
        status: 200,
        res: [P[0]],
        resHeaders: [{ name: "X-Total-Count", value: "1" }],
      },
    ]);
    expect(model.collections[0]!.total_headers ?? []).toEqual([]);
  });
});

describe("a page's position inside the envelope", () => {
  it("keeps its number and whether it is the first or the last page, in step with the state", () => {
    const info = (page: number, first: boolean, last: boolean) => ({
      totalRows: 3,
      page,
      isFirstPage: first,
      isLastPage: last,
    });
    const { model, seed } = learnSpecs([
      { path: "/posts", status: 200, res: { list: P, pageInfo: info(1, true, true) } },
      { path: "/posts?limit=2", status: 200, res: { list: P.slice(0, 2), pageInfo: info(1, true, false) } },
      {
        path: "/posts?limit=1&offset=2",
        status: 200,
        res: { list: P.slice(2), pageInfo: info(3, false, true) },
      },
    ]);
    expect(model.collections[0]!.envelope_fields).toEqual([
      { pointer: "/pageInfo/totalRows", of: "total" },
      { pointer: "/pageInfo/page", of: "page" },
      { pointer: "/pageInfo/isFirstPage", of: "is_first" },
      { pointer: "/pageInfo/isLastPage", of: "is_last" },
    ]);
    const r = handleRequest(
      model,
      createEpisode(model, seed, { episodeId: "p" }),
      get("/posts", [
        ["limit", "1"],
        ["offset", "1"],
      ]),
    );
    expect(r.body).toEqual({
      kind: "json",
      value: { list: [P[1]], pageInfo: { totalRows: 3, page: 2, isFirstPage: false, isLastPage: false } },
    });
  });

  it("leaves out a boolean no position explains (it says something else: archived)", () => {
    const { model } = learnSpecs([
      { path: "/posts", status: 200, res: { list: P, pageInfo: { totalRows: 3, stale: false } } },
      {
        path: "/posts?limit=2",
        status: 200,
        res: { list: P.slice(0, 2), pageInfo: { totalRows: 3, stale: false } },
      },
      {
        path: "/posts?limit=2&offset=2",
        status: 200,
        res: { list: P.slice(2), pageInfo: { totalRows: 3, stale: true } },
      },
    ]);
    expect(model.collections[0]!.envelope_fields?.map((f) => f.pointer)).toEqual(["/pageInfo/totalRows"]);
  });
});
