/** A DELETE whose read-back still shows its entity: learned as an update of what changed there, or refused. */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, twinRequest } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const note = (id: number, state = "open", slug = `n${id}`) => ({ id, slug, state });
const seedReads: RecordSpec[] = [
  { path: "/api/notes", status: 200, res: [note(1), note(2), note(3)] },
  { path: "/api/notes/1", status: 200, res: note(1) },
];
/** A DELETE answered with the entity after it, and the read after it showing the same. */
const kept = (id: number, after: ReturnType<typeof note>): RecordSpec[] => [
  { method: "DELETE", path: `/api/notes/${id}`, status: 200, res: after },
  { path: `/api/notes/${id}`, status: 200, res: after },
];

describe("a delete the app answers by keeping its entity", () => {
  it("is learned as an update of the field that changed, served from state, which lists then show", () => {
    const { model, seed, coverage } = learnSpecs([...seedReads, ...kept(1, note(1, "archived"))]);
    const rule = model.write_rules.find((r) => r.tool_name === "delete_notes_by_id")!;
    expect([rule.kind, rule.response]).toEqual(["merge", { kind: "entity" }]);
    expect(rule.fields.find((f) => f.field === "state")?.rule).toEqual({
      kind: "constant",
      value: "archived",
    });
    expect(coverage.writes.withheld).toEqual([]);
    const ep = createEpisode(model, seed, { episodeId: "soft" });
    const res = handleRequest(model, ep, twinRequest("DELETE", "/api/notes/2"));
    expect([res.status, res.served_by, res.body]).toEqual([
      200,
      "state",
      { kind: "json", value: note(2, "archived") },
    ]);
    expect(handleRequest(model, ep, twinRequest("GET", "/api/notes/2")).body).toEqual({
      kind: "json",
      value: note(2, "archived"),
    });
    expect(handleRequest(model, ep, twinRequest("GET", "/api/notes")).body).toEqual({
      kind: "json",
      value: [note(1, "archived"), note(2, "archived"), note(3)],
    });
    expect(rule.kept_delete).toEqual({ constants: ["state"] });
    // Deleting it again: no recorded delete met an entity already archived, so the explained miss, nothing written.
    const again = handleRequest(model, ep, twinRequest("DELETE", "/api/notes/2"));
    expect([again.status, again.served_by, (again.body as { value: { error: string } }).value.error]).toEqual(
      [501, "miss", "already_kept"],
    );
  });

  it("rightly stays withheld when a changed field holds its own earlier value other than as an affix, naming it", () => {
    // `n1` → `n1 (archived)` is the affix rule (affix-rules.test.ts); inside other text it is no rule the twin has.
    const { coverage } = learnSpecs([...seedReads, ...kept(1, note(1, "archived", "(n1) archived"))]);
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason, w.hint, w.closable])).toEqual([
      [
        "delete_notes_by_id",
        "unexplained_field",
        'The read after DELETE /api/notes/{id} (records[3]) still shows the entity it deleted, so the delete is learned as an update of what changed there, but "slug" changed from "n1" to "(n1) archived", a value built from what it held before: the twin has no rule that builds a field from its own earlier value (a constant would give every entity this one\'s value), so no recording can close this gap: the write stays withheld',
        false,
      ],
    ]);
  });

  it("leaves a delete read back gone a delete", () => {
    const { model } = learnSpecs([
      ...seedReads,
      { method: "DELETE", path: "/api/notes/1", status: 204 },
      { path: "/api/notes/1", status: 404, res: { error: "not found" } },
    ]);
    const rule = model.write_rules.find((r) => r.tool_name === "delete_notes_by_id")!;
    expect([rule.kind, rule.query_variants]).toEqual(["delete", undefined]);
  });
});
