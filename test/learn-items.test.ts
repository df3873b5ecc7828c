/** Golden learning and coverage of the hand-built items recording: what is state-backed, served and withheld. */
import { describe, expect, it } from "vitest";
import { learnModel } from "../src/bundle/learn-model.js";
import { CoverageSchema } from "../src/coverage/coverage-schema.js";
import { ModelSchema, SeedStateSchema } from "../src/model/model-schema.js";
import { ITEMS, itemsEvidence } from "./fixtures/evidence/items-evidence.js";

describe("learning the items app", () => {
  const { model, seed, coverage } = learnModel(itemsEvidence());

  it("produces documents that parse with their own schemas", () => {
    expect(() => ModelSchema.parse(model)).not.toThrow();
    expect(() => SeedStateSchema.parse(seed)).not.toThrow();
    expect(() => CoverageSchema.parse(coverage)).not.toThrow();
  });

  it("reports golden coverage", () => {
    expect(coverage.status).toBe("complete");
    expect(coverage.counts).toEqual({ records: 19, api_records: 17, assets: 2, ignored: 0 });
    expect(coverage.reads.map((r) => [r.tool_name, r.serving])).toEqual([
      ["get_items", "state"],
      ["get_items_by_id", "state"],
    ]);
    expect(coverage.writes.served.map((w) => w.tool_name)).toEqual([
      "delete_items_by_id",
      "patch_items_by_id",
      "post_items",
      "put_items_by_id",
    ]);
    expect(coverage.writes.withheld).toEqual([]);
    expect(coverage.sign_in!.map((s) => s.tool_name)).toEqual(["post_login"]);
    expect(coverage.next).toBeNull();
    expect(coverage.warnings.map((w) => [w.code, w.path])).toEqual([
      ["redacted_field", "records[2].request.body.password"],
      ["redacted_field", "records[2].response.body.token"],
    ]);
  });

  it("learns the items collection with its envelope, filter, pagination and 404", () => {
    const [items] = model.collections;
    expect(model.collections).toHaveLength(1);
    expect(items).toMatchObject({
      name: "items",
      id_field: "id",
      id_kind: "int",
      envelope: { kind: "object", items_key: "data", total_key: "total", constants: {} },
      item_envelope: { kind: "bare" },
      list_order: { kind: "insertion" },
      filters: [{ param: "done", field: "done", kind: "equals" }],
      pagination: { limit_param: "limit", offset_param: "offset" },
      not_found: { status: 404, body: { error: "not_found" } },
    });
    expect(items!.explain).toBe(
      'Collection items, identified by id, listed as an object with the entities under "data" in insertion order; filters: done=done; pagination: limit/offset.',
    );
    expect(model.replays.map((r) => `${r.method} ${r.path_and_query}`)).toEqual(["POST /api/login"]);
  });

  it("seeds the state the recording ended with, in the app's order", () => {
    expect(seed.collections["items"]!.map((i) => i["id"])).toEqual([1, 2, 4, 5, 6, 7]);
    expect(seed.collections["items"]![0]).toEqual(ITEMS[0]);
    expect(model.id_sequences).toEqual({ items: 8 });
    expect(model.clock).toEqual({ last_time_ms: Date.UTC(2026, 2, 1, 10, 0, 18) + 5, step_ms: 1000 });
  });

  it("learns the create rule field by field", () => {
    const create = model.write_rules.find((r) => r.tool_name === "post_items")!;
    expect(create.status).toBe(201);
    expect(create.response).toEqual({ kind: "entity" });
    expect(create.fields).toEqual([
      { field: "id", rule: { kind: "id_sequence", start: 8, step: 1 } },
      {
        field: "title",
        // Every item holds a title and no create left it out: the documented default, labelled unconfirmed.
        rule: {
          kind: "from_request",
          pointer: "/title",
          otherwise: { kind: "constant", value: null, default: "unconfirmed" },
        },
      },
      {
        field: "done",
        rule: { kind: "from_request", pointer: "/done", otherwise: { kind: "constant", value: false } },
      },
      { field: "created_at", rule: { kind: "clock", format: "iso" } },
      { field: "updated_at", rule: { kind: "clock", format: "iso" } },
    ]);
    expect(create.explain).toBe(
      "POST /api/items creates one item and answers 201 with the entity (id: the next integer id (from 8, step 1), after the highest ever seen; title: taken from the request body at /title, or null when the request has none (default: unconfirmed; no recorded create left it out, and every entity recorded holds it: the documented rule's value); done: taken from the request body at /done, or false when the request has none; created_at: the episode clock, as an ISO 8601 time; updated_at: the episode clock, as an ISO 8601 time).",
    );
  });

  it("learns patch as a merge that keeps what the request leaves out", () => {
    const patch = model.write_rules.find((r) => r.tool_name === "patch_items_by_id")!;
    expect(patch).toMatchObject({ kind: "merge", id_param: "id", status: 200 });
    expect(Object.fromEntries(patch.fields.map((f) => [f.field, f.rule.kind]))).toEqual({
      id: "keep",
      // The recording patched only done; the create proves title is client-settable.
      title: "from_request",
      done: "from_request",
      created_at: "keep",
      updated_at: "clock",
    });
    expect(patch.fields[1]!.rule).toEqual({
      kind: "from_request",
      pointer: "/title",
      otherwise: { kind: "keep" },
      settable_by: "POST /api/items",
    });
    const del = model.write_rules.find((r) => r.tool_name === "delete_items_by_id")!;
    expect(del).toMatchObject({ kind: "delete", status: 204, response: { kind: "empty" }, fields: [] });
  });

  it("merges request and response schemas across observations", () => {
    const post = model.endpoints.find((e) => e.tool_name === "post_items")!;
    expect(post.request_schema).toEqual({
      type: "object",
      properties: { done: { type: "boolean" }, title: { type: "string" } },
      required: ["title"],
    });
    const get = model.endpoints.find((e) => e.tool_name === "get_items_by_id")!;
    expect(Object.keys(get.response_schemas)).toEqual(["200", "404"]);
    expect(get.params).toEqual([{ name: "id", in: "path", schema: { type: "integer" } }]);
  });

  it("is deterministic", () => {
    expect(JSON.stringify(learnModel(itemsEvidence()))).toBe(JSON.stringify({ model, seed, coverage }));
  });
});
