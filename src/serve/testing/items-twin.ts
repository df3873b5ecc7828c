/**
 * Hand-built Models for tests, shaped like what learn produces from the
 * fixture apps: the items app (int ids, `{data,total}` envelope, ISO clock,
 * a `done` filter, limit/offset) (boards: boards-twin.ts).
 */
import type { Model, SeedState } from "../../learn/model-schema.js";
import { itemsWriteRules } from "./items-write-rules.js";
import { endpoint } from "./model-builders.js";

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

/** The items app's Model: state-backed CRUD on `items` (writes in items-write-rules.ts), a replayed login, a withheld redirect. */
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
    write_rules: itemsWriteRules(),
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
