import { describe, expect, it } from "vitest";
import { captureBody, isTextMime, mimeOf } from "./body-capture.js";

const utf8 = (s: string) => new TextEncoder().encode(s);

describe("captureBody", () => {
  it("keeps JSON as text with its size", () => {
    expect(captureBody(utf8('{"a":1}'), "application/json", 100)).toEqual({
      encoding: "utf8",
      text: '{"a":1}',
      size: 7,
      truncated: false,
      mime_type: "application/json",
    });
  });

  it("cuts text at the limit on a character boundary and marks it truncated", () => {
    const body = captureBody(utf8("aé" + "x".repeat(10)), "text/plain", 2);
    expect(body).toMatchObject({ encoding: "utf8", text: "a", size: 13, truncated: true });
  });

  it("keeps binary as base64", () => {
    const bytes = new Uint8Array([0xff, 0x00, 0x10]);
    expect(captureBody(bytes, "image/png", 10)).toMatchObject({ encoding: "base64", text: "/wAQ", size: 3 });
    expect(captureBody(bytes, "image/png", 1)).toMatchObject({ text: "/w==", truncated: true });
  });

  it("returns null for no body and treats an empty body as text", () => {
    expect(captureBody(null, "text/plain", 10)).toBeNull();
    expect(captureBody(new Uint8Array(), null, 10)).toMatchObject({ encoding: "utf8", text: "", size: 0 });
  });

  it("recognises textual MIME types", () => {
    expect(isTextMime("application/problem+json")).toBe(true);
    expect(isTextMime("application/x-www-form-urlencoded")).toBe(true);
    expect(isTextMime("image/png")).toBe(false);
    expect(mimeOf("application/json; charset=utf-8")).toBe("application/json");
    expect(mimeOf(undefined)).toBeNull();
  });
});
