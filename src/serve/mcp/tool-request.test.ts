import { describe, expect, it } from "vitest";
import { itemsModel } from "../../../test/fixtures/models/items-twin.js";
import { toolsFromModel } from "../../bundle/tool-definitions.js";
import { toolRequest } from "./tool-request.js";

const tools = new Map(toolsFromModel(itemsModel()).map((t) => [t.name, t]));
const getItem = tools.get("get_items_by_id")!;

describe("toolRequest", () => {
  it("puts path params into the template, encoded", () => {
    expect(toolRequest(getItem, { id: "a/b c" })).toMatchObject({
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
        'get_items_by_id: argument "id" must be a string or a number',
      ],
    });
  });
});
