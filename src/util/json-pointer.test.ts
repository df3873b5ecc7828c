import { describe, expect, it } from "vitest";
import { escapePointerToken, keyOfPointer, pointerOf, unescapePointerToken } from "./json-pointer.js";

describe("json pointer tokens", () => {
  it("escapes ~ and / only, and reads them back", () => {
    expect(escapePointerToken("a/b~c")).toBe("a~1b~0c");
    expect(unescapePointerToken("a~1b~0c")).toBe("a/b~c");
    expect(unescapePointerToken("~01")).toBe("~1");
  });
  it("never URI-decodes a key", () => {
    expect(pointerOf("100%")).toBe("/100%");
    expect(keyOfPointer("/a%20b")).toBe("a%20b");
  });
});
