/**
 * Item reads whose every parameter the recording confirmed as an assertion (`?kind=folder` answers the entity as
 * the plain item read does where its field equals the value) are walked as plain item reads: a folder's children
 * such a read shows are that folder's whole list, so an id it listed is known (served, or its unknown fields
 * explained) and an id it did not list is the not-found. Where the assertion is refuted, or a parameter has no
 * confirmed meaning, the read stays a sample: its folder's other ids are explained misses (`unlisted_collection`).
 */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, twinRequest as send } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";
import { answersAsPlainRead } from "./item-assertions.js";

const entry = (path: string, kind: string, content: unknown) => ({
  path,
  kind,
  content,
  format: content === null ? null : kind === "folder" ? "json" : "text",
});
const recording = (extra: RecordSpec[] = []): RecordSpec[] => [
  {
    path: "/api/files",
    status: 200,
    res: entry("", "folder", [entry("docs", "folder", null), entry("misc", "folder", null)]),
  },
  {
    path: "/api/files/docs?kind=folder",
    status: 200,
    res: entry("docs", "folder", [entry("docs/a.md", "file", null), entry("docs/b.md", "file", null)]),
  },
  { path: "/api/files/docs/a.md?kind=file", status: 200, res: entry("docs/a.md", "file", "A") },
  { path: "/api/files/misc/c.md", status: 200, res: entry("misc/c.md", "file", "C") },
  {
    path: "/api/files/misc/box",
    status: 200,
    res: entry("misc/box", "folder", [entry("misc/box/d.md", "file", null)]),
  },
  ...extra,
];
const ask = (specs: RecordSpec[], path: string, query: [string, string][] = []) => {
  const { model, seed } = learnSpecs(specs);
  const a = handleRequest(
    model,
    createEpisode(model, seed, { episodeId: "a" }),
    send("GET", path, null, query),
  );
  const v = a.body?.kind === "json" ? (a.body.value as Record<string, unknown>) : null;
  return { status: a.status, error: v?.["error"], path: v?.["path"] };
};

describe("item reads that only assert a field, walked as plain item reads", () => {
  it("takes a folder's children such a read showed as its whole list", () => {
    const { model } = learnSpecs(recording());
    expect(model.collections[0]!.item_assertions?.map((a) => a.param)).toEqual(["kind"]);
    expect(model.collections[0]!.tree?.listed?.folders).toEqual(["", "docs", "misc/box"]);
  });

  it("knows a listed child: its content the listing left out is explained, an unknown sibling is the not-found", () => {
    // b.md was only listed (content null there): the honest miss for the fields a listing leaves out.
    expect(ask(recording(), "/api/files/docs/b.md", [["kind", "file"]])).toMatchObject({
      status: 501,
      error: "unknown_fields",
    });
    // a.md was read with an assertion that held: taken in whole, served from the state as the plain read.
    expect(ask(recording(), "/api/files/docs/a.md")).toEqual({
      status: 200,
      error: undefined,
      path: "docs/a.md",
    });
    expect(ask(recording(), "/api/files/docs/zzz.md").status).toBe(404);
  });

  it("keeps an id of a folder no read listed an explained miss (`unlisted_collection`)", () => {
    expect(ask(recording(), "/api/files/misc/zzz.md")).toMatchObject({
      status: 501,
      error: "unlisted_collection",
    });
  });

  it("refuses it where a read answered the entity though its field differed: the folder stays unlisted", () => {
    const refuted = recording([
      { path: "/api/files/misc/c.md?kind=folder", status: 200, res: entry("misc/c.md", "file", "C") },
    ]);
    const { model } = learnSpecs(refuted);
    expect(model.collections[0]!.item_assertions ?? []).toEqual([]);
    expect(model.collections[0]!.tree?.listed?.folders).toEqual(["", "misc/box"]);
    expect(ask(refuted, "/api/files/docs/b.md")).toMatchObject({ status: 501, error: "unlisted_collection" });
  });
});

describe("answersAsPlainRead", () => {
  const asserted = new Map([["kind", ["kind"]]]);
  const file = entry("a.md", "file", "A");
  const listedFile = entry("a.md", "file", null);
  type Shown = Record<string, unknown>;
  const plain = (query: [string, string][], answer: Shown = file, held: Shown | null = listedFile) =>
    answersAsPlainRead(asserted, query, answer, held);
  it("holds when every parameter is an assertion both the state's entity and the answer equal", () => {
    expect(plain([["kind", "file"]])).toBe(true);
  });
  it("refuses a differing field, one the answer nulls, a parameter of no confirmed meaning or sent twice", () => {
    expect(plain([["kind", "folder"]])).toBe(false);
    expect(plain([["kind", "file"]], { ...file, kind: null })).toBe(false);
    const withDepth: [string, string][] = [
      ["kind", "file"],
      ["depth", "1"],
    ];
    expect(plain(withDepth)).toBe(false);
    const twice: [string, string][] = [
      ["kind", "file"],
      ["kind", "file"],
    ];
    expect(plain(twice)).toBe(false);
    expect(answersAsPlainRead(undefined, [["kind", "file"]], file, listedFile)).toBe(false);
  });
  it("refuses it where the state held no entity, or held the asserted field null (judged only by its answer)", () => {
    expect(plain([["kind", "file"]], file, null)).toBe(false);
    expect(plain([["kind", "file"]], file, { ...listedFile, kind: null })).toBe(false);
  });
});
