/** Property: whatever a secret looks like and wherever it is put, the redacted output does not hold it. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createRedactor } from "./redaction.js";

const MARKER = /\[REDACTED:[a-z]+:[^\]\s]*\]/;
const secretArb = fc
  .string({ minLength: 8, maxLength: 40, unit: "grapheme-ascii" })
  .filter((s) => !/\[REDACTED/.test(s));
const noiseArb = fc.string({ maxLength: 30, unit: "grapheme-ascii" });

/** True when the secret occurs in a piece of the output between markers. */
function leaks(output: string, secret: string): boolean {
  return output.split(MARKER).some((piece) => piece.includes(secret));
}

describe("redaction properties", () => {
  it("a declared secret never survives in text, JSON, form bodies, URLs or headers", () => {
    fc.assert(
      fc.property(secretArb, noiseArb, noiseArb, (secret, before, after) => {
        const r = createRedactor({ secrets: [{ id: "s", value: secret }] });
        const text = r.redactText(`${before}${secret}${after}`);
        const json = r.redactBody({
          encoding: "utf8",
          text: JSON.stringify({ note: `${before}${secret}${after}` }),
          size: 0,
          truncated: false,
          mime_type: "application/json",
        })!.text;
        const form = r.redactBody({
          encoding: "utf8",
          text: new URLSearchParams({ q: secret }).toString(),
          size: 0,
          truncated: false,
          mime_type: "application/x-www-form-urlencoded",
        })!.text;
        const url = r.redactUrl(
          `http://127.0.0.1:1/p/${encodeURIComponent(secret)}?q=${encodeURIComponent(secret)}`,
        );
        const header = r.redactHeaders([{ name: "x-note", value: secret }])[0]!.value;
        expect(leaks(text, secret)).toBe(false);
        expect(leaks(JSON.parse(json).note, secret)).toBe(false);
        expect(leaks(new URLSearchParams(form).get("q") ?? "", secret)).toBe(false);
        expect(leaks(decodeURIComponent(url), secret)).toBe(false);
        expect(leaks(header, secret)).toBe(false);
      }),
      { numRuns: 300, seed: 42 },
    );
  });

  it("a learned credential field value never survives elsewhere", () => {
    fc.assert(
      fc.property(secretArb, noiseArb, (token, noise) => {
        const r = createRedactor({ secrets: [] });
        r.learnFromBody(
          {
            encoding: "utf8",
            text: JSON.stringify({ token }),
            size: 0,
            truncated: false,
            mime_type: "application/json",
          },
          null,
        );
        expect(leaks(r.redactText(`${noise}${JSON.stringify(token)}${noise}`), token)).toBe(false);
        expect(
          leaks(decodeURIComponent(r.redactUrl(`http://h/x?next=${encodeURIComponent(token)}`)), token),
        ).toBe(false);
      }),
      { numRuns: 300, seed: 7 },
    );
  });
});
