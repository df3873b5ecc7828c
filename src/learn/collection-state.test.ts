/**
 * Entities only query reads showed (a filtered list, an item read with a query) are known to exist, with the fields
 * those reads prove: their item read is answered from the state, or an explained miss where fields are unknown,
 * never the app's not-found.
 */
import { describe, expect, it } from "vitest";
import { learnSpecs, list, twinRequest } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";
import { namesItsFields } from "./projected-reads.js";
import { unevenKeys } from "./state-walk.js";

const A = { id: 1, title: "A", status: "open", owner: { id: 5 } };
const B = { id: 2, title: "B", status: "closed" };
const C = { id: 3, title: "C", status: "closed", owner: { id: 5 } };

/** An item read of A: the collection's item route (the walk meets it first). */
const itemA = { path: "/api/things/1", status: 200, res: A };

function read(specs: Parameters<typeof learnSpecs>[0], path: string) {
  const { model, seed } = learnSpecs([...specs, itemA]);
  const ep = createEpisode(model, seed, { episodeId: "e" });
  return { model, res: handleRequest(model, ep, twinRequest("GET", path)) };
}

describe("entities query reads showed", () => {
  it("knows an entity only a filtered list showed when no entity was known yet", () => {
    const { model, seed } = learnSpecs([
      { path: "/api/things?status=closed", status: 200, res: [B] },
      { path: "/api/things/9", status: 404, res: { error: "not found" } },
    ]);
    const res = handleRequest(
      model,
      createEpisode(model, seed, { episodeId: "e" }),
      twinRequest("GET", "/api/things/2"),
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ kind: "json", value: B });
  });

  it("takes a field the same answer shows on some entities only as one the app leaves out per entity", () => {
    const { model, res } = read(
      [list([A]), { path: "/api/things?status=closed", status: 200, res: [B, C] }],
      "/api/things/2",
    );
    expect(model.collections[0]!.unknown_fields).toBeUndefined();
    expect(res.body).toEqual({ kind: "json", value: B });
  });

  it("refuses to vouch for a field every known entity holds that a lone filtered entity lacks: an explained miss", () => {
    const { model, res } = read(
      [list([A]), { path: "/api/things?status=closed", status: 200, res: [B] }],
      "/api/things/2",
    );
    expect(model.collections[0]!.unknown_fields).toEqual({ "2": ["owner"] });
    expect(res.status).toBe(501);
    expect(res.served_by).toBe("miss");
  });

  it("knows an entity an item read with a query showed, without the expansion it carried", () => {
    const { model, seed } = learnSpecs([
      list([A]),
      { path: "/api/things/3?include=notes", status: 200, res: { ...C, notes: [{ id: 9 }] } },
    ]);
    expect(seed.collections["things"]).toEqual([A, C]);
    expect(model.collections[0]!.unknown_fields).toBeUndefined();
  });

  it("marks the fields a projected item read left out unknown, and answers its item read with an explained miss", () => {
    const { model, res } = read(
      [list([A]), { path: "/api/things/3?fields=id,title", status: 200, res: { id: 3, title: "C" } }],
      "/api/things/3",
    );
    expect(model.collections[0]!.unknown_fields).toEqual({ "3": ["owner", "status"] });
    expect(res.status).toBe(501);
  });

  it("refuses an item read with a query when no entity is known whole (its shape cannot be told from an expansion)", () => {
    const { seed } = learnSpecs([
      { path: "/api/things/3?include=notes", status: 200, res: { ...C, notes: [] } },
    ]);
    expect(seed.collections["things"] ?? []).toEqual([]);
  });

  it("refuses a projection when no entity is known: nothing tells what it lacks", () => {
    const { seed } = learnSpecs([
      {
        path: "/api/things?fields=id,title",
        status: 200,
        res: [
          { id: 2, title: "B" },
          { id: 3, title: "C" },
        ],
      },
    ]);
    expect(seed.collections["things"] ?? []).toEqual([]);
  });

  it("a later whole read of the entity clears what was unknown", () => {
    const { model, res } = read(
      [
        list([A]),
        { path: "/api/things?status=closed", status: 200, res: [B] },
        { path: "/api/things?title=B", status: 200, res: [B, A] },
      ],
      "/api/things/2",
    );
    expect(model.collections[0]!.unknown_fields).toBeUndefined();
    expect(res.status).toBe(200);
  });
});

describe("unevenKeys and namesItsFields", () => {
  it("finds the keys some entities of an answer hold and others not", () => {
    expect([...unevenKeys([A, B])]).toEqual(["owner"]);
    expect([...unevenKeys([B])]).toEqual([]);
  });

  it("finds a parameter naming every field the answer shows, and no other", () => {
    expect(namesItsFields([["_fields", "id,title,tags"]], [{ id: 1, title: "x" }])).toBe(true);
    expect(namesItsFields([["title", "x"]], [{ id: 1, title: "x" }])).toBe(false);
  });
});
