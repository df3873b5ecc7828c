/** Issue 13's leak attempts: a declared secret the app echoes in another encoding never survives redaction. */
import { describe, expect, it } from "vitest";
import type { Body } from "./evidence-schema.js";
import { createRedactor } from "./redaction.js";

const SECRET = "a b/c+d&e";
const MARKER = "[REDACTED:secret:pw]";

function redactor() {
  return createRedactor({ secrets: [{ id: "pw", value: SECRET }] });
}

function json(value: unknown): Body {
  return {
    encoding: "utf8",
    text: JSON.stringify(value),
    size: 0,
    truncated: false,
    mime_type: "application/json",
  };
}

const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64");
const b64url = (s: string) => Buffer.from(s, "utf8").toString("base64url");
const hex = (s: string) => Buffer.from(s, "utf8").toString("hex");
const hexDump = (s: string, sep: string) => (hex(s).match(/../g) ?? []).join(sep);
/** RFC 4648 base32 without padding, written here independently of the redactor's. */
function base32(s: string): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  const bits = [...Buffer.from(s, "utf8")].map((b) => b.toString(2).padStart(8, "0")).join("");
  return (bits.match(/.{1,5}/g) ?? []).map((c) => alphabet[Number.parseInt(c.padEnd(5, "0"), 2)]).join("");
}
const entities = (s: string, radix: 10 | 16) =>
  [...s].map((c) => `&#${radix === 16 ? "x" : ""}${c.codePointAt(0)?.toString(radix)};`).join("");

describe("redaction: the secret in another encoding", () => {
  const cases: [string, string][] = [
    ["base64", b64(SECRET)],
    ["base64 without padding", b64(SECRET).replace(/=+$/, "")],
    ["base64url", b64url(SECRET)],
    ["base64 inside a longer base64 text (any alignment)", b64(`x${SECRET}yz`)],
    ["base64 of user:secret (Basic)", b64(`user:${SECRET}`)],
    ["hex", hex(SECRET)],
    ["upper-case hex", hex(SECRET).toUpperCase()],
    ["HTML decimal entities", entities(SECRET, 10)],
    ["HTML hex entities", entities(SECRET, 16)],
    ["HTML-escaped", "a b/c+d&amp;e"],
    ["HTML-escaped twice", "a b/c+d&amp;amp;e"],
    ["named entities", "a b&sol;c&plus;d&amp;e"],
    ["percent-encoded", encodeURIComponent(SECRET)],
    ["double percent-encoding", encodeURIComponent(encodeURIComponent(SECRET))],
    ["Python quote() (keeps /)", "a%20b/c%2Bd%26e"],
    ["lower-case percent hex", "a%20b%2fc%2bd%26e"],
    ["form-encoded", "a+b%2Fc%2Bd%26e"],
    ["upper-cased", SECRET.toUpperCase()],
    [
      "JSON unicode escapes",
      [...SECRET].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join(""),
    ],
    ["JSON-escaped slash", "a b\\/c+d&e"],
    ["JavaScript \\x escapes", [...SECRET].map((c) => `\\x${c.charCodeAt(0).toString(16)}`).join("")],
    ["base64 of its UTF-16LE bytes (.NET, PowerShell)", Buffer.from(SECRET, "utf16le").toString("base64")],
    ["hex of its UTF-16LE bytes", Buffer.from(SECRET, "utf16le").toString("hex")],
    ["base32 (RFC 4648)", base32(SECRET)],
    ["lower-case base32, inside a longer base32 text", base32(`xy${SECRET}z`).toLowerCase()],
    ["a hex dump, bytes separated by spaces", hexDump(SECRET, " ")],
    ["upper-case hex bytes separated by colons", hexDump(SECRET, ":").toUpperCase()],
  ];

  for (const [name, encoded] of cases) {
    it(`finds it ${name}, in text, in a header and in JSON`, () => {
      const r = redactor();
      const text = r.redactText(`before ${encoded} after`);
      expect(text).not.toContain(encoded);
      expect(text).toContain(MARKER);
      const header = r.redactHeaders([{ name: "x-echo", value: encoded }])[0]?.value;
      expect(header).toBe(MARKER);
      const body = r.redactBody(json({ echo: encoded }))?.text ?? "";
      expect(body).not.toContain(encoded);
      expect(JSON.parse(body).echo).toContain(MARKER);
    });
  }

  it("finds it inside a JWT's payload under a field not named like a credential", () => {
    const jwt = `${b64url('{"alg":"HS256","typ":"JWT"}')}.${b64url(JSON.stringify({ sub: "1", secret_note: SECRET }))}.c2lnbmF0dXJl`;
    const r = redactor();
    const body = r.redactBody(json({ card: jwt }))?.text ?? "";
    const payload = jwt.split(".")[1] ?? "";
    expect(body).not.toContain(payload);
    expect(body).toContain(MARKER);
    // PHP writes the slash escaped inside the claim: still found
    const php = `${b64url('{"alg":"HS256"}')}.${b64url('{"card":"a b\\/c+d&e"}')}.sig`;
    expect(r.redactText(php)).not.toContain(php.split(".")[1]);
  });

  it("finds a secret split across two JSON fields, in each piece", () => {
    const r = redactor();
    const body = r.redactBody(json({ first: "name a b/c", last: "+d&e!", n: 1 }))?.text ?? "";
    const parsed = JSON.parse(body);
    expect(parsed.first).toBe(`name ${MARKER}`);
    expect(parsed.last).toBe(`${MARKER}!`);
    expect(parsed.n).toBe(1);
    expect(body).not.toContain("a b/c");
  });

  it("leaves JSON alone when the pieces of two strings only happen to share letters", () => {
    const r = redactor();
    const text = JSON.stringify({ first: "a b", last: "c+d&e" });
    expect(r.redactBody(json({ first: "a b", last: "c+d&e" }))?.text).toBe(text);
  });

  it("keeps a case-sensitive match inside assets (the app's own code), any case in API records", () => {
    const r = createRedactor({ secrets: [{ id: "pw", value: "Sup3r-Secret" }] });
    expect(r.redactText("x SUP3R-SECRET y")).toBe(`x [REDACTED:secret:pw] y`);
    expect(r.redactText("x SUP3R-SECRET y", "assets")).toBe("x SUP3R-SECRET y");
    expect(r.redactText("x Sup3r%2DSecret y", "assets")).toBe("x [REDACTED:secret:pw] y");
  });

  it("finds a learned credential in another encoding too (a cookie echoed as base64)", () => {
    const r = createRedactor({ secrets: [] });
    const session = "s3ss10n-7f9a2b4c1d";
    r.learnFromHeaders([{ name: "cookie", value: `sid=${session}` }]);
    expect(r.redactText(`echo ${b64(session)} ${hex(session)}`)).toBe(
      "echo [REDACTED:header:cookie] [REDACTED:header:cookie]",
    );
  });

  it("never rewrites a marker, nor a base64 run that decodes to no known value", () => {
    const r = redactor();
    const plain = `${b64("nothing to see here at all")} ${hex("neither here")} [REDACTED:field:token]`;
    expect(r.redactText(plain)).toBe(plain);
  });
});

describe("redaction: base64 wrapped over lines (MIME, PEM, Python's base64.encodebytes)", () => {
  const LONG = "Hx7 k/q+r&Tz9é! and more of the secret, long enough to wrap at 76";
  const wrapped = (s: string, every: number, eol: string) =>
    (
      Buffer.from(s, "utf8")
        .toString("base64")
        .match(new RegExp(`.{1,${every}}`, "g")) ?? []
    ).join(eol);
  const r = () => createRedactor({ secrets: [{ id: "pw", value: LONG }] });

  for (const [name, eol] of [
    ["LF", "\n"],
    ["CRLF", "\r\n"],
  ] as const) {
    it(`finds it wrapped every 20 and every 76 characters with ${name}, in text and in JSON`, () => {
      for (const every of [20, 76]) {
        const encoded = wrapped(LONG, every, eol);
        expect(encoded).toContain(eol);
        const text = r().redactText(`before\n${encoded}\nafter`);
        expect(text).toBe(`before\n${MARKER}\nafter`);
        const body = r().redactBody(json({ blob: encoded, other: "kept" }))?.text ?? "";
        const parsed = JSON.parse(body);
        expect(parsed).toEqual({ blob: MARKER, other: "kept" });
        for (const line of encoded.split(eol).filter((l) => l.length >= 8)) expect(body).not.toContain(line);
      }
    });
  }

  it("leaves wrapped base64 of other bytes, and the lines around it, as they were", () => {
    const other = wrapped("nothing secret in here, only a long enough text to wrap", 20, "\n");
    const text = `line one\n${other}\nline two`;
    expect(r().redactText(text)).toBe(text);
    const body = JSON.stringify({ blob: other });
    expect(r().redactBody(json({ blob: other }))?.text).toBe(body);
  });
});
