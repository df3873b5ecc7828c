/**
 * The root of a path tree: list answers that are the root folder (an object holding the id field as "" and the top
 * level under the children key) are answered as that folder, its other fields as last recorded, and take the
 * projections its folders' item reads confirmed (`?content=0`); rightly refused where a list answer is no root.
 */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, twinRequest as send } from "../../test/support/learn-specs.js";
import type { Entity } from "../model/model-schema.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const entry = (path: string, kind: string, content: unknown, modified: string) => ({
  path,
  kind,
  modified,
  content,
  format: content === null ? null : kind === "folder" ? "json" : "text",
});
const root = (modified: string, content: unknown[]) => entry("", "folder", content, modified);
const T1 = "2026-03-01T10:00:00Z";
const T2 = "2026-03-01T10:05:00Z";

function recording(second: Entity = root(T2, [entry("docs", "folder", null, T1)])): RecordSpec[] {
  return [
    { path: "/api/files", status: 200, res: root(T1, [entry("docs", "folder", null, T1)]) },
    {
      path: "/api/files/docs",
      status: 200,
      res: entry("docs", "folder", [entry("docs/a.md", "file", null, T1)], T1),
    },
    { path: "/api/files/docs?content=0", status: 200, res: entry("docs", "folder", null, T1) },
    { path: "/api/files/docs/a.md", status: 200, res: entry("docs/a.md", "file", "A", T1) },
    { path: "/api/files", status: 200, res: second },
  ];
}

const body = (a: ReturnType<typeof handleRequest>) => (a.body?.kind === "json" ? a.body.value : null);

/** The recording with a create inside `docs`: `{ext}` names an untitled file there. */
function withCreate(second?: Entity): RecordSpec[] {
  const start = Date.parse(T2) - 10_000;
  const specs: RecordSpec[] = [
    ...recording(second),
    {
      method: "POST",
      path: "/api/files/docs",
      status: 201,
      req: { ext: ".md" },
      res: entry("docs/untitled.md", "file", null, T2),
    },
    { path: "/api/files/docs/untitled.md", status: 200, res: entry("docs/untitled.md", "file", "", T2) },
  ];
  // Timed, one second apart: the new file's time is the clock's.
  return specs.map((spec, i) => ({ ...spec, time: start + i * 1000 }));
}

describe("the root of a path tree", () => {
  it("answers a list read as the root folder, as last recorded, with the top level the state holds", () => {
    const { model, seed } = learnSpecs(recording());
    expect(model.collections.find((c) => c.name === "files")?.tree?.root).toEqual(root(T2, []));
    const ep = createEpisode(model, seed, { episodeId: "root" });
    expect(body(handleRequest(model, ep, send("GET", "/api/files")))).toEqual(
      root(T2, [entry("docs", "folder", null, T1)]),
    );
  });

  it("answers the root with a projection its folders' item reads confirmed", () => {
    const { model, seed } = learnSpecs(recording());
    const ep = createEpisode(model, seed, { episodeId: "projection" });
    const a = handleRequest(model, ep, send("GET", "/api/files", null, [["content", "0"]]));
    expect([a.status, body(a)]).toEqual([200, { ...root(T2, []), content: null, format: null }]);
  });

  it("serves a create at the base path as the create inside a folder, into the root", () => {
    const { model, seed } = learnSpecs(withCreate());
    const ep = createEpisode(model, seed, { episodeId: "create" });
    const made = handleRequest(model, ep, send("POST", "/api/files", { ext: ".txt" }));
    expect([made.status, (body(made) as { path: string }).path]).toEqual([201, "untitled.txt"]);
    const listed = body(handleRequest(model, ep, send("GET", "/api/files"))) as {
      content: { path: string }[];
    };
    expect(listed.content.map((e) => e.path)).toEqual(["docs", "untitled.txt"]);
    // No `ext`: the recorded creates built the name from it, so the twin does not name the file.
    const none = handleRequest(model, ep, send("POST", "/api/files", {}));
    expect([none.status, (body(none) as { error: string }).error]).toEqual([501, "unbuilt_id"]);
    expect((body(none) as { message: string }).message).toBe(
      "post_files_by_id gives the new files entity no id for this request (the recorded creates built it from /ext); the recording never showed what the app names it then",
    );
  });

  it("answers a withheld create at the base path with its explained 501, not a 404 for a route the app lacks", () => {
    // No read after the create: it is withheld (not read back).
    const { model, seed, coverage } = learnSpecs(withCreate().slice(0, -1));
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason])).toEqual([
      ["post_files_by_id", "not_read_back"],
    ]);
    const ep = createEpisode(model, seed, { episodeId: "withheld" });
    const a = handleRequest(model, ep, send("POST", "/api/files", { ext: ".txt" }));
    expect([a.status, (body(a) as { error: string }).error, a.rule]).toEqual([
      501,
      "not_served",
      "post_files_by_id",
    ]);
  });

  it("takes no root where a list answer holds another id than the empty path, and routes no create there", () => {
    const home = { ...root(T2, [entry("docs", "folder", null, T1)]), path: "home" };
    const { model, seed } = learnSpecs(withCreate(home));
    expect(model.collections.find((c) => c.name === "files")?.tree?.root).toBeUndefined();
    const ep = createEpisode(model, seed, { episodeId: "no-root" });
    expect(handleRequest(model, ep, send("POST", "/api/files", { ext: ".txt" })).status).toBe(404);
  });
});
