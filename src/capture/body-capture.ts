/**
 * Turns raw body bytes into an Evidence body: text kept as text, anything
 * else as base64, and anything longer than the limit cut at the limit (on a
 * character boundary for text) and marked truncated with its full size.
 */
import type { Body } from "../evidence/evidence-schema.js";

const TEXT_MIME =
  /^(text\/|application\/(?:[\w.+-]*\+)?(?:json|xml|javascript|ecmascript|x-www-form-urlencoded|graphql)\b)|^image\/svg\+xml/i;

/** True when a MIME type names a textual format (text/*, JSON, XML, JS, form). */
export function isTextMime(mime: string | null): boolean {
  return mime !== null && TEXT_MIME.test(mime.trim());
}

/** The MIME type of a Content-Type header value, without parameters, or null. */
export function mimeOf(contentType: string | null | undefined): string | null {
  if (contentType === null || contentType === undefined) return null;
  const m = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  return m === "" ? null : m;
}

function utf8Boundary(buf: Uint8Array, end: number): number {
  // Step back over continuation bytes so the cut never splits a character.
  let i = end;
  while (i > 0 && i < buf.length && (buf[i]! & 0xc0) === 0x80) i--;
  return i;
}

function decodeUtf8(buf: Uint8Array): string | null {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(buf);
  } catch {
    return null;
  }
}

/** Builds an Evidence body from bytes; null for no body. Text when the type is textual and the bytes are UTF-8. */
export function captureBody(bytes: Uint8Array | null, mime: string | null, maxBytes: number): Body | null {
  if (bytes === null) return null;
  const size = bytes.length;
  const truncated = size > maxBytes;
  const textual = isTextMime(mime) || (mime === null && decodeUtf8(bytes) !== null);
  if (textual) {
    const kept = truncated ? bytes.subarray(0, utf8Boundary(bytes, maxBytes)) : bytes;
    const text = decodeUtf8(kept);
    if (text !== null) return { encoding: "utf8", text, size, truncated, mime_type: mime };
  }
  const kept = truncated ? bytes.subarray(0, maxBytes) : bytes;
  return { encoding: "base64", text: Buffer.from(kept).toString("base64"), size, truncated, mime_type: mime };
}
