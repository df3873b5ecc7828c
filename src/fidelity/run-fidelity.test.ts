import { describe, expect, it } from "vitest";
import { apiRecord, heldoutEvidence, ITEMS_MODEL_WITH_WRITES } from "../../test/fixtures/bundle/heldout.js";
import { ITEMS_SEED } from "../../test/fixtures/bundle/items-model.js";
import type { Model, SeedState } from "../model/model-schema.js";
import { formatFidelity } from "./format-fidelity.js";
import { runFidelity } from "./run-fidelity.js";

const [one, two] = ITEMS_SEED.collections["items"]!;
const eggs = {
  id: 8,
  title: "Eggs",
  done: false,
  created_at: "2026-03-01T10:00:00.000Z",
  updated_at: "2026-03-01T10:00:00.000Z",
};

describe("runFidelity on the items model", () => {
  const heldout = heldoutEvidence([
    apiRecord(0, "GET", "/api/items", 200, { data: [one, two], total: 2 }),
    apiRecord(1, "POST", "/api/items", 201, eggs, { title: "Eggs" }),
    apiRecord(2, "GET", "/api/items/8", 200, eggs),
    apiRecord(3, "GET", "/api/items?done=true", 200, { data: [two], total: 1 }),
    apiRecord(4, "GET", "/api/items?limit=1&offset=1", 200, { data: [two], total: 3 }),
    apiRecord(5, "DELETE", "/api/items/8", 204),
    apiRecord(6, "GET", "/api/items/8", 404, { error: "not_found" }),
    apiRecord(7, "PATCH", "/api/items/1", 200, { ...one, done: true }, { done: true }),
    apiRecord(8, "GET", "/api/items/2", 200, { ...two, title: "Call dad" }),
    apiRecord(9, "POST", "/api/login", 200, { token: "[REDACTED:field:token]" }, { email: "a@b" }),
  ]);
  const report = runFidelity({ model: ITEMS_MODEL_WITH_WRITES, seed: ITEMS_SEED, heldout });

  it("matches reads, served writes, filters, pagination and clock fields by format", () => {
    expect(report.results.map((r) => [r.request, r.matched])).toEqual([
      ["GET /api/items", true],
      ["POST /api/items", true],
      ["GET /api/items/8", true],
      ["GET /api/items?done=true", true],
      ["GET /api/items?limit=1&offset=1", true],
      ["DELETE /api/items/8", true],
      ["GET /api/items/8", true],
      ["PATCH /api/items/1", false],
      ["GET /api/items/2", false],
      ["POST /api/login", false],
    ]);
    expect(report.requests).toBe(10);
    expect(report.matched).toBe(7);
    expect(report.score).toBe(0.7);
  });

  it("reports per tool and the differences with field paths", () => {
    expect(report.tools.find((t) => t.tool === "get_items")).toEqual({
      tool: "get_items",
      requests: 3,
      matched: 3,
      score: 1,
    });
    expect(report.tools.find((t) => t.tool === "patch_items_by_id")).toEqual({
      tool: "patch_items_by_id",
      requests: 1,
      matched: 0,
      score: 0,
    });
    expect(report.differences.slice(0, 2)).toEqual([
      {
        index: 7,
        tool: "patch_items_by_id",
        request: "PATCH /api/items/1",
        field: "status",
        expected: 200,
        got: 501,
      },
      {
        index: 8,
        tool: "get_items_by_id",
        request: "GET /api/items/2",
        field: "body.title",
        expected: "Call dad",
        got: "Call mom",
      },
    ]);
    expect(report.results[7]!.served_by).toBe("withheld");
    expect(report.results[7]!.twin_explanation).toMatch(
      /^not_served: apptwin does not serve PATCH \/api\/items\/\{id\}: the recording did not prove its effect \(/,
    );
    expect(report.results.filter((r) => r.matched).every((r) => r.twin_explanation === null)).toBe(true);
    expect(report.results[8]!.twin_explanation).toBeNull();
    const text = formatFidelity(report);
    expect(text[text.indexOf(text.find((l) => l.startsWith("  records[7]"))!) + 1]).toBe(
      `    the twin: ${report.results[7]!.twin_explanation}`,
    );
    expect(text[0]).toBe(
      "Fidelity: 7 of 10 requests answered like the app (70.0%), held-out evidence ev_feedfacefeedface",
    );
    expect(text).toContain(
      '  records[8] get_items_by_id GET /api/items/2: body.title expected "Call dad", got "Call mom"',
    );
  });

  it("counts a different integer id from a create as a difference", () => {
    const r = runFidelity({
      model: { ...ITEMS_MODEL_WITH_WRITES, id_sequences: { items: 9 } },
      seed: ITEMS_SEED,
      heldout: heldoutEvidence([
        apiRecord(0, "POST", "/api/items", 201, eggs, { title: "Eggs" }),
        apiRecord(1, "GET", "/api/items/8", 200, eggs),
      ]),
    });
    expect(r.results[0]!.differences).toEqual([{ field: "body.id", expected: 8, got: 9 }]);
    // Later requests by the real id reach the twin's entity.
    expect(r.results[1]!.matched).toBe(true);
  });
});

describe("runFidelity with generated UUIDs", () => {
  const model: Model = {
    schema_version: 1,
    app_origin: "http://127.0.0.1:4020",
    endpoints: [
      {
        tool_name: "get_boards_by_id",
        method: "GET",
        template: "/api/boards/{id}",
        params: [{ name: "id", in: "path", schema: { type: "string", format: "uuid" } }],
        request_body: null,
        request_schema: null,
        response_schemas: { "200": {} },
        kind: "item",
        collection: "boards",
        serving: "state",
        withheld: null,
        observations: 1,
        explain: "",
      },
      {
        tool_name: "post_boards",
        method: "POST",
        template: "/api/boards",
        params: [],
        request_body: "json",
        request_schema: null,
        response_schemas: { "201": {} },
        kind: "create",
        collection: "boards",
        serving: "state",
        withheld: null,
        observations: 1,
        explain: "",
      },
    ],
    collections: [
      {
        name: "boards",
        id_field: "id",
        id_kind: "uuid",
        list_endpoint: null,
        item_endpoint: "get_boards_by_id",
        envelope: { kind: "bare" },
        item_envelope: { kind: "bare" },
        parent: null,
        list_order: { kind: "insertion" },
        filters: [],
        pagination: null,
        not_found: null,
        explain: "",
      },
    ],
    write_rules: [
      {
        tool_name: "post_boards",
        kind: "create",
        collection: "boards",
        id_param: null,
        status: 201,
        content_type: "application/json",
        response: { kind: "entity" },
        explain: "",
        fields: [
          { field: "id", rule: { kind: "uuid" } },
          { field: "name", rule: { kind: "from_request", pointer: "/name", otherwise: { kind: "omit" } } },
          { field: "createdAt", rule: { kind: "clock", format: "epoch_ms" } },
        ],
      },
    ],
    replays: [],
    clock: { last_time_ms: 1772359200000, step_ms: 1000 },
    id_sequences: {},
  };
  const seed: SeedState = { collections: { boards: [] } };
  const real = { id: "0b6f2c1e-9a43-4f55-8d2e-1c3b5a7d9e01", name: "Ops", createdAt: 1772359999123 };

  it("pairs the twin's UUID with the real one and translates later requests", () => {
    const r = runFidelity({
      model,
      seed,
      heldout: heldoutEvidence(
        [
          apiRecord(0, "POST", "/api/boards", 201, real, { name: "Ops" }),
          apiRecord(1, "GET", `/api/boards/${real.id}`, 200, real),
        ],
        "http://127.0.0.1:4020",
      ),
    });
    expect(r.results.map((x) => x.differences)).toEqual([[], []]);
    expect(r.score).toBe(1);
  });

  it("reports a wrong string id the twin did not generate instead of pairing it away", () => {
    const owner = { field: "owner_id", rule: { kind: "constant" as const, value: "user-2" } };
    const fk = "7d1e6c2a-5b4f-4e3d-9c8b-0a1f2e3d4c5b";
    const withOwner: Model = {
      ...model,
      // The recording showed creates sending team_id (which the app did not take): a field the twin knows.
      endpoints: model.endpoints.map((e) =>
        e.tool_name === "post_boards"
          ? {
              ...e,
              request_schema: {
                type: "object",
                properties: { name: { type: "string" }, team_id: { type: "string" } },
              },
            }
          : e,
      ),
      write_rules: model.write_rules.map((w) => ({
        ...w,
        fields: [
          ...w.fields,
          owner,
          {
            field: "team_id",
            rule: { kind: "constant" as const, value: "00000000-0000-4000-8000-000000000000" },
          },
        ],
      })),
    };
    const r = runFidelity({
      model: withOwner,
      seed,
      heldout: heldoutEvidence(
        [
          apiRecord(
            0,
            "POST",
            "/api/boards",
            201,
            { ...real, owner_id: "user-1", team_id: fk },
            {
              name: "Ops",
              team_id: fk,
            },
          ),
          apiRecord(1, "GET", `/api/boards/${real.id}`, 200, { ...real, owner_id: "user-1", team_id: fk }),
        ],
        "http://127.0.0.1:4020",
      ),
    });
    // The generated board id is paired before comparing; the owner the app assigned is reported, then
    // paired (no cascade); the team the request itself named is never paired, so it stays a difference.
    expect(r.results[0]!.differences).toEqual([
      { field: "body.owner_id", expected: "user-1", got: "user-2" },
      { field: "body.team_id", expected: fk, got: "00000000-0000-4000-8000-000000000000" },
    ]);
    expect(r.results[1]!.differences).toEqual([
      { field: "body.team_id", expected: fk, got: "00000000-0000-4000-8000-000000000000" },
    ]);
  });
});
