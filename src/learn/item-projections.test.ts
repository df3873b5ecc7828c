/** Item reads with a query that null fields: kept only where every recorded read confirms them against the state. */
import { describe, expect, it } from "vitest";
import { learnSpecs } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const note = (id: number, body: string) => ({ id, title: `Note ${id}`, body, format: "text" });
const NOTES = [note(1, "one"), note(2, "two")];
const base = [
  { path: "/api/notes", status: 200, res: NOTES },
  { path: "/api/notes/1", status: 200, res: NOTES[0] },
  { path: "/api/notes/2", status: 200, res: NOTES[1] },
];
const read = (path: string, query: [string, string][]) => ({
  method: "GET",
  path,
  query,
  headers: {},
  body: null,
});

describe("item projections by hypothesis", () => {
  it("learns a query that nulls fields and serves it from the state for any entity", () => {
    const { model, seed } = learnSpecs([
      ...base,
      { path: "/api/notes/1?body=0", status: 200, res: { ...NOTES[0], body: null, format: null } },
    ]);
    const c = model.collections[0]!;
    expect(c.item_projections?.map((p) => [p.query, p.nulls])).toEqual([
      [[["body", "0"]], ["body", "format"]],
    ]);
    const ep = createEpisode(model, seed, { episodeId: "p" });
    const a = handleRequest(model, ep, read("/api/notes/2", [["body", "0"]]));
    expect([a.status, a.served_by, a.body]).toEqual([
      200,
      "state",
      { kind: "json", value: { ...NOTES[1], body: null, format: null } },
    ]);
  });

  it("rejects a query that changes a value otherwise (a re-encoding), which stays replayed", () => {
    const { model, seed } = learnSpecs([
      ...base,
      {
        path: "/api/notes/1?format=base64",
        status: 200,
        res: { ...NOTES[0], body: "b25l", format: "base64" },
      },
    ]);
    expect(model.collections[0]!.item_projections).toBeUndefined();
    const ep = createEpisode(model, seed, { episodeId: "r" });
    const other = handleRequest(model, ep, read("/api/notes/2", [["format", "base64"]]));
    expect([other.status, (other.body as { value: { error: string } }).value.error]).toEqual([
      501,
      "unlearned_query",
    ]);
  });

  it("rejects a projection two reads disagree on", () => {
    const { model } = learnSpecs([
      ...base,
      { path: "/api/notes/1?body=0", status: 200, res: { ...NOTES[0], body: null } },
      { path: "/api/notes/2?body=0", status: 200, res: { ...NOTES[1], body: null, format: null } },
    ]);
    expect(model.collections[0]!.item_projections).toBeUndefined();
  });

  it("takes a read of an entity known only from a listing (those fields null already) as no contradiction", () => {
    // Note 3 is known only from the list, its body and format null there, as a listing shows them.
    const listed = { id: 3, title: "Note 3", body: null, format: null };
    const { model } = learnSpecs([
      { path: "/api/notes", status: 200, res: [...NOTES, listed] },
      { path: "/api/notes/1", status: 200, res: NOTES[0] },
      { path: "/api/notes/3?body=0", status: 200, res: listed },
      { path: "/api/notes/1?body=0", status: 200, res: { ...NOTES[0], body: null, format: null } },
    ]);
    expect(model.collections[0]!.item_projections?.map((p) => [p.query, p.nulls])).toEqual([
      [[["body", "0"]], ["body", "format"]],
    ]);
  });

  it("rejects it when no read nulled a field the state held: the query is not shown to null anything", () => {
    const listed = { id: 3, title: "Note 3", body: null, format: null };
    const { model } = learnSpecs([
      { path: "/api/notes", status: 200, res: [...NOTES, listed] },
      { path: "/api/notes/3?body=0", status: 200, res: listed },
    ]);
    expect(model.collections[0]!.item_projections).toBeUndefined();
  });
});
