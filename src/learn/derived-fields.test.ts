/**
 * Fields derived from a path id: a file's name (the id's last segment) and its media type (the standard type of the
 * extension), confirmed over every entity the recording showed, the children a folder read embeds included; and the
 * hypotheses rightly refused where one entity breaks them or the evidence cannot tell them from a coincidence.
 */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { fieldsOf, learnSpecs, twinRequest } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";
import type { FoundCollection } from "./collections.js";
import { derivedFields, type Sighting } from "./derived-fields.js";

const T = Date.UTC(2026, 2, 1, 10, 0, 0);
const MIME: Record<string, string | null> = {
  md: "text/markdown",
  txt: "text/plain",
  csv: "text/csv",
  nb: null,
};
const mimeOf = (path: string) => MIME[path.split(".").at(-1) ?? ""] ?? null;
const nameOf = (path: string) => path.split("/").at(-1)!;
const file = (path: string, content: string | null, kind = "file") => ({
  path,
  name: nameOf(path),
  kind,
  mime: kind === "folder" ? null : mimeOf(path),
  content,
});
const missing = (path: string) => ({ message: `no such file: '${path}'` });
let clock = 0;
const at = (spec: RecordSpec): RecordSpec => {
  clock += 1000;
  return { time: T + clock, ...spec };
};

/** A folder tree: the root lists `docs` and `readme.md`, `docs` embeds `docs/a.txt`; a file is saved twice, then moved. */
function recording(): RecordSpec[] {
  clock = 0;
  return [
    at({
      path: "/api/files",
      status: 200,
      res: { path: "", content: [file("docs", null, "folder"), file("readme.md", null)] },
    }),
    at({
      path: "/api/files/docs",
      status: 200,
      res: { ...file("docs", null, "folder"), content: [file("docs/a.txt", null)] },
    }),
    at({ path: "/api/files/readme.md", status: 200, res: file("readme.md", "# Hi") }),
    at({ path: "/api/files/nope.md", status: 404, res: missing("nope.md") }),
    at({
      method: "PUT",
      path: "/api/files/todo.txt",
      status: 201,
      req: { content: "milk" },
      res: file("todo.txt", null),
    }),
    at({ path: "/api/files/todo.txt", status: 200, res: file("todo.txt", "milk") }),
    at({
      method: "PUT",
      path: "/api/files/todo.txt",
      status: 200,
      req: { content: "milk and eggs" },
      res: file("todo.txt", null),
    }),
    at({ path: "/api/files/todo.txt", status: 200, res: file("todo.txt", "milk and eggs") }),
    at({
      method: "PATCH",
      path: "/api/files/todo.txt",
      status: 200,
      req: { path: "docs/todo.txt" },
      res: file("docs/todo.txt", null),
    }),
    at({ path: "/api/files/docs/todo.txt", status: 200, res: file("docs/todo.txt", "milk and eggs") }),
    at({ path: "/api/files/todo.txt", status: 404, res: missing("todo.txt") }),
  ];
}

const json = (a: ReturnType<typeof handleRequest>) =>
  (a.body?.kind === "json" ? a.body.value : null) as Record<string, unknown>;
const send = twinRequest;

describe("fields derived from the id", () => {
  it("learns a file's name as the id's last segment and its media type from the extension, for every write", () => {
    const put = fieldsOf(recording(), "put_files_by_id");
    expect(put["name"]).toEqual({ kind: "from_id", derive: "last_segment" });
    // Training saved only `.txt` at the top level, where the name is the whole path: the children of `docs` decide.
    expect(put["mime"]).toEqual({ kind: "from_id", derive: "media_type", known: { "": null } });
    expect(fieldsOf(recording(), "patch_files_by_id")["name"]).toEqual({
      kind: "from_id",
      derive: "last_segment",
    });
  });

  it("serves a save in a folder, a move and an extension only the standard table knows with the derived values", () => {
    const { model, seed } = learnSpecs(recording());
    const ep = createEpisode(model, seed, { episodeId: "derived" });
    const saved = json(handleRequest(model, ep, send("PUT", "/api/files/docs/plan.md", { content: "# P" })));
    expect([saved["name"], saved["mime"]]).toEqual(["plan.md", "text/markdown"]);
    const moved = json(
      handleRequest(model, ep, send("PATCH", "/api/files/docs/plan.md", { path: "plan.md" })),
    );
    expect([moved["path"], moved["name"]]).toEqual(["plan.md", "plan.md"]);
    const csv = json(handleRequest(model, ep, send("PUT", "/api/files/docs/data.csv", { content: "a,b" })));
    expect([csv["name"], csv["mime"]]).toEqual(["data.csv", "text/csv"]);
  });

  it("answers an explained miss, changing nothing, for an extension neither the recording nor the table knows", () => {
    const { model, seed } = learnSpecs(recording());
    const ep = createEpisode(model, seed, { episodeId: "unknown" });
    const clockBefore = ep.clock_ms;
    const a = handleRequest(model, ep, send("PUT", "/api/files/docs/run.xyz", { content: "x" }));
    expect([a.status, a.served_by, json(a)["error"], json(a)["field"]]).toEqual([
      501,
      "miss",
      "unlearned_value",
      "mime",
    ]);
    expect(json(a)["message"]).toBe(
      'put_files_by_id would write "docs/run.xyz", whose field "mime" the app derives from the id\'s extension; the recording never showed its value for the extension ".xyz" and the standard media types do not list it, so the twin does not guess it',
    );
    expect(ep.clock_ms).toBe(clockBefore);
    expect(handleRequest(model, ep, send("GET", "/api/files/docs/run.xyz")).status).toBe(404);
  });
});

describe("derived fields rightly refused", () => {
  const col = {
    name: "files",
    idField: "path",
    idKind: "string",
    tree: { childrenKey: "content" },
    listView: { omit: [], nulls: ["content"] },
  } as unknown as FoundCollection;
  const seen = (...entities: Record<string, unknown>[]): Sighting[] =>
    entities.map((entity) => ({ entity, listView: false }));

  it("takes no name that differs from the last segment once (a title), nor one only top-level entities show", () => {
    const titled = derivedFields(col, seen(file("docs/a.txt", ""), { ...file("docs/b.txt", ""), name: "B" }));
    expect(titled.has("name")).toBe(false);
    // At the top level the name is the whole id: nothing tells the last segment from a copy of the id.
    expect(derivedFields(col, seen(file("a.txt", ""), file("b.md", ""))).has("name")).toBe(false);
  });

  it("takes no media type from one standard extension, one the app maps otherwise, or two values for one extension", () => {
    // `.txt` alone: `text/plain` fits the table, and as much `"text" + "/plain"` or a constant.
    expect(derivedFields(col, seen(file("a.txt", ""), file("docs/b.txt", ""))).has("mime")).toBe(false);
    const own = { ...file("c.md", ""), mime: "text/x-markdown" };
    expect(derivedFields(col, seen(file("a.txt", ""), file("b.csv", ""), own)).has("mime")).toBe(false);
    const two = { ...file("d.nb", ""), mime: "application/x-nb" };
    expect(
      derivedFields(col, seen(file("a.txt", ""), file("b.md", ""), file("c.nb", ""), two)).has("mime"),
    ).toBe(false);
  });

  it("takes none for a collection whose ids are not strings", () => {
    const ints = { ...col, idField: "id", idKind: "int" } as FoundCollection;
    expect(derivedFields(ints, seen({ id: 1, name: "1" })).size).toBe(0);
  });
});
