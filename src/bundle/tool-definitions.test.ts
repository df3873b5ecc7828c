import { describe, expect, it } from "vitest";
import { ITEMS_MODEL } from "../../test/fixtures/bundle/items-model.js";
import { ToolDefinitionSchema } from "./bundle-schema.js";
import { toolsFromModel } from "./tool-definitions.js";

describe("toolsFromModel", () => {
  const tools = toolsFromModel(ITEMS_MODEL);

  it("offers one tool per served or replayed endpoint, sorted by name, never a withheld one", () => {
    expect(tools.map((t) => t.name)).toEqual([
      "delete_items_by_id",
      "get_items",
      "get_items_by_id",
      "post_api_login",
      "post_items",
    ]);
    for (const t of tools) expect(ToolDefinitionSchema.parse(t)).toEqual(t);
  });

  it("puts path params (required), query params (optional) and the body into the input schema", () => {
    const get = tools.find((t) => t.name === "get_items")!;
    expect(get.input_schema["required"]).toEqual([]);
    expect(Object.keys(get.input_schema["properties"] as object)).toEqual(["done", "limit", "offset"]);
    expect(get.binding).toEqual({
      method: "GET",
      template: "/api/items",
      path_params: [],
      query_params: ["done", "limit", "offset"],
      body: null,
    });
    const del = tools.find((t) => t.name === "delete_items_by_id")!;
    expect(del.input_schema["required"]).toEqual(["id"]);
    const post = tools.find((t) => t.name === "post_items")!;
    expect(post.input_schema["required"]).toEqual(["body"]);
    expect(
      (post.input_schema["properties"] as Record<string, Record<string, unknown>>)["body"]!["properties"],
    ).toEqual({
      title: { type: "string" },
    });
    expect(post.input_schema["additionalProperties"]).toBe(false);
  });

  it("annotates reads as read-only and deletes as destructive and idempotent", () => {
    const byName = new Map(tools.map((t) => [t.name, t.annotations]));
    expect(byName.get("get_items")).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(byName.get("delete_items_by_id")).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(byName.get("post_items")).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    });
  });

  it("describes what the tool does, what it returns and how it is served", () => {
    const get = tools.find((t) => t.name === "get_items_by_id")!;
    expect(get.title).toBe("Get item");
    expect(get.description).toBe(
      "Reads one item by id (GET /api/items/{id}). Returns {status, body} with the HTTP status and the JSON body. The app answered with status 200, 404. Served from the environment's state: writes change it for the rest of the episode and reads see those changes.",
    );
    const login = tools.find((t) => t.name === "post_api_login")!;
    expect(login.title).toBe("POST /api/login");
    expect(login.description).toContain(
      "Replayed: answers are the responses recorded for exactly this request",
    );
  });
});
