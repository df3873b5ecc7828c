/** What a write endpoint acts on when its path is not the collection's list path. */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs } from "../../test/support/learn-specs.js";

const flows = (data: unknown[]): RecordSpec => ({ path: "/flows", status: 200, res: data });
const a = { id: 1, label: "A" };
const b = { id: 2, label: "B" };

describe("write targets", () => {
  it("serves a create at the item path's parent (POST /flow beside GET /flow/{id}) over the list GET /flows", () => {
    const { model, coverage } = learnSpecs([
      flows([a, b]),
      { path: "/flow/1", status: 200, res: a },
      { method: "POST", path: "/flow", status: 200, req: { label: "C" }, res: { id: 3, label: "C" } },
      flows([a, b, { id: 3, label: "C" }]),
    ]);
    const rule = model.write_rules.find((r) => r.tool_name === "post_flow")!;
    expect([rule.kind, rule.collection]).toEqual(["create", "flows"]);
    expect(rule.fields.map((f) => [f.field, f.rule.kind])).toEqual([
      ["id", "id_sequence"],
      ["label", "from_request"],
    ]);
    expect(coverage.writes.withheld).toEqual([]);
  });

  it("refuses it when no read after it shows the entity it created", () => {
    const { coverage } = learnSpecs([
      flows([a, b]),
      { path: "/flow/1", status: 200, res: a },
      { method: "POST", path: "/flow", status: 200, req: { label: "C" }, res: { id: 3, label: "C" } },
      flows([a, b]),
    ]);
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason, w.hint, w.closable])).toEqual([
      [
        "post_flow",
        "not_read_back",
        "The full GET /flows after POST /flow (records[3]) does not show the entity it created (id 3): the recording shows the app not keeping it, and a twin that kept it would answer otherwise, so no recording can close this gap: the write stays withheld",
        false,
      ],
    ]);
  });

  it("without an item read, serves writes at the list's singular sibling (PUT /flow/{id}) the list read-back confirms", () => {
    const { model, coverage } = learnSpecs([
      flows([a, b]),
      { method: "PUT", path: "/flow/2", status: 200, req: { label: "B2" }, res: { id: 2, label: "B2" } },
      { method: "DELETE", path: "/flow/1", status: 204 },
      flows([{ id: 2, label: "B2" }]),
    ]);
    expect(coverage.writes.withheld).toEqual([]);
    expect(model.write_rules.map((r) => [r.tool_name, r.kind, r.collection, r.id_param])).toEqual([
      ["delete_flow_by_id", "delete", "flows", "id"],
      ["put_flow_by_id", "merge", "flows", "id"],
    ]);
  });

  it("refuses them when the list read-back contradicts them, and never takes another name for the singular", () => {
    const { coverage } = learnSpecs([
      flows([a, b]),
      { method: "PUT", path: "/flow/2", status: 200, req: { label: "B2" }, res: { id: 2, label: "B2" } },
      { method: "PUT", path: "/flowz/2", status: 200, req: { label: "B3" }, res: { id: 2, label: "B3" } },
      flows([a, b]),
    ]);
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason])).toEqual([
      ["put_flow_by_id", "read_back_disagrees"],
      ["put_flowz_by_id", "no_collection"],
    ]);
  });
});

describe("an update by POST on the item path", () => {
  const items = (data: unknown[]): RecordSpec => ({ path: "/pages", status: 200, res: data });
  const p1 = { id: 1, title: "About", order: 0 };
  const p2 = { id: 2, title: "Team", order: 1 };
  const retitle: RecordSpec = {
    method: "POST",
    path: "/pages/1",
    status: 200,
    req: { title: "About us" },
    res: { ...p1, title: "About us" },
  };

  it("serves POST /pages/{id} as a merge when the item read after it shows what it sent", () => {
    const { model, coverage } = learnSpecs([
      items([p1, p2]),
      { path: "/pages/1", status: 200, res: p1 },
      retitle,
      { path: "/pages/1", status: 200, res: { ...p1, title: "About us" } },
    ]);
    expect(coverage.writes.withheld).toEqual([]);
    const rule = model.write_rules.find((r) => r.tool_name === "post_pages_by_id")!;
    expect([rule.kind, rule.collection, rule.id_param]).toEqual(["merge", "pages", "id"]);
    expect(rule.fields.find((f) => f.field === "title")?.rule.kind).toBe("from_request");
  });

  it("withholds it when the read after it shows the entity unchanged (the POST did not update it)", () => {
    const { coverage } = learnSpecs([
      items([p1, p2]),
      { path: "/pages/1", status: 200, res: p1 },
      retitle,
      { path: "/pages/1", status: 200, res: p1 },
    ]);
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason])).toEqual([
      ["post_pages_by_id", "read_back_disagrees"],
    ]);
  });
});
