/** Where id sequences continue: after nested values drawn from them, and across two collections that share one. */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs } from "../../test/support/learn-specs.js";

const get = (path: string, res: unknown): RecordSpec => ({ path, status: 200, res });
const post = (path: string, req: unknown, res: unknown): RecordSpec => ({
  method: "POST",
  path,
  status: 201,
  req,
  res,
});

describe("id sequences", () => {
  it("learns a shared sequence from creates that take the other collection's highest + 1", () => {
    const cats = [
      { id: 1, name: "a" },
      { id: 3, name: "b" },
    ];
    const tags = [{ id: 5, name: "x" }];
    const { model } = learnSpecs([
      get("/api/cats", cats),
      get("/api/tags", tags),
      post("/api/cats", { name: "c" }, { id: 6, name: "c" }),
      get("/api/cats", [...cats, { id: 6, name: "c" }]),
      post("/api/tags", { name: "y" }, { id: 7, name: "y" }),
      get("/api/tags", [...tags, { id: 7, name: "y" }]),
      post("/api/tags", { name: "z" }, { id: 8, name: "z" }),
      get("/api/tags", [...tags, { id: 7, name: "y" }, { id: 8, name: "z" }]),
    ]);
    const idRule = (tool: string) =>
      model.write_rules.find((r) => r.tool_name === tool)!.fields.find((f) => f.field === "id")!.rule;
    expect(idRule("post_cats")).toEqual({ kind: "id_sequence", start: 9, step: 1, sequence: "cats" });
    expect(idRule("post_tags")).toEqual({ kind: "id_sequence", start: 9, step: 1, sequence: "cats" });
    expect(model.id_sequences).toEqual({ cats: 9, tags: 9 });
    expect(model.write_rules.find((r) => r.tool_name === "post_tags")!.explain).toContain(
      "id: the next integer id of the cats sequence (from 9, step 1), after the highest ever seen",
    );
  });

  it("keeps each collection's own sequence when no create proves they share one", () => {
    const { model } = learnSpecs([
      get("/api/cats", [{ id: 1, name: "a" }]),
      get("/api/tags", [{ id: 5, name: "x" }]),
      post("/api/cats", { name: "c" }, { id: 2, name: "c" }),
      get("/api/cats", [
        { id: 1, name: "a" },
        { id: 2, name: "c" },
      ]),
      post("/api/tags", { name: "y" }, { id: 6, name: "y" }),
      get("/api/tags", [
        { id: 5, name: "x" },
        { id: 6, name: "y" },
      ]),
    ]);
    expect(model.write_rules.map((r) => r.fields.find((f) => f.field === "id")!.rule)).toEqual([
      { kind: "id_sequence", start: 3, step: 1 },
      { kind: "id_sequence", start: 7, step: 1 },
    ]);
  });

  it("continues a sequence after the nested ids an update drew from it (a revision)", () => {
    const post1 = { id: 11, title: "A", latest: [] as unknown[] };
    const patched = { ...post1, title: "B", latest: [{ id: 12 }] };
    const { model } = learnSpecs([
      get("/api/posts", [post1]),
      { method: "PATCH", path: "/api/posts/11", status: 200, req: { title: "B" }, res: patched },
      get("/api/posts/11", patched),
      post("/api/posts", { title: "C" }, { id: 13, title: "C", latest: [] }),
      get("/api/posts/13", { id: 13, title: "C", latest: [] }),
    ]);
    const patch = model.write_rules.find((r) => r.tool_name === "patch_posts_by_id")!;
    expect(patch.fields.find((f) => f.field === "latest")!.rule).toEqual({
      kind: "array",
      items: [
        { kind: "object", fields: [{ field: "id", rule: { kind: "id_sequence", start: 14, step: 1 } }] },
      ],
    });
    expect(model.id_sequences).toEqual({ posts: 14 });
  });
});
