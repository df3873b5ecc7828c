/** Fields a create's request value decides (`kind: note` vs `kind: checklist`): one rule per recorded value, else refused. */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, list, twinRequest } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const a = { id: 1, title: "A", kind: "note", body: "", format: "text" };
const note = (id: number, title: string) => ({ id, title, kind: "note", body: "", format: "text" });
const checklist = (id: number, title: string) => ({
  id,
  title,
  kind: "checklist",
  body: { items: [] },
  format: "json",
});
const create = (req: Record<string, unknown>, res: Record<string, unknown>): RecordSpec => ({
  method: "POST",
  path: "/api/things",
  status: 201,
  req,
  res,
});
const read = (e: { id: number } & Record<string, unknown>): RecordSpec => ({
  path: `/api/things/${e.id}`,
  status: 200,
  res: e,
});

describe("fields keyed by a request value", () => {
  const specs = [
    list([a]),
    create({ title: "B", kind: "note" }, note(2, "B")),
    read(note(2, "B")),
    create({ title: "C", kind: "checklist" }, checklist(3, "C")),
    read(checklist(3, "C")),
  ];

  it("learns one rule per recorded value, and the twin writes each value's own fields", () => {
    const { model, seed, coverage } = learnSpecs(specs);
    expect(coverage.writes.withheld).toEqual([]);
    const rule = model.write_rules.find((r) => r.tool_name === "post_things")!;
    expect(rule.fields.find((f) => f.field === "format")!.rule).toEqual({
      kind: "cases",
      pointer: "/kind",
      cases: [
        { value: '"checklist"', rule: { kind: "constant", value: "json" } },
        { value: '"note"', rule: { kind: "constant", value: "text" } },
      ],
    });
    expect(rule.explain).toContain(
      'format: by the request\'s /kind: "checklist", always "json"; "note", always "text" (another value there is an explained miss)',
    );
    const ep = createEpisode(model, seed, { episodeId: "p" });
    const made = handleRequest(
      model,
      ep,
      twinRequest("POST", "/api/things", { title: "D", kind: "checklist" }),
    );
    expect([made.status, made.body]).toEqual([201, { kind: "json", value: checklist(4, "D") }]);
    const other = handleRequest(model, ep, twinRequest("POST", "/api/things", { title: "E", kind: "note" }));
    expect([other.status, other.body]).toEqual([201, { kind: "json", value: note(5, "E") }]);
  });

  it("answers a value no recorded write sent with an explained miss, writing nothing", () => {
    const { model, seed } = learnSpecs(specs);
    const ep = createEpisode(model, seed, { episodeId: "p" });
    const res = handleRequest(model, ep, twinRequest("POST", "/api/things", { title: "F", kind: "event" }));
    expect(res.status).toBe(501);
    const body = (res.body as { value: Record<string, unknown> }).value;
    expect([body.error, body.message, body.hint]).toEqual([
      "unlearned_value",
      'post_things writes fields whose values depend on the request\'s /kind; the recording showed the app\'s answer for "checklist", "note" there and this request sends "event", so the twin does not know what the app writes for it and does not guess',
      'Record post_things with "event" at /kind (each value the agent may send), followed by a read of what it wrote, then rebuild the bundle.',
    ]);
    const after = handleRequest(model, ep, twinRequest("GET", "/api/things"));
    expect((after.body as { value: unknown[] }).value).toHaveLength(3);
    // Nothing sent there is a miss too.
    const none = handleRequest(model, ep, twinRequest("POST", "/api/things", { title: "G" }));
    expect(none.status).toBe(501);
  });

  it("refuses it when two request fields each tell the writes apart (which one the app reads is not shown)", () => {
    // `layout` is a kind of its own too: two entities share "plain".
    const plain = <T extends object>(e: T) => ({ ...e, layout: "plain" });
    const grid = { ...checklist(3, "C"), layout: "grid" };
    const { coverage } = learnSpecs([
      list([plain(a)]),
      create({ title: "B", kind: "note", layout: "plain" }, plain(note(2, "B"))),
      read(plain(note(2, "B"))),
      create({ title: "C", kind: "checklist", layout: "grid" }, grid),
      read(grid),
    ]);
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason])).toEqual([
      ["post_things", "conflicting_observations"],
    ]);
  });

  it("refuses it when the writes of one value disagree among themselves", () => {
    const { coverage } = learnSpecs([
      list([a]),
      create({ title: "B", kind: "note" }, note(2, "B")),
      read(note(2, "B")),
      create({ title: "C", kind: "note" }, { ...note(3, "C"), format: "markdown" }),
      read({ ...note(3, "C"), format: "markdown" }),
      create({ title: "D", kind: "checklist" }, checklist(4, "D")),
      read(checklist(4, "D")),
    ]);
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason])).toEqual([
      ["post_things", "conflicting_observations"],
    ]);
  });

  it("never keys on a value each entity has its own of (a title names no kind)", () => {
    const { coverage } = learnSpecs([
      list([a]),
      create({ title: "B" }, note(2, "B")),
      read(note(2, "B")),
      create({ title: "C" }, checklist(3, "C")),
      read(checklist(3, "C")),
    ]);
    expect(coverage.writes.withheld.map((w) => w.tool_name)).toEqual(["post_things"]);
  });
});

describe("fields one rule explains, re-judged under the cases' key (session-6 review H3)", () => {
  const file = (id: number, ext: string) => ({ ...note(id, "x"), name: `untitled${ext}` });
  const sheet = (id: number) => ({ ...checklist(id, "x"), name: "Untitled.sheet" });
  const specs = [
    list([{ ...a, name: "a.txt" }]),
    create({ title: "x", kind: "note", ext: ".txt" }, file(2, ".txt")),
    read(file(2, ".txt")),
    create({ title: "x", kind: "note", ext: ".md" }, file(3, ".md")),
    read(file(3, ".md")),
    create({ title: "x", kind: "checklist" }, sheet(4)),
    read(sheet(4)),
    create({ title: "x", kind: "checklist" }, sheet(5)),
    read(sheet(5)),
  ];

  it("takes each value's own rule where it differs from the one rule (a checklist sent ext keeps its own name)", () => {
    const { model, seed } = learnSpecs(specs);
    const rule = model.write_rules.find((r) => r.tool_name === "post_things")!;
    expect(rule.fields.find((f) => f.field === "name")!.rule).toMatchObject({
      kind: "cases",
      pointer: "/kind",
    });
    const ep = createEpisode(model, seed, { episodeId: "h3" });
    const made = handleRequest(
      model,
      ep,
      twinRequest("POST", "/api/things", { title: "x", kind: "checklist", ext: ".txt" }),
    );
    expect(made.status).toBe(201);
    expect((made.body as { value: { name: string } }).value.name).toBe("Untitled.sheet");
    // Rightly kept as one rule: a field every value's writes give alike (the title copied from the request).
    expect(rule.fields.find((f) => f.field === "title")!.rule.kind).not.toBe("cases");
  });
});
