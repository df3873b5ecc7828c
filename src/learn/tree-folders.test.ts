/**
 * Which folders of a path tree the twin knows whole (`tree.listed`): a folder some read showed every child of
 * answers an unknown child with the not-found; a folder only a listing of its parent showed (its children never
 * shown) answers one with the explained 501, never the app's not-found, unless the recording showed that very id absent.
 */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, twinRequest as send } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const entry = (path: string, kind: string, content: unknown) => ({
  path,
  kind,
  content,
  format: content === null ? null : kind === "folder" ? "json" : "text",
});
const folders = [entry("docs", "folder", null), entry("misc", "folder", null)];
const recording = (extra: RecordSpec[] = []): RecordSpec[] => [
  { path: "/api/files", status: 200, res: entry("", "folder", folders) },
  { path: "/api/files/docs", status: 200, res: entry("docs", "folder", [entry("docs/a.md", "file", null)]) },
  { path: "/api/files/docs/a.md", status: 200, res: entry("docs/a.md", "file", "A") },
  ...extra,
];
const error = (a: ReturnType<typeof handleRequest>) =>
  a.body?.kind === "json" ? (a.body.value as { error?: string }).error : undefined;

describe("folders of a path tree the recording listed whole", () => {
  it("keeps the folders read with their children, and the ids shown absent", () => {
    const { model } = learnSpecs(recording([{ path: "/api/files/misc/gone.md", status: 404, res: null }]));
    expect(model.collections[0]!.tree?.listed).toEqual({
      folders: ["", "docs"],
      missing: ["misc/gone.md"],
    });
  });

  it("answers an unknown child of a listed folder with the not-found", () => {
    const { model, seed } = learnSpecs(recording());
    const ep = createEpisode(model, seed, { episodeId: "listed" });
    expect(handleRequest(model, ep, send("GET", "/api/files/docs/b.md")).status).toBe(404);
    expect(handleRequest(model, ep, send("GET", "/api/files/nope.md")).status).toBe(404);
  });

  it("refuses the not-found for a child of a folder no read listed: the explained 501", () => {
    const { model, seed } = learnSpecs(recording());
    const ep = createEpisode(model, seed, { episodeId: "unlisted" });
    const a = handleRequest(model, ep, send("GET", "/api/files/misc/b.md"));
    expect([a.status, error(a)]).toEqual([501, "unlisted_collection"]);
  });

  it("answers an id the recording showed absent with the not-found, even in a folder no read listed", () => {
    const { model, seed } = learnSpecs(
      recording([{ path: "/api/files/misc/gone.md", status: 404, res: null }]),
    );
    const ep = createEpisode(model, seed, { episodeId: "absent" });
    expect(handleRequest(model, ep, send("GET", "/api/files/misc/gone.md")).status).toBe(404);
  });
});
