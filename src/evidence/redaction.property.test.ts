/** Property: whatever a secret looks like and wherever it is put, the redacted output does not hold it. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodings, SECRET } from "../../test/support/secret-encodings.js";
import { createRedactor } from "./redaction.js";

const MARKER = /\[REDACTED:[a-z]+:[^\]\s]*\]/;
const secretArb = fc
  .string({ minLength: 8, maxLength: 40, unit: "grapheme-ascii" })
  .filter((s) => !/\[REDACTED/.test(s));
const noiseArb = fc.string({ maxLength: 30, unit: "grapheme-ascii" });
/** Text around an encoded secret, not ending in half an escape (`\`, `%4`, `&#3`) that would swallow the secret's first character. */
const contextArb = noiseArb.filter((s) => !/(?:\\|%[0-9A-Fa-f]?|&#?[A-Za-z0-9]*)$/.test(s));

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

  it("a secret of any byte class, in every encoding an app writes, survives in no surface (issue 13)", () => {
    fc.assert(
      fc.property(SECRET, contextArb, (secret, noise) => {
        const r = createRedactor({ secrets: [{ id: "s", value: secret }] });
        const forms = Object.entries(encodings(secret));
        const half = Math.floor(secret.length / 2);
        const body = r.redactBody({
          encoding: "utf8",
          text: JSON.stringify({
            ...Object.fromEntries(forms.map(([k, f]) => [k, `${noise}${f}${noise}`])),
            first: `${noise}${secret.slice(0, half)}`,
            last: `${secret.slice(half)}${noise}`,
          }),
          size: 0,
          truncated: false,
          mime_type: "application/json",
        })!.text;
        const parsed = JSON.parse(body) as Record<string, string>;
        for (const [k, form] of forms) {
          const text = r.redactText(`${noise}${form}${noise}`);
          expect({ k, text: leaks(text, form) }).toEqual({ k, text: false });
          expect({ k, json: leaks(parsed[k] ?? "", form) }).toEqual({ k, json: false });
        }
        expect(`${parsed.first}${parsed.last}`.includes(secret)).toBe(false);
        const url = r.redactUrl(
          `http://127.0.0.1:1/p/${encodings(secret).python_quote}?q=${encodings(secret).percent_twice}`,
        );
        expect(url).toBe("http://127.0.0.1:1/p/[REDACTED:secret:s]?q=[REDACTED:secret:s]");
      }),
      { numRuns: 200, seed: 13 },
    );
  });
});
