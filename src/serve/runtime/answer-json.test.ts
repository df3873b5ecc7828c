import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerJson } from "./answer-json.js";
import { deepFreeze } from "./deep-freeze.js";

describe("answerJson", () => {
  it("gives JSON.stringify's text for any value, frozen or not, the first time and again", () => {
    fc.assert(
      fc.property(
        fc.anything({ withNullPrototype: true, withSparseArray: true }),
        fc.boolean(),
        (v, freeze) => {
          let want: string | undefined;
          try {
            want = JSON.stringify(v);
          } catch {
            return; // bigint and the like: the error is JSON.stringify's, checked below
          }
          if (freeze) deepFreeze(v);
          expect(answerJson(v)).toBe(want);
          expect(answerJson(v)).toBe(want);
          expect(answerJson([v, { v }])).toBe(JSON.stringify([v, { v }]));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("leaves toJSON, other prototypes, undefined members, cycles, bigints and deep nesting to JSON.stringify", () => {
    const date = new Date(Date.UTC(2026, 0, 1));
    class Point {
      constructor(
        readonly x: number,
        readonly y: number,
      ) {}
    }
    const values: unknown[] = [
      { at: date },
      deepFreeze({ a: [1, undefined, () => 1, Symbol("s")], b: undefined, c: () => 1, d: Number.NaN, e: -0 }),
      { p: new Point(1, 2) },
      { toJSON: (key: string) => `key ${key}` },
      [new String("boxed"), new Number(3), new Boolean(false)],
      { "\u2028": "\ud800", "": "", 2: "two", 1: "one" },
      JSON.parse(`${"[".repeat(200)}1${"]".repeat(200)}`),
    ];
    for (const v of values) expect(answerJson(v)).toBe(JSON.stringify(v));
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = cycle;
    expect(() => answerJson(cycle)).toThrow(TypeError);
    expect(() => answerJson({ n: 1n })).toThrow(TypeError);
  });

  it("keeps the text of a frozen entity only: an object changed after it was served answers its new text", () => {
    const open = { id: 1, tags: ["a"] };
    expect(answerJson(open)).toBe('{"id":1,"tags":["a"]}');
    open.id = 2;
    open.tags.push("b");
    expect(answerJson(open)).toBe('{"id":2,"tags":["a","b"]}');
    // Frozen at the top only: what is inside can still change, so nothing is kept.
    const shallow = Object.freeze({ id: 1, tags: ["a"] });
    expect(answerJson({ data: [shallow] })).toBe('{"data":[{"id":1,"tags":["a"]}]}');
    shallow.tags.push("b");
    expect(answerJson({ data: [shallow] })).toBe('{"data":[{"id":1,"tags":["a","b"]}]}');
  });
});
