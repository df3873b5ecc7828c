/**
 * A text field a write builds from its own earlier value by a constant text put after or before it (a trashed slug
 * `contact` → `contact__trashed`): the `affix` rule, confirmed as a constant is (one observation is enough, every
 * observation must share the affix), refused where observations disagree, where the old value is neither a prefix
 * nor a suffix, and where what the request sent explains the value as well.
 */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { fieldsOf, learnSpecs, twinRequest, withheldOf } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const note = (id: number, slug = `n${id}`, state = "open") => ({ id, slug, state });
const seedReads: RecordSpec[] = [
  { path: "/api/notes", status: 200, res: [note(1), note(2), note(3)] },
  { path: "/api/notes/1", status: 200, res: note(1) },
];
/** A DELETE answered with the entity after it, and the read after it showing the same (a soft delete). */
const kept = (id: number, after: ReturnType<typeof note>): RecordSpec[] => [
  { method: "DELETE", path: `/api/notes/${id}`, status: 200, res: after },
  { path: `/api/notes/${id}`, status: 200, res: after },
];

describe("a field built from its own earlier value with a constant affix", () => {
  it("is learned from one soft delete, explained, and served to the answer and the reads after it", () => {
    const { model, seed, coverage } = learnSpecs([...seedReads, ...kept(1, note(1, "n1__trashed", "trash"))]);
    const rule = model.write_rules.find((r) => r.tool_name === "delete_notes_by_id")!;
    expect(rule.fields.find((f) => f.field === "slug")?.rule).toEqual({
      kind: "affix",
      prefix: "",
      suffix: "__trashed",
    });
    expect(coverage.writes.withheld).toEqual([]);
    expect(coverage.writes.served.find((w) => w.tool_name === "delete_notes_by_id")?.explain).toContain(
      'slug: the old value followed by "__trashed"',
    );
    // Only the constant marks an entity already deleted: the affix is no part of it.
    expect(rule.kept_delete).toEqual({ constants: ["state"] });
    const ep = createEpisode(model, seed, { episodeId: "affix" });
    const res = handleRequest(model, ep, twinRequest("DELETE", "/api/notes/2"));
    expect([res.status, res.served_by, res.body]).toEqual([
      200,
      "state",
      { kind: "json", value: note(2, "n2__trashed", "trash") },
    ]);
    expect(handleRequest(model, ep, twinRequest("GET", "/api/notes/2")).body).toEqual({
      kind: "json",
      value: note(2, "n2__trashed", "trash"),
    });
  });

  it("is learned as a prefix on an update, the same in every observation", () => {
    const patch = (id: number, slug: string): RecordSpec[] => [
      {
        method: "PATCH",
        path: `/api/notes/${id}`,
        status: 200,
        req: { state: "archived" },
        res: note(id, slug, "archived"),
      },
      { path: `/api/notes/${id}`, status: 200, res: note(id, slug, "archived") },
    ];
    const specs = [...seedReads, ...patch(1, "x-n1"), ...patch(2, "x-n2")];
    expect(withheldOf(specs)).toEqual([]);
    expect(fieldsOf(specs, "patch_notes_by_id")["slug"]).toEqual({ kind: "affix", prefix: "x-", suffix: "" });
  });

  it("rightly gives way to a format of what the request sent that gives the same text (a slug of a sent title)", () => {
    const specs: RecordSpec[] = [
      { path: "/api/notes", status: 200, res: [note(1, "note-one")] },
      {
        method: "PATCH",
        path: "/api/notes/1",
        status: 200,
        req: { title: "Note one (two)" },
        res: { ...note(1, "note-one-two"), title: "Note one (two)" },
      },
      { path: "/api/notes/1", status: 200, res: { ...note(1, "note-one-two"), title: "Note one (two)" } },
    ];
    expect(fieldsOf(specs, "patch_notes_by_id")["slug"]).toMatchObject({
      kind: "format",
      parts: [{ request: "/title", transform: "slug" }],
    });
  });

  it("rightly refuses an affix that differs between two observations", () => {
    const specs = [
      ...seedReads,
      ...kept(1, note(1, "n1__trashed", "trash")),
      ...kept(2, note(2, "n2-gone", "trash")),
    ];
    const { model, coverage } = learnSpecs(specs);
    expect(model.write_rules.find((r) => r.tool_name === "delete_notes_by_id")).toBeUndefined();
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason])).toEqual([
      ["delete_notes_by_id", "conflicting_observations"],
    ]);
  });

  it("rightly refuses where the old value is neither a prefix nor a suffix of the new one", () => {
    const { coverage } = learnSpecs([...seedReads, ...kept(1, note(1, "[n1]", "trash"))]);
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason, w.closable])).toEqual([
      ["delete_notes_by_id", "unexplained_field", false],
    ]);
    expect(coverage.writes.withheld[0]!.hint).toContain(
      '"slug" changed from "n1" to "[n1]", a value built from what it held before',
    );
  });

  it("rightly refuses a value a piece of what the request sent explains as well (a copy's name)", () => {
    const specs: RecordSpec[] = [
      { path: "/api/notes", status: 200, res: [note(1, "plan")] },
      {
        method: "PATCH",
        path: "/api/notes/1",
        status: 200,
        req: { copy_from: "docs/plan.md" },
        res: note(1, "plan-Copy1"),
      },
      { path: "/api/notes/1", status: 200, res: note(1, "plan-Copy1") },
    ];
    expect(withheldOf(specs)).toEqual([
      [
        "patch_notes_by_id",
        "unexplained_field",
        'Field "slug" in PATCH /api/notes/{id} was "plan-Copy1" in the first recorded one, a value built from what the request sent at /copy_from ("docs/plan.md"): the twin has no rule that builds a value from part of a sent one (its old value with the same text added would give every request this one\'s value), so no recording can close this gap: the write stays withheld',
      ],
    ]);
  });
});

describe("a field the request sent itself", () => {
  it("is neither an affix of its old value nor a constant (the app stored the sent text escaped)", () => {
    const { model, coverage } = learnSpecs([
      ...seedReads,
      {
        method: "PATCH",
        path: "/api/notes/1",
        status: 200,
        req: { slug: "n1 & co" },
        res: note(1, "n1 &amp; co"),
      },
      { path: "/api/notes/1", status: 200, res: note(1, "n1 &amp; co") },
    ]);
    // One observation says what the app made of that text, not what it makes of the next: withheld, explained.
    expect(model.write_rules.find((r) => r.tool_name === "patch_notes_by_id")).toBeUndefined();
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason])).toEqual([
      ["patch_notes_by_id", "unexplained_field"],
    ]);
  });
});
