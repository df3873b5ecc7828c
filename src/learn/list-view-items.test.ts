/**
 * Item reads of entities only a list showed: where item reads show what lists give null (a file's `content`) or
 * leave out (a project's `homepage`), the twin answers an explained miss instead of the list's view dressed as the
 * item; a write that sets the field makes it known. Rightly refused: a field an item read itself gave null is no
 * field only item reads know.
 */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, twinRequest as send } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const file = (path: string, content: string | null) => ({ path, kind: "file", content });
const folder = (path: string, content: unknown[] | null) => ({ path, kind: "folder", content });

function recording(readme: string | null = "# Hi"): RecordSpec[] {
  return [
    {
      path: "/api/files",
      status: 200,
      res: { path: "", content: [folder("docs", null), file("readme.md", null)] },
    },
    {
      path: "/api/files/docs",
      status: 200,
      res: folder("docs", [file("docs/a.md", null), file("docs/b.md", null)]),
    },
    { path: "/api/files/readme.md", status: 200, res: file("readme.md", readme) },
    { path: "/api/files/docs/b.md", status: 200, res: file("docs/b.md", "b") },
    {
      method: "PUT",
      path: "/api/files/docs/b.md",
      status: 200,
      req: { content: "bb" },
      res: file("docs/b.md", null),
    },
    { path: "/api/files/docs/b.md", status: 200, res: file("docs/b.md", "bb") },
  ];
}

const body = (a: ReturnType<typeof handleRequest>) =>
  (a.body?.kind === "json" ? a.body.value : null) as Record<string, unknown>;

describe("item reads of entities only a list showed", () => {
  it("answers an explained miss for a file only a folder listed, and the state once a write sets its content", () => {
    const { model, seed } = learnSpecs(recording());
    expect(model.collections.find((c) => c.name === "files")?.list_view?.item_values).toEqual(["content"]);
    const ep = createEpisode(model, seed, { episodeId: "listed" });
    const a = handleRequest(model, ep, send("GET", "/api/files/docs/a.md"));
    expect([a.status, a.served_by, body(a)["error"]]).toEqual([501, "miss", "unknown_fields"]);
    expect(body(a)["message"]).toBe(
      'get_files_by_id: the recording showed "docs/a.md" only in lists or in reads with a query, which leave out or give null "content"; an item read shows it, and the twin does not know its value for this entity',
    );
    // Read in training, or written in the episode: known.
    expect(body(handleRequest(model, ep, send("GET", "/api/files/readme.md")))["content"]).toBe("# Hi");
    handleRequest(model, ep, send("PUT", "/api/files/docs/a.md", { content: "aa" }));
    expect(body(handleRequest(model, ep, send("GET", "/api/files/docs/a.md")))["content"]).toBe("aa");
  });

  it("answers from the state where an item read itself gave the field null (rightly not an item-only field)", () => {
    const { model, seed } = learnSpecs(recording(null));
    expect(model.collections.find((c) => c.name === "files")?.list_view?.item_values).toBeUndefined();
    const ep = createEpisode(model, seed, { episodeId: "nullable" });
    const a = handleRequest(model, ep, send("GET", "/api/files/docs/a.md"));
    expect([a.status, body(a)["content"]]).toEqual([200, null]);
  });

  it("answers an explained miss for an entity lacking a field every item read holds and lists leave out", () => {
    const specs: RecordSpec[] = [
      {
        path: "/api/projects",
        status: 200,
        res: [
          { id: 1, name: "A" },
          { id: 2, name: "B" },
        ],
      },
      { path: "/api/projects/1", status: 200, res: { id: 1, name: "A", homepage: "https://a.example" } },
    ];
    const { model, seed } = learnSpecs(specs);
    const ep = createEpisode(model, seed, { episodeId: "omit" });
    expect(body(handleRequest(model, ep, send("GET", "/api/projects/1")))["homepage"]).toBe(
      "https://a.example",
    );
    const b = handleRequest(model, ep, send("GET", "/api/projects/2"));
    expect([b.status, body(b)["error"], body(b)["fields"]]).toEqual([501, "unknown_fields", ["homepage"]]);
  });
});
