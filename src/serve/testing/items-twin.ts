/**
 * Hand-built Models for tests, shaped like what learn produces from the
 * fixture apps: the items app (int ids, `{data,total}` envelope, ISO clock,
 * a `done` filter, limit/offset) and the boards app (UUID boards, cards
 * nested under boards, epoch-ms clock, a form-encoded comment). Tests of
 * serve use them until real captures are learned end to end.
 */
import type { Endpoint, FieldRule, Model, SeedState, WriteRule } from "../../learn/model-schema.js";

type EndpointSpec = Pick<Endpoint, "tool_name" | "method" | "template" | "kind" | "collection" | "serving"> &
  Partial<Endpoint>;

function endpoint(spec: EndpointSpec): Endpoint {
  const params = [...spec.template.matchAll(/\{([^}]+)\}/g)].map((m) => ({
    name: m[1]!,
    in: "path" as const,
    schema: { type: m[1] === "id" ? "integer" : "string" },
  }));
  return {
    params,
    request_body: null,
    request_schema: null,
    response_schemas: {},
    withheld: null,
    observations: 1,
    explain: `${spec.method} ${spec.template}`,
    ...spec,
  };
}

const f = (field: string, rule: FieldRule) => ({ field, rule });
const fromBody = (field: string, otherwise: FieldRule | { kind: "omit" }) =>
  f(field, {
    kind: "from_request",
    pointer: `/${field}`,
    otherwise:
      otherwise.kind === "constant"
        ? otherwise
        : otherwise.kind === "keep"
          ? { kind: "keep" }
          : { kind: "omit" },
  });

function write(
  spec: Omit<WriteRule, "explain" | "content_type"> & { content_type?: string | null },
): WriteRule {
  return { content_type: "application/json", explain: `${spec.kind} ${spec.collection}`, ...spec };
}

/** The items app's seed (the five items every fresh app starts with). */
export const ITEMS_SEED_STATE: SeedState = {
  collections: {
    items: [
      [1, "Buy coffee beans", false, "2026-01-05T09:00:00.000Z", "2026-01-05T09:00:00.000Z"],
      [2, "Renew passport", true, "2026-01-12T14:30:00.000Z", "2026-02-02T08:15:00.000Z"],
      [3, "Call the plumber", false, "2026-01-20T11:45:00.000Z", "2026-01-20T11:45:00.000Z"],
      [4, "Water the plants", true, "2026-02-03T07:05:00.000Z", "2026-02-10T18:20:00.000Z"],
      [5, "Book dentist appointment", false, "2026-02-14T16:00:00.000Z", "2026-02-14T16:00:00.000Z"],
    ].map(([id, title, done, created_at, updated_at]) => ({ id, title, done, created_at, updated_at })),
  },
};

/** The items app's Model: state-backed CRUD on `items`, a replayed login, a withheld redirect. */
export function itemsModel(): Model {
  const json = { request_body: "json" as const, request_schema: { type: "object" } };
  return {
    schema_version: 1,
    app_origin: "http://127.0.0.1:4010",
    endpoints: [
      endpoint({
        tool_name: "get_items",
        method: "GET",
        template: "/api/items",
        kind: "list",
        collection: "items",
        serving: "state",
        params: [
          { name: "done", in: "query", schema: { type: "string" } },
          { name: "limit", in: "query", schema: { type: "integer" } },
          { name: "offset", in: "query", schema: { type: "integer" } },
        ],
      }),
      endpoint({
        tool_name: "get_items_by_id",
        method: "GET",
        template: "/api/items/{id}",
        kind: "item",
        collection: "items",
        serving: "state",
      }),
      endpoint({
        tool_name: "post_items",
        method: "POST",
        template: "/api/items",
        kind: "create",
        collection: "items",
        serving: "state",
        ...json,
      }),
      endpoint({
        tool_name: "put_items_by_id",
        method: "PUT",
        template: "/api/items/{id}",
        kind: "update",
        collection: "items",
        serving: "state",
        ...json,
      }),
      endpoint({
        tool_name: "patch_items_by_id",
        method: "PATCH",
        template: "/api/items/{id}",
        kind: "patch",
        collection: "items",
        serving: "state",
        ...json,
      }),
      endpoint({
        tool_name: "delete_items_by_id",
        method: "DELETE",
        template: "/api/items/{id}",
        kind: "delete",
        collection: "items",
        serving: "state",
      }),
      endpoint({
        tool_name: "post_login",
        method: "POST",
        template: "/api/login",
        kind: "other",
        collection: null,
        serving: "replay",
        ...json,
      }),
      endpoint({
        tool_name: "get_items_summary",
        method: "GET",
        template: "/api/items/summary",
        kind: "other",
        collection: null,
        serving: "replay",
      }),
      endpoint({
        tool_name: "post_items_archive",
        method: "POST",
        template: "/api/items/archive",
        kind: "other",
        collection: "items",
        serving: "withheld",
        withheld: {
          reason: "not_read_back",
          hint: "After POST /api/items/archive, read GET /api/items back in the same scenario, then rebuild.",
        },
      }),
    ],
    collections: [
      {
        name: "items",
        id_field: "id",
        id_kind: "int",
        list_endpoint: "get_items",
        item_endpoint: "get_items_by_id",
        envelope: { kind: "object", items_key: "data", total_key: "total", constants: {} },
        item_envelope: { kind: "bare" },
        parent: null,
        list_order: { kind: "insertion" },
        filters: [{ param: "done", field: "done", kind: "equals" }],
        pagination: { limit_param: "limit", offset_param: "offset" },
        not_found: { status: 404, content_type: "application/json", body: { error: "not_found" } },
        explain: "items: a list read with a {data,total} envelope and an item read by id",
      },
    ],
    write_rules: [
      write({
        tool_name: "post_items",
        kind: "create",
        collection: "items",
        id_param: null,
        status: 201,
        response: { kind: "entity" },
        fields: [
          f("id", { kind: "id_sequence", start: 6, step: 1 }),
          fromBody("title", { kind: "omit" }),
          fromBody("done", { kind: "constant", value: false }),
          f("created_at", { kind: "clock", format: "iso" }),
          f("updated_at", { kind: "copy", from: "created_at" }),
        ],
      }),
      write({
        tool_name: "put_items_by_id",
        kind: "replace",
        collection: "items",
        id_param: "id",
        status: 200,
        response: { kind: "entity" },
        fields: [
          f("id", { kind: "keep" }),
          fromBody("title", { kind: "keep" }),
          fromBody("done", { kind: "keep" }),
          f("created_at", { kind: "keep" }),
          f("updated_at", { kind: "clock", format: "iso" }),
        ],
      }),
      write({
        tool_name: "patch_items_by_id",
        kind: "merge",
        collection: "items",
        id_param: "id",
        status: 200,
        response: { kind: "entity" },
        fields: [
          fromBody("title", { kind: "keep" }),
          fromBody("done", { kind: "keep" }),
          f("updated_at", { kind: "clock", format: "iso" }),
        ],
      }),
      write({
        tool_name: "delete_items_by_id",
        kind: "delete",
        collection: "items",
        id_param: "id",
        status: 204,
        content_type: null,
        response: { kind: "empty" },
        fields: [],
      }),
    ],
    replays: [
      {
        method: "POST",
        path_and_query: "/api/login",
        tool_name: "post_login",
        responses: [
          {
            status: 200,
            headers: { "content-type": "application/json" },
            body: {
              encoding: "json",
              value: {
                token: "[REDACTED:field:token]",
                user: { id: 1, email: "admin@example.test", name: "Admin" },
              },
            },
          },
        ],
      },
      {
        method: "GET",
        path_and_query: "/api/items/summary?range=week&tz=UTC",
        tool_name: "get_items_summary",
        responses: [
          {
            status: 200,
            headers: { "Content-Type": "application/json" },
            body: { encoding: "json", value: { open: 3 } },
          },
          {
            status: 200,
            headers: { "Content-Type": "application/json" },
            body: { encoding: "json", value: { open: 4 } },
          },
        ],
      },
    ],
    clock: { last_time_ms: Date.UTC(2026, 2, 1, 12, 0, 0), step_ms: 1000 },
    id_sequences: { items: 6 },
  };
}

/** A boards-like Model: UUID boards, cards nested under a board, epoch-ms clock. */
export function boardsModel(): Model {
  return {
    schema_version: 1,
    app_origin: "http://127.0.0.1:4020",
    endpoints: [
      endpoint({
        tool_name: "get_boards_cards_by_board_id",
        method: "GET",
        template: "/api/boards/{board_id}/cards",
        kind: "list",
        collection: "cards",
        serving: "state",
      }),
      endpoint({
        tool_name: "post_boards_cards_by_board_id",
        method: "POST",
        template: "/api/boards/{board_id}/cards",
        kind: "create",
        collection: "cards",
        serving: "state",
        request_body: "form",
      }),
      endpoint({
        tool_name: "get_boards_cards_by_board_id_and_id",
        method: "GET",
        template: "/api/boards/{board_id}/cards/{id}",
        kind: "item",
        collection: "cards",
        serving: "state",
      }),
    ],
    collections: [
      {
        name: "cards",
        id_field: "id",
        id_kind: "uuid",
        list_endpoint: "get_boards_cards_by_board_id",
        item_endpoint: "get_boards_cards_by_board_id_and_id",
        envelope: { kind: "bare" },
        item_envelope: { kind: "object", item_key: "card" },
        parent: { collection: "boards", param: "board_id", field: "board_id" },
        list_order: { kind: "field", field: "created_ms", direction: "desc" },
        filters: [],
        pagination: null,
        not_found: null,
        explain: "cards of one board",
      },
    ],
    write_rules: [
      write({
        tool_name: "post_boards_cards_by_board_id",
        kind: "create",
        collection: "cards",
        id_param: null,
        status: 201,
        response: { kind: "wrapped", key: "card" },
        fields: [
          f("id", { kind: "uuid" }),
          f("board_id", { kind: "path_param", name: "board_id" }),
          fromBody("title", { kind: "omit" }),
          f("created_ms", { kind: "clock", format: "epoch_ms" }),
        ],
      }),
    ],
    replays: [],
    clock: { last_time_ms: 1_735_689_600_000, step_ms: 500 },
    id_sequences: {},
  };
}

/** Two boards' cards, board A's older first. */
export const BOARDS_SEED_STATE: SeedState = {
  collections: {
    cards: [
      {
        id: "0b6f2a7e-0000-4000-8000-000000000001",
        board_id: "A",
        title: "Write notes",
        created_ms: 1_735_689_600_000,
      },
      {
        id: "0b6f2a7e-0000-4000-8000-000000000002",
        board_id: "B",
        title: "Paint hallway",
        created_ms: 1_735_689_700_000,
      },
      {
        id: "0b6f2a7e-0000-4000-8000-000000000003",
        board_id: "A",
        title: "Fix login",
        created_ms: 1_735_689_800_000,
      },
    ],
  },
};
