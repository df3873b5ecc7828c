/**
 * Uniqueness refusals beyond a create's plain field: an update refused for a value another entity holds, the id field
 * itself (a rename onto a taken path, a create with a client-chosen id), and the refusal's text spelling the value
 * the request sent (`File already exists: data.csv`), which the twin spells with the new request's own.
 */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, twinRequest } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";
import { spellingDecided, spellingsOf } from "./validation-rules.js";

const T = Date.UTC(2026, 2, 1, 10, 0, 0);
const file = (path: string, content: string | null) => ({
  path,
  kind: "file",
  content,
  size: content === null ? null : content.length,
});
const missing = (path: string) => ({ message: `no such file: '${path}'` });
const exists = (path: string) => ({ message: `File already exists: ${path}`, reason: null });

/** A folder of files named by their path: a rename that succeeds, then one the app refuses (`refused`). */
function recording(
  renamed: string,
  refused: { from: string; to: string; status: number; res: unknown },
): RecordSpec[] {
  let clock = 0;
  const at = (spec: RecordSpec): RecordSpec => {
    clock += 1000;
    return { time: T + clock, ...spec };
  };
  return [
    at({
      path: "/api/files",
      status: 200,
      res: { path: "", content: [file("docs", null), file("readme.md", null), file("todo.txt", null)] },
    }),
    at({
      path: "/api/files/docs",
      status: 200,
      res: { ...file("docs", null), content: [file("docs/a.md", null)] },
    }),
    at({ path: "/api/files/readme.md", status: 200, res: file("readme.md", "# Hi") }),
    at({ path: "/api/files/todo.txt", status: 200, res: file("todo.txt", "milk") }),
    at({ path: "/api/files/nope.md", status: 404, res: missing("nope.md") }),
    at({
      method: "PATCH",
      path: "/api/files/todo.txt",
      status: 200,
      req: { path: renamed },
      res: file(renamed, null),
    }),
    at({ path: `/api/files/${renamed}`, status: 200, res: file(renamed, "milk") }),
    at({ path: "/api/files/todo.txt", status: 404, res: missing("todo.txt") }),
    at({
      method: "PATCH",
      path: `/api/files/${refused.from}`,
      status: refused.status,
      req: { path: refused.to },
      res: refused.res,
    }),
    at({ path: `/api/files/${refused.from}`, status: 200, res: file(refused.from, "# Hi") }),
  ];
}

const uniqueRules = (specs: RecordSpec[]) =>
  (learnSpecs(specs).model.validations ?? []).filter((v) => v.kind === "unique");

function twin(specs: RecordSpec[]) {
  const { model, seed } = learnSpecs(specs);
  const ep = createEpisode(model, seed, { episodeId: "u" });
  return (method: string, path: string, body: unknown) => {
    const res = handleRequest(model, ep, twinRequest(method, path, body));
    return [res.status, res.served_by, res.body?.kind === "json" ? res.body.value : null] as const;
  };
}

describe("a rename refused because another entity holds the id it sends", () => {
  const refused = { from: "readme.md", to: "docs/a.md", status: 409, res: exists("docs/a.md") };

  it("learns the refusal of the id field, spelling the clashing value where the answer spelled it", () => {
    const rules = uniqueRules(recording("done.txt", refused));
    expect(rules).toMatchObject([
      {
        tool_name: "patch_files_by_id",
        field: "path",
        status: 409,
        body: exists("docs/a.md"),
        spell: [{ pointer: "/message", parts: ["File already exists: ", { from: "value" }] }],
      },
    ]);
    expect(rules[0]!.explain).toContain("a rename onto an id another entity holds");
  });

  it("answers a rename onto a held id with the app's refusal naming the new value, before any 501", () => {
    const send = twin(recording("done.txt", refused));
    expect(send("PATCH", "/api/files/readme.md", { path: "done.txt" })).toEqual([
      409,
      "validation",
      exists("done.txt"),
    ]);
    // The entity's own id is no other entity's: renaming onto itself, or onto a free path, is served.
    expect(send("PATCH", "/api/files/readme.md", { path: "readme.md" })[0]).toBe(200);
    expect(send("PATCH", "/api/files/readme.md", { path: "b.md" })[0]).toBe(200);
    // The twin's own rename took b.md: now renaming onto it is refused, spelled with it.
    expect(send("PATCH", "/api/files/done.txt", { path: "b.md" })).toEqual([
      409,
      "validation",
      exists("b.md"),
    ]);
  });

  it("spells the entity's own id where the answer named the path too", () => {
    const res = { message: "Cannot rename readme.md: docs/a.md exists" };
    const rules = uniqueRules(recording("done.txt", { ...refused, res }));
    expect(rules.map((r) => r.spell)).toEqual([
      [
        {
          pointer: "/message",
          parts: ["Cannot rename ", { from: "own_id" }, ": ", { from: "value" }, " exists"],
        },
      ],
    ]);
    const send = twin(recording("done.txt", { ...refused, res }));
    expect(send("PATCH", "/api/files/done.txt", { path: "readme.md" })).toEqual([
      409,
      "validation",
      { message: "Cannot rename done.txt: readme.md exists" },
    ]);
  });

  it("spells a value only where it stands as a whole name (`docs/a.md.bak` is another one)", () => {
    const res = { message: "File already exists: docs/a.md.bak" };
    expect(uniqueRules(recording("done.txt", { ...refused, res })).map((r) => [r.body, r.spell])).toEqual([
      [res, undefined],
    ]);
  });

  it("replays a body that spells neither value as recorded", () => {
    const res = { error: "conflict" };
    const rules = uniqueRules(recording("done.txt", { ...refused, res }));
    expect(rules.map((r) => [r.body, r.spell])).toEqual([[res, undefined]]);
    expect(
      twin(recording("done.txt", { ...refused, res }))("PATCH", "/api/files/readme.md", { path: "done.txt" }),
    ).toEqual([409, "validation", res]);
  });

  it("learns nothing when the refused value was held by nobody (rightly refused): the twin's 501 stays", () => {
    const free = { ...refused, to: "free.md", res: exists("free.md") };
    expect(uniqueRules(recording("done.txt", free))).toEqual([]);
    const [status, servedBy, body] = twin(recording("done.txt", free))("PATCH", "/api/files/readme.md", {
      path: "docs/a.md",
    });
    expect([status, servedBy, (body as { error?: string }).error]).toEqual([501, "miss", "id_taken"]);
  });

  it("learns nothing when a successful rename sent an id another entity held (rightly refused)", () => {
    // The success moved todo.txt onto readme.md, which the app then held: a held id was no refusal there.
    const specs = recording("readme.md", { ...refused, from: "docs", res: exists("docs/a.md") });
    expect(uniqueRules(specs)).toEqual([]);
    // The same refusal beside a rename onto a free path is learned: the held id alone made the difference.
    expect(uniqueRules(recording("done.txt", { ...refused, from: "docs" }))).toHaveLength(1);
  });
});

describe("a create refused because the client-chosen id is held", () => {
  const key = (id: string, value: number) => ({ id, value });
  const list = (...ks: unknown[]): RecordSpec => ({ path: "/api/keys", status: 200, res: ks });
  const create = (req: unknown, status: number, res: unknown): RecordSpec => ({
    method: "POST",
    path: "/api/keys",
    status,
    req,
    res,
  });
  const specs: RecordSpec[] = [
    list(key("alpha", 1)),
    create({ id: "beta", value: 2 }, 201, key("beta", 2)),
    list(key("alpha", 1), key("beta", 2)),
    create({ id: "alpha", value: 3 }, 409, { error: "key 'alpha' already exists" }),
    list(key("alpha", 1), key("beta", 2)),
  ];

  it("learns the id field's refusal and spells the id the request sends", () => {
    const rules = uniqueRules(specs);
    expect(rules.map((r) => [r.field, r.status, r.spell])).toEqual([
      ["id", 409, [{ pointer: "/error", parts: ["key '", { from: "value" }, "' already exists"] }]],
    ]);
    expect(rules[0]!.explain).toContain("It is the entity's id, chosen by the client.");
    const send = twin(specs);
    expect(send("POST", "/api/keys", { id: "beta", value: 9 })).toEqual([
      409,
      "validation",
      { error: "key 'beta' already exists" },
    ]);
    expect(send("POST", "/api/keys", { id: "gamma", value: 9 })[0]).toBe(201);
  });
});

describe("which texts a lone refusal decides spell the value", () => {
  it("takes a value no word is, or one spelled once; rightly refuses a word spelled twice", () => {
    const twice = spellingsOf({ message: "File already exists: File" }, "File", null);
    expect(spellingDecided(["File"], twice, "value")).toBe(false);
    const word = spellingsOf({ message: "a file named a exists" }, "a", null);
    expect(spellingDecided(["a"], word, "value")).toBe(false);
    const once = spellingsOf({ error: "key 'alpha' already exists" }, "alpha", null);
    expect(spellingDecided(["alpha"], once, "value")).toBe(true);
    expect(spellingDecided(["data.csv"], spellingsOf("data.csv: data.csv", "data.csv", null), "value")).toBe(
      true,
    );
    // Two refusals of different values spelled alike decide it whatever the words.
    expect(spellingDecided(["File", "Dir"], twice, "value")).toBe(true);
  });
});
