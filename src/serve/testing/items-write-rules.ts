/**
 * The items app's write rules for the hand-built test Model: how a create,
 * replace, merge and delete of an item are served (items-twin.ts reads them).
 */
import type { WriteRule } from "../../learn/model-schema.js";
import { f, fromBody, write } from "./model-builders.js";

/** The served writes of the items app: create with ids from 6 and the clock, replace, merge, delete. */
export function itemsWriteRules(): WriteRule[] {
  return [
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
  ];
}
