/**
 * Values shaped like a credential wherever they appear: `Bearer <token>` or
 * `Basic <base64>` as the whole string, or a JWT anywhere, each checked in
 * linear time so a long string in a scenario costs little.
 */
/** Describes a value shaped like a credential (`Bearer …`, `Basic …`, a JWT), or undefined. */
export function credentialShape(text: string): string | undefined {
  if (/^\s*bearer\s+\S+\s*$/i.test(text)) return 'a "Bearer …" value';
  if (isBasicCredential(text)) return 'a "Basic …" value';
  if (hasJwt(text)) return "a JSON Web Token";
  return undefined;
}

/**
 * True for `Basic <base64>` as the whole string, the base64 padded to a
 * multiple of 4 (4 or more characters, so `Basic YQ==`) and decoding to text
 * (RFC 7617 encodes `user:password` as UTF-8): prose such as "Basic plan"
 * decodes to bytes that are not text, and "Basic information" is not padded.
 */
function isBasicCredential(text: string): boolean {
  const m = /^\s*basic\s+([A-Za-z0-9+/]+={0,2})\s*$/i.exec(text);
  const b64 = m?.[1];
  if (b64 === undefined || b64.length % 4 !== 0) return false;
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  if (bytes.some((b) => b < 0x20 || b === 0x7f)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * True when `text` holds `eyJ…(4+).…(2+).` (a JWT's header and payload): the
 * runs of base64url characters and dots are split into segments, so a long
 * string costs linear time where a backtracking regex would cost quadratic.
 */
function hasJwt(text: string): boolean {
  for (const run of text.match(/[A-Za-z0-9_.-]+/g) ?? []) {
    const segs = run.split(".");
    for (let i = 0; i + 2 < segs.length; i++) {
      const seg = segs[i] ?? "";
      const at = seg.indexOf("eyJ");
      if (at !== -1 && seg.length - at >= 7 && (segs[i + 1] ?? "").length >= 2) return true;
    }
  }
  return false;
}
