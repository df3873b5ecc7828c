import { describe, expect, it } from "vitest";
import { itemsModel } from "../../../test/fixtures/models/items-twin.js";
import { toolsFromModel } from "../../bundle/tool-definitions.js";
import { toolRequest } from "./tool-request.js";

const tools = new Map(toolsFromModel(itemsModel()).map((t) => [t.name, t]));
const getItem = tools.get("get_items_by_id")!;

describe("toolRequest", () => {
  it("puts path params into the template, encoded", () => {
    const byName = {
      ...getItem,
      input_schema: { ...getItem.input_schema, properties: { id: { type: "string" } } },
    };
    expect(toolRequest(byName, { id: "a/b c" })).toMatchObject({
      request: { method: "GET", path: "/api/items/a%2Fb%20c", query: [], body: null },
    });
  });

  it("refuses an empty path param, which would make the path another tool's (/api/items/ is get_items)", () => {
    expect(toolRequest(getItem, { id: "" })).toEqual({
      problems: ['get_items_by_id: argument "id" must not be empty (it is a path segment)'],
    });
  });

  it("reports every problem at once", () => {
    expect(toolRequest(getItem, { id: { a: 1 }, extra: 1 })).toEqual({
      problems: [
        'get_items_by_id: unknown argument "extra" (expected id)',
        'get_items_by_id: argument "id" must be an integer (got an object)',
      ],
    });
  });
});

describe("toolRequest: every call checked against the tool's published inputSchema", () => {
  const createItem = {
    ...tools.get("post_items")!,
    input_schema: {
      type: "object",
      properties: {
        body: {
          type: "object",
          properties: {
            title: { type: "string" },
            done: { type: "boolean" },
            tags: { type: "array", items: { type: "string" } },
          },
          required: ["title", "done"],
        },
      },
      required: ["body"],
      additionalProperties: false,
    },
  };

  it("names every field the body lacks or gets wrong, without quoting the values", () => {
    expect(toolRequest(createItem, { body: { name: "x", done: "yes", tags: ["a", 2] } })).toEqual({
      problems: [
        'post_items: argument "body.title" is required',
        'post_items: argument "body.done" must be true or false (got a string)',
        'post_items: argument "body.tags[1]" must be a string (got an integer)',
      ],
    });
    expect(toolRequest(createItem, { body: null })).toEqual({
      problems: ['post_items: argument "body" must be a JSON object (got null)'],
    });
    expect(toolRequest(createItem, { body: [1, 2] })).toEqual({
      problems: ['post_items: argument "body" must be a JSON object (got an array)'],
    });
  });

  it("reads URL parameters as text, so an integer id may come as digits, never as a word", () => {
    expect(toolRequest(getItem, { id: "3" })).toMatchObject({ request: { path: "/api/items/3" } });
    expect(toolRequest(getItem, { id: 3 })).toMatchObject({ request: { path: "/api/items/3" } });
    expect(toolRequest(getItem, { id: "three" })).toEqual({
      problems: ['get_items_by_id: argument "id" must be an integer (got a string)'],
    });
    const list = tools.get("get_items")!;
    expect(toolRequest(list, { limit: "ten" })).toEqual({
      problems: ['get_items: argument "limit" must be an integer (got a string)'],
    });
    expect(toolRequest(list, { limit: 2, done: null })).toMatchObject({
      request: { query: [["limit", "2"]] },
    });
  });

  it("takes a number or a boolean for a URL parameter the schema types as a string (it is sent as text)", () => {
    const list = tools.get("get_items")!;
    const asText = {
      ...list,
      input_schema: {
        ...list.input_schema,
        properties: { limit: { type: "string" }, done: { type: "string", enum: ["true", "false"] } },
      },
    };
    const built = toolRequest(asText, { limit: 2, done: true });
    expect("request" in built && [...built.request.query].sort()).toEqual([
      ["done", "true"],
      ["limit", "2"],
    ]);
    expect(toolRequest(asText, { limit: { n: 2 } })).toEqual({
      problems: ['get_items: argument "limit" must be a string (got an object)'],
    });
  });

  it("passes a body that fits", () => {
    expect(toolRequest(createItem, { body: { title: "Milk", done: false, extra: 1 } })).toMatchObject({
      request: {
        method: "POST",
        path: "/api/items",
        body: { kind: "json", value: { title: "Milk", done: false, extra: 1 } },
      },
    });
  });
});
