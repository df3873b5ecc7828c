/** A collection rendered two ways by Accept: the variant learned as a rendering of the primary entities, from state. */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const V2 = "application/vnd.shop.v2+json";
const JSON_ACCEPT = [{ name: "Accept", value: "application/json" }];
const V2_ACCEPT = [{ name: "Accept", value: V2 }];
type Row = { id: number; title: string; status: string; views: number };
const ROWS: Row[] = [
  { id: 1, title: "Alpha", status: "open", views: 12 },
  { id: 2, title: "Beta", status: "done", views: 40 },
  { id: 3, title: "Gamma", status: "open", views: 7 },
];
const v2 = (r: Row) => ({ id: r.id, title: r.title, status: r.status, stats: { views: r.views } });
const plain = (query: string, rows: Row[]): RecordSpec => ({
  path: `/api/things${query}`,
  status: 200,
  res: rows,
  headers: JSON_ACCEPT,
});
const rendered = (query: string, rows: Row[], render = v2): RecordSpec => ({
  path: `/api/things${query}`,
  status: 200,
  res: { items: rows.map(render), total: rows.length },
  headers: V2_ACCEPT,
});
const item = (r: Row, headers = JSON_ACCEPT, render: (r: Row) => unknown = (x) => x): RecordSpec => ({
  path: `/api/things/${r.id}`,
  status: 200,
  res: render(r),
  headers,
});
const get = (path: string, headers: Record<string, string>, query: [string, string][] = []) => ({
  method: "GET",
  path,
  query,
  headers,
  body: null,
});
const created: Row = { id: 4, title: "Delta", status: "open", views: 0 };
const training: RecordSpec[] = [
  plain("", ROWS),
  rendered("", ROWS),
  plain("?status=open", [ROWS[0]!, ROWS[2]!]),
  rendered("?status=done", [ROWS[1]!]),
  item(ROWS[1]!),
  item(ROWS[1]!, V2_ACCEPT, v2),
  { path: "/api/things/99", status: 404, res: { message: "Not Found" }, headers: JSON_ACCEPT },
  {
    method: "POST",
    path: "/api/things",
    status: 201,
    req: { title: "Delta", status: "open", views: 0 },
    res: created,
    headers: JSON_ACCEPT,
  },
  plain("", [...ROWS, created]),
];

describe("a collection rendered otherwise by a request header", () => {
  it("learns the variant's envelopes and fields and answers it from the same state, filters and writes included", () => {
    const { model, seed } = learnSpecs(training);
    const c = model.collections.find((x) => x.name === "things")!;
    expect(c.variants?.map((v) => [v.header, v.value, v.envelope, v.item_envelope, v.fields])).toEqual([
      [
        "accept",
        V2,
        { kind: "object", items_key: "items", total_key: "total", constants: {} },
        { kind: "bare" },
        [
          { pointer: "/id", from: "/id" },
          { pointer: "/title", from: "/title" },
          { pointer: "/status", from: "/status" },
          { pointer: "/stats/views", from: "/views" },
        ],
      ],
    ]);
    const ep = createEpisode(model, seed, { episodeId: "v" });
    const open = handleRequest(model, ep, get("/api/things", { accept: V2 }, [["status", "open"]]));
    expect([open.served_by, open.body]).toEqual([
      "state",
      { kind: "json", value: { items: [ROWS[0]!, ROWS[2]!, created].map(v2), total: 3 } },
    ]);
    expect(handleRequest(model, ep, get("/api/things/4", { accept: V2 })).body).toEqual({
      kind: "json",
      value: v2(created),
    });
    // The primary rendering is unchanged.
    expect(handleRequest(model, ep, get("/api/things/4", { accept: "application/json" })).body).toEqual({
      kind: "json",
      value: created,
    });
    // An unknown id under the variant: the recording only showed the primary's not-found, not passed off as the variant's.
    const miss = handleRequest(model, ep, get("/api/things/77", { accept: V2 }));
    expect([miss.status, (miss.body as { value: { error: string } }).value.error]).toEqual([
      501,
      "unrecorded_variant",
    ]);
  });

  it("is refused when a variant leaf no primary leaf explains: the variant reads replay, keyed on the header", () => {
    const odd = (r: Row) => ({ ...v2(r), score: r.views * 2 });
    const { model, seed } = learnSpecs([plain("", ROWS), rendered("", ROWS, odd), plain("", ROWS)]);
    expect(model.collections[0]!.variants?.map((v) => [v.envelope, v.item_envelope, v.fields])).toEqual([
      [null, null, []],
    ]);
    const ep = createEpisode(model, seed, { episodeId: "r" });
    const r = handleRequest(model, ep, get("/api/things", { accept: V2 }));
    expect([r.served_by, r.body]).toEqual([
      "replay",
      { kind: "json", value: { items: ROWS.map(odd), total: 3 } },
    ]);
    expect(handleRequest(model, ep, get("/api/things", { accept: "application/json" })).served_by).toBe(
      "state",
    );
  });

  it("is refused when a variant list answers other entities than the primary query of its moment", () => {
    // The variant's `status=open` listed Beta (done): not the primary filter's answer, so no rendering of it.
    const { model } = learnSpecs([
      plain("", ROWS),
      rendered("", ROWS),
      plain("?status=open", [ROWS[0]!, ROWS[2]!]),
      rendered("?status=open", [ROWS[1]!]),
    ]);
    expect(model.collections[0]!.variants?.map((v) => v.envelope)).toEqual([null]);
  });
});
