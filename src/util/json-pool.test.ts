import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { JsonPool } from "./json-pool.js";

describe("JsonPool", () => {
  it("gives back a value equal to what JSON.parse made, whatever the JSON", () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 8 }), (values) => {
        const pool = new JsonPool();
        for (const v of values) {
          const text = JSON.stringify(v);
          const shared = pool.share(JSON.parse(text));
          expect(JSON.stringify(shared)).toBe(text);
          expect(shared).toEqual(JSON.parse(text));
        }
      }),
      { numRuns: 300 },
    );
  });

  it("holds an equal node once, across values, and freezes it", () => {
    const pool = new JsonPool();
    const a = pool.share(JSON.parse('{"data":[{"id":1,"tags":["x"]},{"id":2,"tags":["x"]}],"total":2}'));
    const b = pool.share(JSON.parse('[{"id":1,"tags":["x"]}]'));
    expect(b[0]).toBe(a.data[0]);
    expect(a.data[1].tags).toBe(a.data[0].tags);
    expect(Object.isFrozen(a) && Object.isFrozen(a.data) && Object.isFrozen(b[0].tags)).toBe(true);
    expect(() => {
      (b[0] as { id: number }).id = 3;
    }).toThrow(TypeError);
    expect(a.data[0].id).toBe(1);
  });

  it("keeps apart what JSON tells apart: key order, types, arrays and objects", () => {
    const pool = new JsonPool();
    const [ab, ba, num, str, bool, strBool, arr, obj] = [
      '{"a":1,"b":2}',
      '{"b":2,"a":1}',
      '{"a":1}',
      '{"a":"1"}',
      '{"a":true}',
      '{"a":"true"}',
      "[]",
      "{}",
    ].map((t) => pool.share(JSON.parse(t)));
    expect(new Set([ab, ba, num, str, bool, strBool, arr, obj]).size).toBe(8);
    expect(JSON.stringify(ba)).toBe('{"b":2,"a":1}');
  });

  it("keeps __proto__ an own property, and a node holding a long string frozen but unpooled", () => {
    const pool = new JsonPool();
    const v = pool.share(JSON.parse('{"__proto__":{"x":1},"k":[{"x":1}]}'));
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(JSON.stringify(v)).toBe('{"__proto__":{"x":1},"k":[{"x":1}]}');
    const long = "y".repeat(1000);
    const p = pool.share(JSON.parse(JSON.stringify({ t: long })));
    const q = pool.share(JSON.parse(JSON.stringify({ t: long })));
    expect(p).not.toBe(q);
    expect(Object.isFrozen(p)).toBe(true);
    expect(q).toEqual({ t: long });
  });
});
