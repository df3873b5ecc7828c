import { describe, expect, it } from "vitest";
import { originSwap, swapBody, swapBytes, swapHeaders, swapText } from "./app-origin.js";

const swap = originSwap("http://127.0.0.1:3301", "127.0.0.1:41000")!;

describe("the app's origin served as the twin's", () => {
  it("replaces the origin plain, with JSON-escaped slashes and percent-encoded (either case)", () => {
    expect(
      swapText(
        `<link href='http://127.0.0.1:3301/wp-admin/load-styles.php?c=1'> {"root":"http:\\/\\/127.0.0.1:3301\\/wp-json\\/"} redirect_to=http%3A%2F%2F127.0.0.1%3A3301%2Fwp-admin%2F next=http%3a%2f%2f127.0.0.1%3a3301`,
        swap,
      ),
    ).toBe(
      `<link href='http://127.0.0.1:41000/wp-admin/load-styles.php?c=1'> {"root":"http:\\/\\/127.0.0.1:41000\\/wp-json\\/"} redirect_to=http%3A%2F%2F127.0.0.1%3A41000%2Fwp-admin%2F next=http%3a%2f%2f127.0.0.1%3a41000`,
    );
  });

  it("leaves a longer port, another host and another scheme alone", () => {
    const text =
      "http://127.0.0.1:33010/ http://127.0.0.1:3301.example/ https://127.0.0.1:3301/ http://127.0.0.10:3301";
    expect(swapText(text, swap)).toBe(text);
  });

  it("has nothing to swap without a Host, on the app's own origin, or for an origin that does not parse", () => {
    expect(originSwap("http://127.0.0.1:3301", undefined)).toBeNull();
    expect(originSwap("http://127.0.0.1:3301", "127.0.0.1:3301")).toBeNull();
    expect(originSwap("not a url", "127.0.0.1:1")).toBeNull();
  });

  it("swaps inside a JSON answer's strings and keys, its values and structure untouched; headers too", () => {
    const value = {
      servers: [{ url: "http://127.0.0.1:3301" }],
      "http://127.0.0.1:3301/k": 1,
      n: 3301,
      ok: true,
    };
    const swapped = swapBody({ kind: "json", value }, swap, "application/json; charset=UTF-8");
    expect(swapped).toMatchObject({ kind: "text", content_type: "application/json; charset=UTF-8" });
    expect(JSON.parse((swapped as { text: string }).text)).toEqual({
      servers: [{ url: "http://127.0.0.1:41000" }],
      "http://127.0.0.1:41000/k": 1,
      n: 3301,
      ok: true,
    });
    // Nothing to replace: the JSON body is its own text (serialised once, sent as it is); base64 bodies are never touched.
    const plain = { kind: "json" as const, value: { id: 3301 } };
    expect(swapBody(plain, swap)).toEqual({
      kind: "text",
      text: '{"id":3301}',
      content_type: "application/json",
    });
    const b64 = {
      kind: "base64" as const,
      text: Buffer.from("http://127.0.0.1:3301").toString("base64"),
      content_type: "image/png",
    };
    expect(swapBody(b64, swap)).toBe(b64);
    expect(
      swapHeaders(
        {
          location: "http://127.0.0.1:3301/issues/4",
          link: '<http://127.0.0.1:3301/wp-json/>; rel="https://api.w.org/"',
        },
        swap,
      ),
    ).toEqual({
      location: "http://127.0.0.1:41000/issues/4",
      link: '<http://127.0.0.1:41000/wp-json/>; rel="https://api.w.org/"',
    });
  });

  it("rewrites textual UTF-8 bodies only: images, fonts and bytes that are not UTF-8 stay byte for byte", () => {
    const html = Buffer.from("\uFEFF<a href=http://127.0.0.1:3301/x>é</a>", "utf8");
    expect(swapBytes(html, "text/html; charset=UTF-8", swap).toString("utf8")).toBe(
      "\uFEFF<a href=http://127.0.0.1:41000/x>é</a>",
    );
    const png = Buffer.concat([Buffer.from([0x89, 0x50]), Buffer.from("http://127.0.0.1:3301")]);
    expect(swapBytes(png, "image/png", swap)).toBe(png);
    const latin1 = Buffer.concat([Buffer.from("http://127.0.0.1:3301 "), Buffer.from([0xe9])]);
    expect(swapBytes(latin1, "text/html; charset=iso-8859-1", swap)).toBe(latin1);
    const js = Buffer.from("var u='//x';");
    expect(swapBytes(js, "application/javascript", swap)).toBe(js);
  });
});
