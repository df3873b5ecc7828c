import { describe, expect, it } from "vitest";
import { findTooDeep, MAX_JSON_DEPTH, parseJsonWithin } from "./json-depth.js";

const nested = (n: number) => `${"[".repeat(n)}1${"]".repeat(n)}`;

describe("parseJsonWithin", () => {
  it("parses text nested up to the limit, never deeper", () => {
    expect(parseJsonWithin(nested(MAX_JSON_DEPTH)).ok).toBe(true);
    expect(parseJsonWithin(nested(MAX_JSON_DEPTH + 1))).toEqual({ ok: false, why: "too_deep" });
    expect(parseJsonWithin(nested(100_000))).toEqual({ ok: false, why: "too_deep" });
    expect(parseJsonWithin("{{{")).toEqual({ ok: false, why: "invalid" });
    expect(parseJsonWithin('{"a":"[[[[["}', 1)).toEqual({ ok: true, value: { a: "[[[[[" } });
  });

  it("counts brackets outside strings only, escapes included", () => {
    expect(findTooDeep('["\\"[[["]', 1)).toBeUndefined();
    expect(findTooDeep("[[1]]", 1)).toBe(1);
  });
});
