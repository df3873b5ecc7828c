/**
 * Writes read back in a list's view, and clocks the app stamps again: a file saved into a folder and first seen in
 * that folder's listing (which gives `content` null for every file) is judged again by the item read after it, and
 * a folder whose `last_modified` a later save into it moved on is still confirmed by its read, its clock explained
 * by its own answer. Rightly refused: a time the request sent and the app stored otherwise still disagrees.
 */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, twinRequest as send, T0 } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const iso = (ms: number) => new Date(ms).toISOString();
const at = (s: number) => T0 + s * 1000;

/** A Jupyter-style entry: `content` and `format` null in a listing and in a save's answer. */
const entry = (
  path: string,
  type: string,
  stamp: number,
  content: unknown = null,
  format: unknown = null,
) => ({
  name: path.split("/").pop(),
  path,
  type,
  last_modified: iso(at(stamp)),
  content,
  format,
});

function recording(): RecordSpec[] {
  return [
    {
      path: "/api/files",
      status: 200,
      time: at(0),
      res: entry("", "directory", 0, [entry("notes.md", "file", 0)], "json"),
    },
    {
      path: "/api/files/notes.md",
      status: 200,
      time: at(1),
      res: entry("notes.md", "file", 0, "# N", "text"),
    },
    {
      method: "PUT",
      path: "/api/files/drafts",
      status: 201,
      time: at(2),
      req: { type: "directory" },
      res: entry("drafts", "directory", 2),
    },
    {
      method: "PUT",
      path: "/api/files/drafts/idea.md",
      status: 201,
      time: at(3),
      req: { type: "file", format: "text", content: "# Idea" },
      res: entry("drafts/idea.md", "file", 3),
    },
    // The folder's listing: the new file with content null, the folder restamped by the save into it.
    {
      path: "/api/files/drafts",
      status: 200,
      time: at(4),
      res: entry("drafts", "directory", 3, [entry("drafts/idea.md", "file", 3)], "json"),
    },
    {
      path: "/api/files/drafts/idea.md",
      status: 200,
      time: at(5),
      res: entry("drafts/idea.md", "file", 3, "# Idea", "text"),
    },
    {
      method: "PUT",
      path: "/api/files/drafts/idea.md",
      status: 200,
      time: at(6),
      req: { type: "file", format: "text", content: "# Idea, edited" },
      res: entry("drafts/idea.md", "file", 6),
    },
    {
      path: "/api/files/drafts/idea.md",
      status: 200,
      time: at(7),
      res: entry("drafts/idea.md", "file", 6, "# Idea, edited", "text"),
    },
    {
      path: "/api/files",
      status: 200,
      time: at(8),
      res: entry("", "directory", 2, [entry("drafts", "directory", 3), entry("notes.md", "file", 0)], "json"),
    },
  ];
}

const body = (a: ReturnType<typeof handleRequest>) =>
  (a.body?.kind === "json" ? a.body.value : null) as Record<string, unknown>;

describe("writes read back in a list's view, and clocks stamped again", () => {
  it("serves a save first seen in its folder's listing, by the item read after it", () => {
    const { model, seed, coverage } = learnSpecs(recording());
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason])).toEqual([]);
    const put = model.write_rules.find((r) => r.tool_name === "put_files_by_id")!;
    expect(put).toBeDefined();
    const ep = createEpisode(model, seed, { episodeId: "save" });
    const saved = handleRequest(
      model,
      ep,
      send("PUT", "/api/files/todo.md", { type: "file", format: "text", content: "- a" }),
    );
    expect(saved.status).toBe(201);
    const read = body(handleRequest(model, ep, send("GET", "/api/files/todo.md")));
    expect([read["content"], read["format"], read["name"]]).toEqual(["- a", "text", "todo.md"]);
  });

  it("explains a folder's clock by its own answer though a later save moved it on before the read", () => {
    const { model } = learnSpecs(recording());
    const put = model.write_rules.find((r) => r.tool_name === "put_files_by_id")!;
    const clock = JSON.stringify(put.fields.find((f) => f.field === "last_modified")?.rule);
    expect(clock).toContain('"clock"');
  });

  it("still refutes a write whose sent time the app stored otherwise", () => {
    const specs: RecordSpec[] = [
      { path: "/api/tasks", status: 200, time: at(0), res: [{ id: 1, due: "2026-01-01T00:00:00Z" }] },
      {
        method: "PATCH",
        path: "/api/tasks/1",
        status: 200,
        time: at(1),
        req: { due: "2026-02-01T00:00:00Z" },
        res: { id: 1, due: "2026-02-01T00:00:00Z" },
      },
      { path: "/api/tasks/1", status: 200, time: at(2), res: { id: 1, due: "2026-02-02T00:00:00Z" } },
    ];
    const { coverage } = learnSpecs(specs);
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason])).toEqual([
      ["patch_tasks_by_id", "read_back_disagrees"],
    ]);
  });
});
