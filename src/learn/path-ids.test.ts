/**
 * Ids that hold `/` (file paths): a greedy path parameter where entities hold the ids its paths embed, literal
 * segments after it, and folders that embed their children, read from the state after writes.
 */
import { describe, expect, it } from "vitest";
import { learnSpecs } from "../../test/support/learn-specs.js";
import { openApiFromModel } from "../bundle/openapi-document.js";
import { toolsFromModel } from "../bundle/tool-definitions.js";
import { toolRequest } from "../serve/mcp/tool-request.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";
import { buildTemplater } from "./path-template.js";

const file = (path: string, type = "file", content: unknown = null) => ({
  name: path.split("/").pop(),
  path,
  type,
  content,
});
const ROOT = { path: "", type: "directory", content: [file("docs", "directory"), file("readme.md")] };
const DOCS = { ...file("docs", "directory"), content: [file("docs/a.md"), file("docs/b.md")] };
const get = (path: string) => ({ method: "GET", path, query: [], headers: {}, body: null });
const templatesOf = (model: { endpoints: { method: string; template: string }[] }) =>
  model.endpoints.map((e) => `${e.method} ${e.template}`).sort();

describe("ids holding / (multi-segment path parameters)", () => {
  const specs = [
    { path: "/api/files", status: 200, res: ROOT },
    { path: "/api/files/docs", status: 200, res: DOCS },
    { path: "/api/files/readme.md", status: 200, res: file("readme.md", "file", "# Hi") },
    { path: "/api/files/docs/a.md", status: 200, res: file("docs/a.md", "file", "A") },
    { path: "/api/files/docs/a.md/checkpoints", status: 200, res: [{ id: "c1" }] },
  ];

  it("makes one greedy parameter of the ids entities hold, with literal segments after it", () => {
    const { model } = learnSpecs(specs);
    expect(templatesOf(model)).toEqual([
      "GET /api/files",
      "GET /api/files/{file_id+}/checkpoints",
      "GET /api/files/{id+}",
    ]);
    const c = model.collections.find((x) => x.name === "files")!;
    expect([c.id_field, c.item_endpoint, c.tree]).toEqual([
      "path",
      "get_files_by_id",
      // The list answers are the root folder (path ""): tree-root.test.ts.
      {
        separator: "/",
        children_key: "content",
        root: { ...ROOT, content: [] },
        // The root and docs were read with their children (tree-folders.test.ts).
        listed: { folders: ["", "docs"], missing: [] },
      },
    ]);
  });

  it("joins a path never listed under the greedy parameter rather than reading its end as a route", () => {
    const t = buildTemplater(
      [
        ["api", "files"],
        ["api", "files", "docs"],
        ["api", "files", "docs", "a.md"],
        ["api", "files", "docs", "never.md"],
        ["api", "files", "docs", "a.md", "checkpoints"],
      ],
      {
        idValues: new Set(),
        keysByList: new Map([["api/files", new Set(["docs"])]]),
        pathIds: new Set(["docs/a.md"]),
      },
    );
    expect(t(["api", "files", "docs", "never.md"])).toMatchObject({
      template: "/api/files/{id+}",
      segments: ["api", "files", "docs/never.md"],
      multi: [true],
    });
    expect(t(["api", "files", "docs", "a.md", "checkpoints"]).template).toBe(
      "/api/files/{file_id+}/checkpoints",
    );
  });

  it("keeps segments literal when no entity holds the id they would make (the hypothesis rejected)", () => {
    const { model } = learnSpecs([
      { path: "/docs/guides/intro", status: 200, res: { title: "Intro", body: "..." } },
      { path: "/docs/guides/setup", status: 200, res: { title: "Setup", body: "..." } },
      { path: "/api/files", status: 200, res: ROOT },
    ]);
    expect(templatesOf(model)).toEqual([
      "GET /api/files",
      "GET /docs/guides/intro",
      "GET /docs/guides/setup",
    ]);
    // A flat listing with no `/` in its ids and no folder read: an ordinary collection, not a tree.
    expect(model.collections.find((x) => x.name === "files")?.tree).toBeUndefined();
  });

  it("serves a file inside a folder, the folder's children and the top level from the state", () => {
    const { model, seed } = learnSpecs(specs);
    const ep = createEpisode(model, seed, { episodeId: "tree" });
    const read = (path: string) => {
      const a = handleRequest(model, ep, get(path));
      return [a.status, a.body?.kind === "json" ? a.body.value : null];
    };
    expect(read("/api/files/docs/a.md")).toEqual([200, file("docs/a.md", "file", "A")]);
    // b.md was only listed in its folder: the state holds it as the listing showed it, which gives its content null
    // where item reads give it, so its item read is an explained miss (list-view-items.test.ts).
    const listed = read("/api/files/docs/b.md");
    expect([listed[0], (listed[1] as { error: string }).error]).toEqual([501, "unknown_fields"]);
    expect(read("/api/files/docs")).toEqual([200, DOCS]);
    expect(read("/api/files")).toEqual([200, ROOT]);
    expect(read("/api/files/docs/zz.md")[0]).toBe(404);
  });

  it("does not take embedded entities for children when their ids are not the parent's plus one segment", () => {
    const { model } = learnSpecs([
      { path: "/api/files", status: 200, res: ROOT },
      {
        path: "/api/files/docs",
        status: 200,
        res: { ...file("docs", "directory"), content: [file("other/a.md")] },
      },
    ]);
    expect(model.collections.find((x) => x.name === "files")?.tree).toBeUndefined();
  });

  it("says how a greedy parameter is sent, in the tools and the OpenAPI document, and fills it with its /", () => {
    const { model } = learnSpecs(specs);
    const doc = openApiFromModel(model, "files", "1") as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(doc.paths).sort()).toEqual([
      "/api/files",
      "/api/files/{file_id}/checkpoints",
      "/api/files/{id}",
    ]);
    const op = doc.paths["/api/files/{id}"]!["get"] as { parameters: Record<string, unknown>[] };
    expect(op.parameters[0]).toMatchObject({ name: "id", in: "path", "x-apptwin-multi-segment": true });
    expect(String(op.parameters[0]!["description"])).toContain("each segment is percent-encoded");
    const tool = toolsFromModel(model).find((t) => t.name === "get_files_by_id")!;
    const id = (tool.input_schema.properties as Record<string, { description: string }>)["id"]!;
    expect(id.description).toContain("may span several path segments");
    const built = toolRequest(
      { name: tool.name, input_schema: tool.input_schema, binding: tool.binding } as never,
      { id: "docs/a b.md" },
    );
    expect(built).toMatchObject({ request: { path: "/api/files/docs/a%20b.md" } });
  });
});
