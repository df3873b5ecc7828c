/**
 * A hand-built boards-like Model for tests: UUID cards nested under boards,
 * ordered by an epoch-ms field, created from a form body.
 */
import type { Model, SeedState } from "../../learn/model-schema.js";
import { endpoint, f, fromBody, write } from "./model-builders.js";

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
