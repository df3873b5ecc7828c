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
