import { describe, expect, it } from "vitest";
import { answerHeader, answerScalar, describeShape, type StepAnswer } from "./step-answers.js";

const answer = (body: unknown, headers: [string, string][] = []): StepAnswer => ({
  status: 201,
  headers: [["content-type", "application/json"], ...headers],
  body: typeof body === "string" ? body : JSON.stringify(body),
});

describe("answerScalar", () => {
  const a = answer({ data: { id: 7, slug: "x/y", ok: true, tags: ["a", "b"], "a/b": "escaped", "m~n": 1 } });

  it("reads strings, numbers and booleans, keeping their JSON type", () => {
    expect(answerScalar(a, "create", "/data/id")).toEqual({ json: 7, text: "7" });
    expect(answerScalar(a, "create", "/data/slug")).toEqual({ json: "x/y", text: "x/y" });
    expect(answerScalar(a, "create", "/data/ok")).toEqual({ json: true, text: "true" });
    expect(answerScalar(a, "create", "/data/tags/1")).toEqual({ json: "b", text: "b" });
    expect(answerScalar(a, "create", "/data/a~1b").text).toBe("escaped");
    expect(answerScalar(a, "create", "/data/m~0n").text).toBe("1");
    expect(answerScalar(answer(42), "count", "")).toEqual({ json: 42, text: "42" });
  });

  it("says what the answer holds at the nearest pointer, by shape and never by content", () => {
    expect(() => answerScalar(a, "create", "/data/user/id")).toThrow(
      'the answer of step "create" has nothing at /data/user/id; at /data it holds an object with the keys id, slug, ok, tags, a/b, m~n',
    );
    expect(() => answerScalar(a, "create", "/id")).toThrow(
      'the answer of step "create" has nothing at /id; at the top it holds an object with the keys data',
    );
    expect(() => answerScalar(a, "create", "/data/tags/5")).toThrow(
      "has nothing at /data/tags/5; at /data/tags it holds an array of 2 entries",
    );
    expect(() => answerScalar(a, "create", "/data/slug/x")).toThrow(
      "has nothing at /data/slug/x; at /data/slug it holds a string",
    );
    expect(() => answerScalar(a, "create", "/data")).toThrow(
      'the answer of step "create" holds an object with the keys id, slug, ok, tags, a/b, m~n at /data, not a string, number or boolean; point at one of its fields',
    );
    expect(() => answerScalar(answer({ id: null }), "c", "/id")).toThrow("holds null at /id");
  });

  it('reads the whole of a plain-text answer at the pointer ""', () => {
    const nonce = {
      status: 200,
      headers: [["content-type", "text/html; charset=UTF-8"]] as [string, string][],
      body: "a1b2c3d4e5\n",
    };
    expect(answerScalar(nonce, "nonce", "")).toEqual({ json: "a1b2c3d4e5", text: "a1b2c3d4e5" });
  });

  it("refuses an answer that is empty or not JSON", () => {
    expect(() => answerScalar({ status: 204, headers: [], body: null }, "delete", "/id")).toThrow(
      'the answer of step "delete" (204) has no body to read /id from',
    );
    expect(() =>
      answerScalar(
        { status: 200, headers: [["content-type", "text/html"]], body: "<p>hi</p>" },
        "page",
        "/id",
      ),
    ).toThrow('the answer of step "page" (200, text/html) is not JSON, so /id cannot apply');
  });
});

describe("answerHeader", () => {
  it("reads a header case-insensitively, and lists the names when it is absent", () => {
    const a = answer({}, [["location", "/api/notes/1"]]);
    expect(answerHeader(a, "create", "Location")).toBe("/api/notes/1");
    expect(() => answerHeader(a, "create", "etag")).toThrow(
      'the answer of step "create" (201) has no etag header (headers: content-type, location)',
    );
  });
});

describe("describeShape", () => {
  it("names a shape without its content", () => {
    expect(describeShape({})).toBe("an empty object");
    expect(describeShape([1])).toBe("an array of 1 entry");
    expect(describeShape("")).toBe("an empty string");
    expect(describeShape(3)).toBe("a number");
    expect(describeShape(Object.fromEntries([...Array(14)].map((_, i) => [`k${i}`, i])))).toBe(
      "an object with the keys k0, k1, k2, k3, k4, k5, k6, k7, k8, k9, k10, k11, …",
    );
  });
});
