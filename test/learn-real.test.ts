/**
 * Golden coverage of REAL recordings: evidence captured in Chromium from the
 * fixture apps by `scripts/record-fixtures.mjs` (checked in), plus one live
 * capture of the items scenario whose serving table must equal the golden one
 * (values such as times differ run to run; the table must not).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startItemsApp } from "../scripts/fixtures/items-app/server.mjs";
import { learnModel } from "../src/bundle/learn-model.js";
import { runCapture } from "../src/capture/run-capture.js";
import { type Coverage, CoverageSchema } from "../src/coverage/coverage-schema.js";
import { readEvidence } from "../src/evidence/evidence-io.js";
import { ModelSchema, SeedStateSchema } from "../src/model/model-schema.js";
import { loadScenario } from "../src/scenario/scenario-io.js";

const root = join(import.meta.dirname, "..");
const fixture = (name: string) => join(root, "test", "fixtures", "evidence", name);

/** The serving table of a report: one row per tool, the same whatever the recorded values. */
function servingTable(c: Coverage): string[][] {
  return [
    ...c.reads.map((r) => [r.tool_name, r.method, r.template, r.serving, r.collection ?? "", ""]),
    ...c.writes.served.map((w) => [w.tool_name, w.method, w.template, "state", w.collection ?? "", ""]),
    ...(c.sign_in ?? []).map((s) => [s.tool_name, s.method, s.template, "replay", "", "sign_in"]),
    ...c.writes.withheld.map((w) => [
      w.tool_name,
      w.method,
      w.template,
      "withheld",
      w.collection ?? "",
      w.reason,
    ]),
  ];
}

const ITEMS_TABLE = [
  ["get_items", "GET", "/api/items", "state", "items", ""],
  ["get_items_by_id", "GET", "/api/items/{id}", "state", "items", ""],
  ["delete_items_by_id", "DELETE", "/api/items/{id}", "state", "items", ""],
  ["patch_items_by_id", "PATCH", "/api/items/{id}", "state", "items", ""],
  ["post_items", "POST", "/api/items", "state", "items", ""],
  ["put_items_by_id", "PUT", "/api/items/{id}", "state", "items", ""],
  ["post_login", "POST", "/api/login", "replay", "", "sign_in"],
];

describe("learning a real capture of the items app", async () => {
  const evidence = await readEvidence(fixture("items.capture.json"));
  const { model, seed, coverage } = learnModel(evidence);

  it("produces documents that parse with their own schemas", () => {
    expect(() => ModelSchema.parse(model)).not.toThrow();
    expect(() => SeedStateSchema.parse(seed)).not.toThrow();
    expect(() => CoverageSchema.parse(coverage)).not.toThrow();
  });

  it("reports golden coverage: every write served, the sign-in replayed", () => {
    expect(coverage.status).toBe("complete");
    expect(coverage.counts).toEqual({ records: 23, api_records: 17, assets: 6, ignored: 0 });
    expect(servingTable(coverage)).toEqual(ITEMS_TABLE);
    expect(coverage.sign_in).toEqual([
      {
        tool_name: "post_login",
        method: "POST",
        template: "/api/login",
        observations: 1,
        explain: "POST /api/login replays the recorded sign-in answer; the twin does not check credentials.",
      },
    ]);
    expect(coverage.collections).toEqual([{ name: "items", id_field: "id", entities: 6 }]);
    expect(coverage.next).toBeNull();
    expect(coverage.warnings.map((w) => [w.code, w.path])).toEqual([
      ["redacted_field", "records[3].request.body.password"],
      ["redacted_field", "records[3].response.body.token"],
    ]);
  });

  it("learns the collection, its filter and pagination, and replays the sign-in answer", () => {
    const [items] = model.collections;
    expect(items).toMatchObject({
      envelope: { kind: "object", items_key: "data", total_key: "total", constants: {} },
      filters: [{ param: "done", field: "done", kind: "equals" }],
      pagination: { limit_param: "limit", offset_param: "offset" },
      not_found: { status: 404, body: { error: "not_found" } },
      list_order: { kind: "insertion" },
    });
    const login = model.endpoints.find((e) => e.tool_name === "post_login")!;
    expect(login).toMatchObject({ serving: "replay", kind: "other", collection: null, withheld: null });
    expect(model.replays.map((r) => [r.method, r.path_and_query, r.responses.map((x) => x.status)])).toEqual([
      ["POST", "/api/login", [200]],
    ]);
    expect(model.replays[0]!.responses[0]!.body).toEqual({
      encoding: "json",
      value: { token: "[REDACTED:field:token]", user: { id: 1, email: "admin@example.test", name: "Admin" } },
    });
    expect(seed.collections["items"]!.map((i) => i["id"])).toEqual([1, 2, 3, 4, 5, 6]);
    // The recording patched only done; the create proves title is settable, so a PATCH of it is served.
    const patch = model.write_rules.find((r) => r.tool_name === "patch_items_by_id")!;
    expect(patch.explain).toContain(
      "title: from the request when sent (settable: POST /api/items sets it), else kept;",
    );
    // ...and the PATCH tool's input says so: title is a property, and a partial update requires nothing.
    const patchInput = model.endpoints.find((e) => e.tool_name === "patch_items_by_id")!.request_schema!;
    expect(Object.keys(patchInput["properties"] as object)).toEqual(["done", "title"]);
    expect(patchInput["required"]).toBeUndefined();
    expect(model.validations).toEqual([]);
    expect(model.id_sequences).toEqual({ items: 8 });
  });

  it("gives the same bytes for the same evidence", () => {
    expect(JSON.stringify(learnModel(evidence))).toBe(JSON.stringify({ model, seed, coverage }));
  });
});

describe("learning a real capture of the boards app", async () => {
  const { model, coverage } = learnModel(await readEvidence(fixture("boards.capture.json")));

  it("reports golden coverage", () => {
    expect(() => CoverageSchema.parse(coverage)).not.toThrow();
    expect(coverage.status).toBe("partial");
    expect(coverage.counts).toEqual({ records: 23, api_records: 20, assets: 3, ignored: 0 });
    expect(servingTable(coverage)).toEqual([
      ["get_boards", "GET", "/api/boards", "state", "boards", ""],
      ["get_boards_by_id", "GET", "/api/boards/{id}", "state", "boards", ""],
      ["get_boards_cards_by_board_id", "GET", "/api/boards/{board_id}/cards", "state", "cards", ""],
      [
        "get_boards_cards_by_board_id_and_id",
        "GET",
        "/api/boards/{board_id}/cards/{id}",
        "state",
        "cards",
        "",
      ],
      ["get_boards_comments_by_board_id", "GET", "/api/boards/{board_id}/comments", "state", "comments", ""],
      [
        "get_boards_comments_by_board_id_and_id",
        "GET",
        "/api/boards/{board_id}/comments/{id}",
        "inferred",
        "comments",
        "",
      ],
      ["get_search", "GET", "/api/search", "replay", "", ""],
      [
        "delete_boards_cards_by_board_id_and_id",
        "DELETE",
        "/api/boards/{board_id}/cards/{id}",
        "state",
        "cards",
        "",
      ],
      [
        "patch_boards_cards_by_board_id_and_id",
        "PATCH",
        "/api/boards/{board_id}/cards/{id}",
        "state",
        "cards",
        "",
      ],
      ["post_boards", "POST", "/api/boards", "state", "boards", ""],
      [
        "post_boards_comments_by_board_id",
        "POST",
        "/api/boards/{board_id}/comments",
        "state",
        "comments",
        "",
      ],
      [
        "post_boards_archive_by_board_id",
        "POST",
        "/api/boards/{board_id}/archive",
        "withheld",
        "boards",
        "not_read_back",
      ],
      [
        "post_boards_cards_by_board_id",
        "POST",
        "/api/boards/{board_id}/cards",
        "withheld",
        "cards",
        "unexplained_field",
      ],
    ]);
    expect(coverage.sign_in).toEqual([]);
    expect(coverage.collections).toEqual([
      { name: "boards", id_field: "id", entities: 3 },
      { name: "cards", id_field: "id", entities: 7 },
      { name: "comments", id_field: "id", entities: 2 },
    ]);
    expect(coverage.writes.withheld.map((w) => w.hint)).toEqual([
      "Record a GET /api/boards/{id} after POST /api/boards/{board_id}/archive to confirm its effect",
      'Field "etag" in the answer of POST /api/boards/{board_id}/cards is a random token the app generates (16 hex characters) that only the answer carries: no request sent it and no read shows it, so no recording can explain it and the write stays withheld',
    ]);
    expect(coverage.next).toBe(
      "Record a GET /api/boards/{id} after POST /api/boards/{board_id}/archive to confirm its effect",
    );
    expect(coverage.warnings.map((w) => [w.code, w.path])).toEqual([
      ["failed_write", "records[21].response.status"],
    ]);
  });

  it("nests cards and comments under boards and replays the search", () => {
    expect(model.collections.map((c) => [c.name, c.id_kind, c.parent?.field ?? null, c.filters])).toEqual([
      ["boards", "uuid", null, []],
      ["cards", "uuid", "boardId", []],
      ["comments", "uuid", "boardId", []],
    ]);
    expect(model.replays.map((r) => [r.method, r.path_and_query])).toEqual([["GET", "/api/search?q=launch"]]);
  });

  it("answers a card create with a blank title as the app did (its recorded 422)", () => {
    expect(coverage.validations).toEqual([
      {
        tool_name: "post_boards_cards_by_board_id",
        method: "POST",
        template: "/api/boards/{board_id}/cards",
        field: "title",
        kind: "missing",
        status: 422,
        explain:
          'POST /api/boards/{board_id}/cards answers 422 with the recorded body when the request body lacks "title" or leaves it blank (every successful request sent it; recorded at records[21]).',
      },
    ]);
    expect(model.validations![0]!.body).toEqual({ message: "title is required", field: "title" });
  });
});

describe("learning a live capture of the items scenario", () => {
  const PASSWORD = "learn-real-live-pass-41";
  let app: Awaited<ReturnType<typeof startItemsApp>>;
  let coverage: Coverage;

  beforeAll(async () => {
    app = await startItemsApp({ port: 0, password: PASSWORD });
    const scenario = await loadScenario(join(root, "examples", "items.scenario.json"));
    const outcome = await runCapture({
      scenario: { ...scenario, start_url: `${app.url}/` },
      env: { ITEMS_PASSWORD: PASSWORD },
    });
    expect(outcome.evidence.steps.filter((s) => s.status !== "passed")).toEqual([]);
    expect(JSON.stringify(outcome.evidence)).not.toContain(PASSWORD);
    coverage = learnModel(outcome.evidence).coverage;
  }, 120_000);

  afterAll(async () => {
    await app?.close();
  });

  it("serves the same table as the checked-in recording", () => {
    expect(servingTable(coverage)).toEqual(ITEMS_TABLE);
    expect(coverage.status).toBe("complete");
    const golden = JSON.parse(readFileSync(fixture("items.capture.json"), "utf8")) as { records: unknown[] };
    expect(coverage.counts.records).toBe(golden.records.length);
  });
});
