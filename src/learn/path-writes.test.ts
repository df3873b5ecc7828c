/**
 * Writes to entities named by their path: a PUT that creates or replaces (the client chooses the id), a PATCH that
 * renames (the entity moves; its old path answers the learned not-found), and a size taken from the request.
 */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { fieldsOf, learnSpecs, twinRequest } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const T = Date.UTC(2026, 2, 1, 10, 0, 0);
const file = (path: string, content: string | null, at: number) => ({
  path,
  kind: "file",
  content,
  size: content === null ? null : new TextEncoder().encode(content).length,
  modified: new Date(T + at).toISOString(),
});
const missing = (path: string) => ({ message: `no such file: '${path}'` });
const ROOT = { path: "", content: [file("docs", null, 0), file("readme.md", null, 0)] };
const DOCS = { ...file("docs", null, 0), content: [file("docs/a.md", null, 0)] };
let clock = 0;
const at = (spec: RecordSpec): RecordSpec => {
  clock += 1000;
  return { time: T + clock, ...spec };
};

function recording(): RecordSpec[] {
  clock = 0;
  const put = (path: string, status: number, content: string) =>
    at({
      method: "PUT",
      path: `/api/files/${path}`,
      status,
      req: { content },
      res: { ...file(path, content, clock + 1000), content: null },
    });
  return [
    at({ path: "/api/files", status: 200, res: ROOT }),
    at({ path: "/api/files/docs", status: 200, res: DOCS }),
    at({ path: "/api/files/readme.md", status: 200, res: file("readme.md", "# Hi", 0) }),
    at({ path: "/api/files/nope.md", status: 404, res: missing("nope.md") }),
    put("todo.txt", 201, "milk"),
    at({ path: "/api/files/todo.txt", status: 200, res: file("todo.txt", "milk", clock) }),
    put("todo.txt", 200, "milk and eggs"),
    at({ path: "/api/files/todo.txt", status: 200, res: file("todo.txt", "milk and eggs", clock) }),
    at({
      method: "PATCH",
      path: "/api/files/todo.txt",
      status: 200,
      req: { path: "docs/todo.txt" },
      res: { ...file("docs/todo.txt", null, clock - 1000), size: 13 },
    }),
    at({
      path: "/api/files/docs/todo.txt",
      status: 200,
      res: file("docs/todo.txt", "milk and eggs", clock - 2000),
    }),
    at({ path: "/api/files/todo.txt", status: 404, res: missing("todo.txt") }),
  ];
}

const json = (a: ReturnType<typeof handleRequest>) => (a.body?.kind === "json" ? a.body.value : null);
const send = twinRequest;

describe("writes to path-named entities", () => {
  it("serves a PUT that creates the entity its path names, or replaces it, with the status of each", () => {
    const { model, seed, coverage } = learnSpecs(recording());
    const rule = model.write_rules.find((r) => r.tool_name === "put_files_by_id")!;
    expect([rule.status, rule.created_status]).toEqual([200, 201]);
    expect(coverage.writes.withheld.map((w) => w.tool_name)).toEqual([]);
    const ep = createEpisode(model, seed, { episodeId: "put" });
    const created = handleRequest(model, ep, send("PUT", "/api/files/docs/plan.md", { content: "# Plan" }));
    expect([created.status, (json(created) as { path: string }).path]).toEqual([201, "docs/plan.md"]);
    const again = handleRequest(model, ep, send("PUT", "/api/files/docs/plan.md", { content: "# Plan B" }));
    expect(again.status).toBe(200);
    const read = json(handleRequest(model, ep, send("GET", "/api/files/docs/plan.md"))) as Record<
      string,
      unknown
    >;
    expect([read["content"], read["size"]]).toEqual(["# Plan B", 8]);
    const folder = json(handleRequest(model, ep, send("GET", "/api/files/docs"))) as {
      content: { path: string }[];
    };
    expect(folder.content.map((e) => e.path)).toEqual(["docs/a.md", "docs/todo.txt", "docs/plan.md"]);
  });

  it("serves a PATCH that changes the id field as a move: the old path answers the learned not-found", () => {
    const { model, seed } = learnSpecs(recording());
    const ep = createEpisode(model, seed, { episodeId: "mv" });
    const moved = handleRequest(model, ep, send("PATCH", "/api/files/readme.md", { path: "docs/readme.md" }));
    expect([moved.status, (json(moved) as { path: string }).path]).toEqual([200, "docs/readme.md"]);
    const old = handleRequest(model, ep, send("GET", "/api/files/readme.md"));
    expect([old.status, json(old)]).toEqual([404, missing("readme.md")]);
    const now = json(handleRequest(model, ep, send("GET", "/api/files/docs/readme.md"))) as Record<
      string,
      unknown
    >;
    expect([now["path"], now["content"]]).toEqual(["docs/readme.md", "# Hi"]);
    const root = json(handleRequest(model, ep, send("GET", "/api/files"))) as { content: { path: string }[] };
    expect(root.content.map((e) => e.path)).toEqual(["docs"]);
  });

  it("takes a size from the request only where the sizes varied with it", () => {
    expect(fieldsOf(recording(), "put_files_by_id")["size"]).toEqual({
      kind: "length",
      pointer: "/content",
      otherwise: { kind: "keep" },
    });
    // One PUT of "milk": size 4 is as much a constant as the length of the content, and a constant wins.
    const once = recording().slice(0, 6);
    expect(fieldsOf(once, "put_files_by_id")["size"]).toEqual({ kind: "constant", value: 4 });
  });

  it("withholds a PUT whose statuses do not follow whether the path named an entity (the rule rightly refused)", () => {
    const specs = recording();
    // The second PUT goes to a path the recording never showed, yet answers 200 where the first new one gave 201.
    const put = specs[6] as { path: string; res: Record<string, unknown> };
    specs[6] = { ...specs[6]!, path: "/api/files/list.txt", res: { ...put.res, path: "list.txt" } };
    specs[7] = {
      ...specs[7]!,
      path: "/api/files/list.txt",
      res: { ...(specs[7]!.res as object), path: "list.txt" },
    };
    const { coverage } = learnSpecs(specs.slice(0, 8));
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason])).toEqual([
      ["put_files_by_id", "conflicting_observations"],
    ]);
  });

  it("serves a POST to a folder as a create inside it, and answers an explained miss where its name is taken", () => {
    const specs = [
      ...recording(),
      at({
        method: "POST",
        path: "/api/files/docs",
        status: 201,
        req: { ext: ".txt" },
        res: { ...file("docs/untitled.txt", null, clock + 1000), size: 0 },
      }),
      at({ path: "/api/files/docs/untitled.txt", status: 200, res: file("docs/untitled.txt", "", clock) }),
    ];
    const { model, seed } = learnSpecs(specs);
    expect(model.write_rules.find((r) => r.tool_name === "post_files_by_id")?.kind).toBe("create");
    const ep = createEpisode(model, seed, { episodeId: "new" });
    const made = handleRequest(model, ep, send("POST", "/api/files/docs", { ext: ".md" }));
    expect([made.status, (json(made) as { path: string }).path]).toEqual([201, "docs/untitled.md"]);
    const again = handleRequest(model, ep, send("POST", "/api/files/docs", { ext: ".md" }));
    expect([again.status, (json(again) as { error: string }).error]).toEqual([501, "id_taken"]);
  });
});
