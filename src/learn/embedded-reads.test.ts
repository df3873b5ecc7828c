/**
 * Replayed reads that embed a collection's entities: answered from state where every recorded answer confirms
 * the relation, stale (an explained miss) after a write to what an unconfirmed one embeds.
 */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";
import type { TwinRequest } from "../serve/runtime/twin-types.js";
import { type EmbedSource, findEmbeds } from "./embedded-reads.js";

const I: Record<string, unknown>[] = [
  { id: 1, title: "Milk", done: true, list: "home" },
  { id: 2, title: "Bread", done: false, list: "home" },
  { id: 3, title: "Soap", done: false, list: "home" },
];
const items = (...rows: (object | undefined)[]): RecordSpec => ({
  path: "/api/items",
  status: 200,
  res: rows,
});
const dashboard = (res: unknown): RecordSpec => ({ path: "/api/dashboard", status: 200, res });
const create: RecordSpec = {
  method: "POST",
  path: "/api/items",
  status: 201,
  req: { title: "Soap", list: "home" },
  res: I[2],
};
const patch: RecordSpec = {
  method: "PATCH",
  path: "/api/items/1",
  status: 200,
  req: { title: "Oat milk" },
  res: { ...I[0], title: "Oat milk" },
};
const req = (method: string, path: string, body: unknown = null): TwinRequest => ({
  method,
  path,
  query: [],
  headers: body === null ? {} : { "content-type": "application/json" },
  body: body === null ? null : { kind: "json", value: body },
});

function twin(specs: RecordSpec[]) {
  const { model, seed } = learnSpecs(specs);
  const episode = createEpisode(model, seed, { episodeId: "e" });
  return { model, ask: (r: TwinRequest) => handleRequest(model, episode, r) };
}

describe("replayed reads that embed a collection", () => {
  it("rebuilds a whole list the recorded answers confirmed (it followed the state through a create)", () => {
    const { model, ask } = twin([
      items(I[0], I[1]),
      dashboard({ theme: "dark", panels: { recent: [I[0], I[1]] } }),
      create,
      items(...I),
      dashboard({ theme: "dark", panels: { recent: I } }),
    ]);
    const replay = model.replays.find((r) => r.path_and_query === "/api/dashboard")!;
    expect(replay.embeds).toEqual([
      expect.objectContaining({
        collection: "items",
        pointer: "/panels/recent",
        kind: "list",
        confirmed: true,
      }),
    ]);
    expect(ask(req("POST", "/api/items", { title: "Jam", list: "home" })).status).toBe(201);
    const got = ask(req("GET", "/api/dashboard"));
    expect(got.served_by).toBe("state");
    expect(got.body).toEqual({
      kind: "json",
      value: {
        theme: "dark",
        panels: { recent: [...I, { id: 4, title: "Jam", done: false, list: "home" }] },
      },
    });
  });

  it("is stale after a write to a list it did not follow (a subset: the two newest), naming the write", () => {
    const { model, ask } = twin([
      items(I[0], I[1]),
      dashboard({ panels: { recent: [I[0], I[1]] } }),
      create,
      items(...I),
      dashboard({ panels: { recent: [I[1], I[2]] } }),
    ]);
    const replay = model.replays.find((r) => r.path_and_query === "/api/dashboard")!;
    expect(replay.embeds).toEqual([expect.objectContaining({ kind: "list", confirmed: false })]);
    // Before any write the recorded answer is the app's.
    expect(ask(req("GET", "/api/dashboard")).served_by).toBe("replay");
    ask(req("POST", "/api/items", { title: "Jam", list: "home" }));
    const got = ask(req("GET", "/api/dashboard"));
    expect([got.status, got.served_by]).toEqual([409, "miss"]);
    expect(got.body).toMatchObject({
      kind: "json",
      value: { error: "stale_replay", collection: "items", change: { kind: "created", id: "4" } },
    });
    const value = (got.body as { value: { message: string; writes: string[] } }).value;
    expect(value.writes).toEqual(["post_items"]);
    expect(value.message).toContain("created items 4 (by post_items)");
  });

  it("rebuilds an embedded entity from state after an update; a write to another entity leaves it alone", () => {
    const { model, ask } = twin([
      items(I[0], I[1]),
      { path: "/api/settings", status: 200, res: { owner: I[0], theme: "dark" } },
      { path: "/api/pinned", status: 200, res: { pinned: { ...I[1], title: "Old bread" } } },
      patch,
      { path: "/api/items/1", status: 200, res: { ...I[0], title: "Oat milk" } },
    ]);
    const embeds = (p: string) => model.replays.find((r) => r.path_and_query === p)!.embeds;
    expect(embeds("/api/settings")).toEqual([
      expect.objectContaining({ kind: "entity", id: "1", pointer: "/owner", confirmed: true }),
    ]);
    expect(embeds("/api/pinned")).toEqual([
      expect.objectContaining({ kind: "entity", id: "2", confirmed: false }),
    ]);
    ask(req("PATCH", "/api/items/1", { title: "Tea" }));
    const got = ask(req("GET", "/api/settings"));
    expect(got.served_by).toBe("state");
    expect(got.body).toEqual({ kind: "json", value: { owner: { ...I[0], title: "Tea" }, theme: "dark" } });
    // Item 2 did not change: its recorded answer stands.
    expect(ask(req("GET", "/api/pinned")).served_by).toBe("replay");
  });

  it("marks a count recorded with one value stale after a write to the collection it counts", () => {
    const { model, ask } = twin([
      items(I[0], I[1]),
      { path: "/api/stats", status: 200, res: { count: 2 } },
      patch,
      { path: "/api/items/1", status: 200, res: { ...I[0], title: "Oat milk" } },
    ]);
    expect(model.replays.find((r) => r.path_and_query === "/api/stats")!.embeds).toEqual([
      expect.objectContaining({ kind: "count", pointer: "/count", confirmed: false }),
    ]);
    expect(ask(req("GET", "/api/stats")).body).toEqual({ kind: "json", value: { count: 2 } });
    ask(req("PATCH", "/api/items/2", { title: "Rye" }));
    expect(ask(req("GET", "/api/stats")).body).toMatchObject({
      value: { error: "stale_replay", change: { kind: "updated", id: "2" }, writes: ["patch_items_by_id"] },
    });
  });
});

describe("a replayed read of a collection's own list", () => {
  it("embeds the entities only it showed, so it is stale once the episode changes them", () => {
    // `?list=home&order=asc` is the first read to show items 2 and 3, and no rule explains it: replayed as recorded.
    const withQuery: RecordSpec = { path: "/api/items?list=home&order=asc", status: 200, res: [I[2], I[1]] };
    const patched = { ...I[0], title: "Oat milk" };
    const { model, ask } = twin([withQuery, items(...I), patch, items(patched, I[1], I[2])]);
    const replay = model.replays.find((r) => r.path_and_query === "/api/items?list=home&order=asc")!;
    expect(replay.embeds?.map((e) => [e.collection, e.kind, e.confirmed])).toEqual([
      ["items", "list", false],
    ]);
    const recorded = {
      ...req("GET", "/api/items"),
      query: [
        ["list", "home"],
        ["order", "asc"],
      ] as [string, string][],
    };
    expect(ask(recorded).served_by).toBe("replay");
    expect(ask(req("PATCH", "/api/items/3", { title: "Rye" })).status).toBe(200);
    const after = ask(recorded);
    expect([after.status, after.served_by, (after.body as { value: { error: string } }).value.error]).toEqual(
      [409, "miss", "stale_replay"],
    );
  });
});

describe("a replayed query read of a collection's own list that embeds no entity", () => {
  it("is stale after any write of the episode to the collection, an empty answer too", () => {
    // `?starred=yes` answered nothing, and no rule explains it: replayed as recorded until the episode writes.
    const empty: RecordSpec = { path: "/api/items?starred=yes", status: 200, res: [] };
    const { model, ask } = twin([items(I[0], I[1]), empty, create, items(...I)]);
    const replay = model.replays.find((r) => r.path_and_query === "/api/items?starred=yes")!;
    expect(replay.embeds?.map((e) => [e.collection, e.pointer, e.kind, e.confirmed])).toEqual([
      ["items", "", "list", false],
    ]);
    const recorded = {
      ...req("GET", "/api/items"),
      query: [["starred", "yes"]] as [string, string][],
    };
    expect([ask(recorded).status, ask(recorded).served_by]).toEqual([200, "replay"]);
    // A create may join what the query picks: the recorded [] is no longer known to be the app's answer.
    expect(ask(req("POST", "/api/items", { title: "Stapler", list: "office" })).status).toBe(201);
    const after = ask(recorded);
    expect([after.status, after.served_by, (after.body as { value: { error: string } }).value.error]).toEqual(
      [409, "miss", "stale_replay"],
    );
  });
});

describe("findEmbeds", () => {
  const source = (rows: object[]): EmbedSource => ({
    name: "issues",
    idField: "id",
    entities: new Map(rows.map((r) => [String((r as { id: number }).id), r as Record<string, unknown>])),
    full: () => rows as Record<string, unknown>[],
  });
  const issues = [
    { id: 1, subject: "Crash", project: { id: 1, name: "Web" }, status: "open", author: "ann" },
  ];

  it("rejects another entity that only shares an id and a field or two (a version beside issue 1)", () => {
    const version = { id: 1, project: { id: 1, name: "Web" }, status: "locked", name: "1.0", author: "bob" };
    expect(findEmbeds({ version }, [source(issues)], false)).toEqual([]);
    const membership = { id: 1, project: { id: 1, name: "Web" }, user: "ann" };
    expect(findEmbeds({ memberships: [membership] }, [source(issues)], false)).toEqual([]);
  });

  it("takes an entity most of whose shown fields agree, stale in one (not exact)", () => {
    const shown = { ...issues[0]!, status: "closed" };
    expect(findEmbeds({ data: { issue: shown } }, [source(issues)], false)).toEqual([
      {
        collection: "issues",
        pointer: "/data/issue",
        kind: "entity",
        id: "1",
        keys: Object.keys(shown),
        exact: false,
      },
    ]);
  });
});
