/**
 * The list's confirmed projection answering item reads (`item-fields.ts`): confirmed by an item read that answered
 * the held entity cut down to the named fields; rightly refused when an item read answered otherwise.
 */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, list, twinRequest } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const THINGS = [
  { id: 1, title: "A", done: false },
  { id: 2, title: "B", done: true },
];
const base: RecordSpec[] = [
  list(THINGS),
  { path: "/api/things/1", status: 200, res: THINGS[0] },
  { path: "/api/things?fields[title]=true", status: 200, res: [{ title: "A" }, { title: "B" }] },
];
const item = (id: number, res: unknown): RecordSpec => ({
  path: `/api/things/${id}?fields[title]=true`,
  status: 200,
  res,
});
const read = (specs: RecordSpec[], path: string, query: [string, string][]) => {
  const { model, seed } = learnSpecs(specs);
  const ep = createEpisode(model, seed, { episodeId: "f" });
  const a = handleRequest(model, ep, twinRequest("GET", path, null, query));
  return {
    flag: model.collections[0]!.item_query_fields,
    status: a.status,
    body: a.body?.kind === "json" ? a.body.value : null,
  };
};

describe("the list's projection on item reads", () => {
  it("is confirmed by an item read answering the entity cut down to the fields, and serves any entity and field", () => {
    const got = read([...base, item(1, { title: "A" })], "/api/things/2", [["fields[done]", "true"]]);
    expect(got).toEqual({ flag: true, status: 200, body: { done: true } });
  });

  it("is refused when an item read answered otherwise (the whole entity): the read is not cut down", () => {
    const got = read([...base, item(1, THINGS[0])], "/api/things/2", [["fields[done]", "true"]]);
    expect(got.flag).toBeUndefined();
    expect(got.status).toBe(501);
  });
});
