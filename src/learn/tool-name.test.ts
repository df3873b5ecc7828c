/** Tool names: collisions are broken the same way whatever the order of the endpoints. */
import { describe, expect, it } from "vitest";
import { uniqueToolNames } from "./tool-name.js";

describe("uniqueToolNames", () => {
  it("breaks tool-name collisions deterministically in sorted order", () => {
    const names = uniqueToolNames([
      { key: "/v2/items GET", name: "get_items" },
      { key: "/api/items GET", name: "get_items" },
    ]);
    expect(Object.fromEntries(names)).toEqual({
      "/api/items GET": "get_items",
      "/v2/items GET": "get_items_2",
    });
  });
});
