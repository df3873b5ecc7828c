/**
 * Renames in a hierarchy of path ids: the files under a renamed folder move with it only where a read after a
 * recorded rename showed one moved (and none still at its old path); otherwise a rename of a folder holding files
 * is an explained 501, and a rename of an entity with nothing under it is served as before.
 */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, twinRequest as send } from "../../test/support/learn-specs.js";
import { movedEntity } from "../model/descendant-move.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const T = Date.UTC(2026, 2, 1, 10, 0, 0);
const file = (path: string, content: string | null) => ({ path, kind: "file", content });
const folder = (path: string, kids: object[] | null = null) => ({ path, kind: "folder", content: kids });
const missing = (path: string) => ({ message: `no such file: '${path}'` });
const ROOT = { path: "", content: [folder("docs"), file("readme.md", null)] };

/** Lists the root and `docs` (holding `docs/a.md`), reads both files, then renames `docs` to `notes`; `after` follows. */
function recording(after: RecordSpec[]): RecordSpec[] {
  const specs: RecordSpec[] = [
    { path: "/api/files", status: 200, res: ROOT },
    { path: "/api/files/docs", status: 200, res: folder("docs", [file("docs/a.md", null)]) },
    { path: "/api/files/docs/a.md", status: 200, res: file("docs/a.md", "A") },
    { path: "/api/files/readme.md", status: 200, res: file("readme.md", "# Hi") },
    { path: "/api/files/nope.md", status: 404, res: missing("nope.md") },
    { method: "PATCH", path: "/api/files/docs", status: 200, req: { path: "notes" }, res: folder("notes") },
    ...after,
  ];
  return specs.map((s, i) => ({ time: T + 1000 * (i + 1), ...s }));
}

const json = (a: ReturnType<typeof handleRequest>) => (a.body?.kind === "json" ? a.body.value : null);
const rename = (specs: RecordSpec[]) =>
  learnSpecs(specs).model.write_rules.find((r) => r.tool_name === "patch_files_by_id")!;

describe("descendants of a renamed entity", () => {
  it("gives a descendant the new prefix in its id and the fields holding its own id, keeping every other value", () => {
    // A text naming a path under the old folder, or the folder itself, is what the entity holds, not where it is.
    const e = { path: "docs/sub/a.md", parent: "docs/sub", content: "docs/guide.md", top: "docs", size: 3 };
    expect(movedEntity(e, "docs", "notes", "/", "docs/sub/a.md")).toEqual({
      path: "notes/sub/a.md",
      parent: "docs/sub",
      content: "docs/guide.md",
      top: "docs",
      size: 3,
    });
  });

  it("moves them with it where a read after a recorded rename showed one moved", () => {
    const specs = recording([
      { path: "/api/files/notes/a.md", status: 200, res: file("notes/a.md", "A") },
      { path: "/api/files/notes", status: 200, res: folder("notes", [file("notes/a.md", null)]) },
      { path: "/api/files/docs", status: 404, res: missing("docs") },
    ]);
    expect(rename(specs).descendants).toEqual({ separator: "/", moves: true, shown_at: 6 });
    const { model, seed } = learnSpecs(specs);
    // The training's own walk moved the file: the seed holds it at its new path only.
    const paths = (seed.collections["files"] as { path: string }[]).map((e) => e.path);
    expect(paths.filter((p) => p.endsWith("a.md"))).toEqual(["notes/a.md"]);
    const ep = createEpisode(model, seed, { episodeId: "mv" });
    const moved = handleRequest(model, ep, send("PATCH", "/api/files/notes", { path: "archive" }));
    expect([moved.status, (json(moved) as { path: string }).path]).toEqual([200, "archive"]);
    const now = handleRequest(model, ep, send("GET", "/api/files/archive/a.md"));
    expect([now.status, json(now)]).toEqual([200, file("archive/a.md", "A")]);
    const old = handleRequest(model, ep, send("GET", "/api/files/notes/a.md"));
    expect([old.status, json(old)]).toEqual([404, missing("notes/a.md")]);
    const folderNow = json(handleRequest(model, ep, send("GET", "/api/files/archive"))) as {
      content: unknown[];
    };
    expect(folderNow.content).toEqual([file("archive/a.md", null)]);
    // Into itself: never recorded, so the explained 501 and nothing moves.
    const into = handleRequest(model, ep, send("PATCH", "/api/files/archive", { path: "archive/sub" }));
    expect([into.status, into.served_by, (json(into) as { error: string }).error]).toEqual([
      501,
      "miss",
      "unknown_descendants",
    ]);
    expect(handleRequest(model, ep, send("GET", "/api/files/archive/a.md")).status).toBe(200);
  });

  it("refuses the move where a read after the rename still showed one at its old path (the rule rightly refused)", () => {
    const specs = recording([
      { path: "/api/files/docs/a.md", status: 200, res: file("docs/a.md", "A") },
      { path: "/api/files/notes", status: 200, res: folder("notes", [file("notes/a.md", null)]) },
    ]);
    expect(rename(specs).descendants).toEqual({ separator: "/", moves: false, shown_at: 6 });
    const { model, seed } = learnSpecs(specs);
    const ep = createEpisode(model, seed, { episodeId: "no" });
    const refused = handleRequest(model, ep, send("PATCH", "/api/files/notes", { path: "archive" }));
    expect([refused.status, json(refused)]).toEqual([
      501,
      {
        error: "unknown_descendants",
        message:
          'patch_files_by_id would rename "notes", which has 1 entity of files under it; the recording showed the entities under a renamed one not moved with it (records[6]), so the twin does not guess whether they move, stay or go',
        id: "notes",
      },
    ]);
    // Nothing was written: the folder and its file stand where they were.
    expect(handleRequest(model, ep, send("GET", "/api/files/notes/a.md")).status).toBe(200);
    expect(handleRequest(model, ep, send("GET", "/api/files/archive")).status).toBe(404);
  });

  it("answers an explained 501 for a folder holding files where no recorded rename had any; a file renames as before", () => {
    // The one recorded rename moves a file, under which nothing lies.
    const specs = recording([]).slice(0, 5);
    specs.push(
      {
        time: T + 6000,
        method: "PATCH",
        path: "/api/files/readme.md",
        status: 200,
        req: { path: "docs/readme.md" },
        res: file("docs/readme.md", null),
      },
      { time: T + 7000, path: "/api/files/docs/readme.md", status: 200, res: file("docs/readme.md", "# Hi") },
      { time: T + 8000, path: "/api/files/readme.md", status: 404, res: missing("readme.md") },
    );
    expect(rename(specs).descendants).toEqual({ separator: "/" });
    const { model, seed } = learnSpecs(specs);
    const ep = createEpisode(model, seed, { episodeId: "unk" });
    const refused = handleRequest(model, ep, send("PATCH", "/api/files/docs", { path: "archive" }));
    expect([refused.status, (json(refused) as { message: string }).message]).toEqual([
      501,
      'patch_files_by_id would rename "docs", which has 2 entities of files under it; the recording never showed what happens to the entities under a renamed one, so the twin does not guess whether they move, stay or go',
    ]);
    expect(handleRequest(model, ep, send("GET", "/api/files/docs/a.md")).status).toBe(200);
    // A file has nothing under it: its rename is served as before.
    const moved = handleRequest(model, ep, send("PATCH", "/api/files/docs/a.md", { path: "docs/b.md" }));
    expect([moved.status, (json(moved) as { path: string }).path]).toEqual([200, "docs/b.md"]);
    expect(handleRequest(model, ep, send("GET", "/api/files/docs/a.md")).status).toBe(404);
  });
});
