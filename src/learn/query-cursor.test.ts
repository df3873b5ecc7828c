import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs } from "../../test/support/learn-specs.js";
import { decodeCursor, encodeCursor } from "../model/query-cursor.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const T = [1, 2, 3, 4, 5].map((id) => ({ id, title: `T${id}` }));
const cur = (id: number) => Buffer.from(`thing:${id}`).toString("base64");
const page = (query: string, ids: number[], next: boolean): RecordSpec => ({
  path: `/api/things${query}`,
  status: 200,
  res: {
    data: ids.map((i) => T[i - 1]),
    pageInfo: { endCursor: ids.length ? cur(ids.at(-1)!) : null, hasNextPage: next },
  },
});

describe("cursor pagination by hypothesis", () => {
  it("learns the cursor leaf's codec and style, the cursor parameter, and serves pages after any entity", () => {
    const { model, seed } = learnSpecs([
      page("", [1, 2, 3, 4, 5], false),
      page("?first=2", [1, 2], true),
      page(`?first=2&after=${cur(2)}`, [3, 4], true),
      page(`?first=2&after=${cur(4)}`, [5], false),
    ]);
    const c = model.collections[0]!;
    expect(c.envelope_fields).toEqual([
      {
        pointer: "/pageInfo/endCursor",
        of: "end_cursor",
        codec: { codec: "base64", template: "thing:{id}" },
      },
      { pointer: "/pageInfo/hasNextPage", of: "has_next" },
    ]);
    expect(c.query?.rules.map((r) => r.kind).sort()).toEqual(["cursor", "limit"]);
    const ep = createEpisode(model, seed, { episodeId: "c" });
    const r = handleRequest(model, ep, {
      method: "GET",
      path: "/api/things",
      query: [
        ["first", "3"],
        ["after", cur(1)],
      ],
      headers: {},
      body: null,
    });
    expect([r.served_by, r.body]).toEqual([
      "state",
      { kind: "json", value: { data: T.slice(1, 4), pageInfo: { endCursor: cur(4), hasNextPage: true } } },
    ]);
  });

  it("rejects a leaf that names no entity of its page (a request id), and learns no cursor from it", () => {
    const { model } = learnSpecs([
      { path: "/api/things", status: 200, res: { data: T, meta: { request: "r-17" } } },
      { path: "/api/things?first=2", status: 200, res: { data: T.slice(0, 2), meta: { request: "r-18" } } },
    ]);
    expect(model.collections[0]!.envelope_fields ?? []).toEqual([]);
  });

  it("reads and writes a codec's cursors both ways, and refuses a token of another encoding", () => {
    const c = { codec: "base64url" as const, template: '{"id":{id}}' };
    expect(encodeCursor(c, "7")).toBe("eyJpZCI6N30");
    expect(decodeCursor(c, "eyJpZCI6N30")).toBe("7");
    expect(decodeCursor(c, "eyJpZCI6N30=")).toBeNull();
  });
});

describe("a cursor chain followed to its end is the whole list of its moment", () => {
  const next = (id: number) => Buffer.from(JSON.stringify({ id })).toString("base64url");
  const items = (query: string, ids: number[], more: boolean): RecordSpec => ({
    path: `/api/things${query}`,
    status: 200,
    res: { items: ids.map((i) => T[i - 1]), next_cursor: more ? next(ids.at(-1)!) : null },
  });
  // The app cuts every plain list at 2: no single read lists everything.
  const chain = [
    items("", [1, 2], true),
    items(`?cursor=${next(2)}`, [3, 4], true),
    items(`?cursor=${next(4)}`, [5], false),
  ];
  const queries = [items("?limit=3", [1, 2, 3], true), items(`?limit=3&cursor=${next(3)}`, [4, 5], false)];
  const get = (query: [string, string][]) => ({
    method: "GET",
    path: "/api/things",
    query,
    headers: {},
    body: null,
  });

  it("judges the query reads after it against it: page size and cursor learned, served from state", () => {
    const { model, seed } = learnSpecs([...chain, ...queries]);
    const c = model.collections[0]!;
    expect(c.default_limit).toBe(2);
    expect(c.query?.rules.map((r) => r.kind).sort()).toEqual(["cursor", "limit"]);
    const ep = createEpisode(model, seed, { episodeId: "k" });
    const r = handleRequest(model, ep, get([["limit", "4"]]));
    expect([r.served_by, r.body]).toEqual([
      "state",
      { kind: "json", value: { items: T.slice(0, 4), next_cursor: next(4) } },
    ]);
  });

  it("is no whole list when a write comes between its pages (the later pages may show its effect)", () => {
    const write: RecordSpec = {
      method: "POST",
      path: "/api/things",
      req: { title: "T6" },
      status: 201,
      res: { id: 6, title: "T6" },
    };
    const { model } = learnSpecs([chain[0]!, chain[1]!, write, chain[2]!, ...queries]);
    expect(model.collections[0]!.query?.rules ?? []).toEqual([]);
    expect(model.replays.map((r) => r.path_and_query)).toContain("/api/things?limit=3");
  });

  it("takes a read setting only a confirmed page size, whose answer says nothing follows, for the whole list", () => {
    const del: RecordSpec = { method: "DELETE", path: "/api/things/3", status: 204 };
    const after = items("?limit=10", [1, 2, 4, 5], false);
    const { model } = learnSpecs([...chain, ...queries, del, after]);
    expect(model.write_rules.map((w) => w.tool_name)).toContain("delete_things_by_id");
    // Refused: a parameter that is no confirmed page size (view=compact) may select; the delete stays unconfirmed.
    const other = items("?view=compact&limit=10", [1, 2, 4, 5], false);
    const refused = learnSpecs([...chain, ...queries, del, other]).model;
    expect(refused.write_rules.map((w) => w.tool_name)).not.toContain("delete_things_by_id");
  });
});
