import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson, canonicalJsonBytes, canonicalJsonCompact } from "./canonical-json.js";

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

describe("canonicalJsonBytes", () => {
  it("is exactly the UTF-8 of canonicalJson, at any walking depth", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 0, max: 4 }), (value, depth) => {
        expect(Buffer.from(canonicalJsonBytes(value, depth)).toString("utf8")).toBe(canonicalJson(value));
      }),
      { numRuns: 500 },
    );
  });

  it("keeps own __proto__ keys, drops undefined fields and writes undefined array elements as null", () => {
    const value = JSON.parse('{"b": [1, {"__proto__": {"z": 1}, "a": "é"}], "a": {}}');
    value.b.push(undefined);
    value.c = undefined;
    expect(Buffer.from(canonicalJsonBytes(value)).toString("utf8")).toBe(canonicalJson(value));
  });
});
