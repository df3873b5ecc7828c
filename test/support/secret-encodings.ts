/**
 * Secrets of every byte class and every encoding of them an app commonly
 * writes, computed here independently of src/, for the leak tests (issue 13).
 */
import fc from "fast-check";

const code = (min: number, max: number) => fc.integer({ min, max }).map((n) => String.fromCodePoint(n));
/** One character of each byte class a secret may hold. */
export const CHAR = fc.oneof(
  fc.constantFrom(..."abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ0123456789"),
  fc.constantFrom(..." !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"),
  code(0x01, 0x1f),
  code(0xa0, 0xff),
  code(0x100, 0xd7ff),
  code(0x10000, 0x10ffff),
);
export const SECRET = fc
  .array(CHAR, { minLength: 10, maxLength: 20 })
  .map((cs) => cs.join(""))
  .filter((s) => /[A-Za-z0-9]{2}/.test(s) && !/REDACTED|^\s|\s$/.test(s));

const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64");
const hexOf = (s: string) => Buffer.from(s, "utf8").toString("hex");
const cps = (s: string) => [...s].map((c) => c.codePointAt(0) ?? 0);
const htmlEscape = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

/** Every encoding of a secret an app commonly writes, computed here (independent of src/). */
export function encodings(s: string): Record<string, string> {
  const uri = encodeURIComponent(s);
  return {
    raw: s,
    upper: s.replace(/[a-z]/g, (c) => c.toUpperCase()),
    percent: uri,
    percent_lower: uri.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
    percent_twice: encodeURIComponent(uri),
    python_quote: uri.replace(/%2F/g, "/"),
    form: new URLSearchParams([["", s]]).toString().slice(1),
    html_decimal: cps(s)
      .map((c) => `&#${c};`)
      .join(""),
    html_hex: cps(s)
      .map((c) => `&#x${c.toString(16)};`)
      .join(""),
    html_escaped: htmlEscape(s),
    json_ascii: JSON.stringify(s)
      .slice(1, -1)
      .replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`),
    base64: b64(s),
    base64url: Buffer.from(s, "utf8").toString("base64url"),
    hex: hexOf(s),
    jwt: `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify({ card: s })).toString("base64url")}.c2ln`,
  };
}
