import { describe, expect, it } from "vitest";
import { safeDecode } from "./safe-decode.js";

describe("safeDecode", () => {
  it("decodes percent escapes", () => {
    expect(safeDecode("a%20b%2Fc")).toBe("a b/c");
  });
  it("returns a component with malformed escapes as it is", () => {
    expect(safeDecode("100%")).toBe("100%");
    expect(safeDecode("%E0%A4%A")).toBe("%E0%A4%A");
  });
});
