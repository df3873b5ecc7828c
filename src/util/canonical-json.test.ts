import { describe, expect, it } from "vitest";
import { canonicalJson, canonicalJsonCompact } from "./canonical-json.js";

describe("canonicalJson", () => {
  it("gives the same bytes whatever the key order", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe(
      canonicalJson({ a: { c: null, d: [3, { y: 2, z: 1 }] }, b: 1 }),
    );
  });
  it("drops undefined, keeps array order, ends with a newline", () => {
    expect(canonicalJsonCompact({ a: undefined, b: [2, 1] })).toBe('{"b":[2,1]}');
    expect(canonicalJson({}).endsWith("\n")).toBe(true);
  });
  it("keeps an own __proto__ key (legal JSON) instead of dropping it", () => {
    const parsed = JSON.parse('{"b":1,"__proto__":{"x":1}}');
    expect(canonicalJsonCompact(parsed)).toBe('{"__proto__":{"x":1},"b":1}');
  });
});
