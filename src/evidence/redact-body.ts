/**
 * Bodies: JSON and url-encoded forms get their credential-named fields
 * replaced (values learned), then every known value is replaced in the text.
 * base64 bodies are decoded: text-like ones are redacted as text and
 * re-encoded; binary ones are scanned byte-wise (latin1) for known ASCII
 * values, which catches multipart uploads but not non-ASCII secrets.
 */
import {
  fieldMarker,
  formCredentialFields,
  isFormMime,
  isJsonMime,
  jsonCredentialFields,
  redactFormFields,
  redactJsonFields,
  redactJsonStrings,
  redactJsonTokens,
  tryParseJson,
} from "./body-fields.js";
import type { Body } from "./evidence-schema.js";
import { isHtml, markupCredentialFields } from "./markup-fields.js";
import { isMultipartMime, multipartCredentialFields, redactMultipartFields } from "./multipart-fields.js";
import type { Provenance, RedactContext, RedactScope } from "./redact-context.js";
import { redactSplitValues } from "./split-values.js";

const TEXT_MIME = /^text\/|[/+](json|xml)\b|javascript|ecmascript|x-www-form-urlencoded|graphql/i;

function looksLikeJson(text: string): boolean {
  return /^\s*[[{]/.test(text) && tryParseJson(text) !== undefined;
}

/** True when a text holds control characters other than tab, newline and carriage return (binary data). */
function hasControlBytes(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c) return true;
  }
  return false;
}

/** Decodes a base64 body to text when it is text-like (by media type, or valid UTF-8 without control bytes). */
function decodeTextLike(body: Body): string | null {
  const bytes = Buffer.from(body.text, "base64");
  if (body.mime_type != null && TEXT_MIME.test(body.mime_type)) return bytes.toString("utf8");
  if (body.mime_type != null && !/octet-stream/i.test(body.mime_type)) return null;
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return hasControlBytes(text) ? null : text;
  } catch {
    return null;
  }
}

/** Learns the values of the credential fields of a JSON, form or multipart body; with `markup`, of an HTML page's markup only. */
export function learnBodyWith(
  body: Body | null,
  mimeType: string | null,
  learn: (value: string, marker: string, from: Provenance) => void,
  from: Provenance,
): void {
  if (!body) return;
  const text = body.encoding === "base64" ? decodeTextLike(body) : body.text;
  const mime = mimeType ?? body.mime_type;
  const each = (fields: { name: string; value: string }[]) => {
    for (const f of fields) learn(f.value, fieldMarker(f.name), from);
  };
  if (from === "markup") {
    if (text !== null && isHtml(text, mime)) each(markupCredentialFields(text));
    return;
  }
  if (text === null) {
    // A multipart upload with binary parts: its form fields are still there, byte for byte.
    if (!isMultipartMime(mime)) return;
    for (const f of multipartCredentialFields(Buffer.from(body.text, "base64").toString("latin1"), from))
      learn(Buffer.from(f.value, "latin1").toString("utf8"), fieldMarker(f.name), from);
  } else if (isJsonMime(mime) || looksLikeJson(text)) {
    each(jsonCredentialFields(tryParseJson(text), from));
  } else if (isFormMime(mime)) {
    each(formCredentialFields(text, from));
  } else if (isMultipartMime(mime)) {
    each(multipartCredentialFields(text, from));
  }
}

/** Redacts a text body by its media type: JSON fields, form fields, then every known value of the scope. */
function redactTextBody(
  text: string,
  mime: string | null,
  ctx: RedactContext,
  from: Provenance,
  scope: RedactScope,
): string {
  const known = (t: string) => ctx.redactText(t, scope);
  let out = text;
  if ((isJsonMime(mime) || looksLikeJson(text)) && tryParseJson(text) !== undefined) {
    const inner = redactJsonStrings(redactJsonFields(text, ctx.count, from), known);
    let strings = known(inner);
    // Redaction never makes a JSON document invalid (issue 13): when the pass over the whole text broke it (a value
    // that is also a number, a literal or a run of punctuation), it is redacted token by token instead; only a value
    // that spans tokens is still replaced across them (no leak outranks validity). Its markers may count twice.
    if (tryParseJson(strings) === undefined) {
      const tokens = redactJsonTokens(inner, known);
      const spanning = known(tokens);
      strings = spanning === tokens ? tokens : spanning;
    }
    // A value split across two strings ({"first": "a b/c", "last": "+d&e"}) is found in their joined text.
    return tryParseJson(strings) === undefined
      ? strings
      : redactSplitValues(strings, (joined) => ctx.findLong(joined, scope), ctx.count);
  } else if (isFormMime(mime)) {
    out = redactFormFields(text, ctx.count, from);
  } else if (isMultipartMime(mime)) {
    out = redactMultipartFields(text, ctx.count, from);
  }
  return known(out);
}

/** A truncated body may end in the first part of a known value: a tail of 8 or more such characters becomes its marker. */
function redactTruncatedTail(text: string, ctx: RedactContext, scope: RedactScope): string {
  for (const [value, marker] of ctx.known(scope)) {
    for (let k = value.length - 1; k >= 8; k--) {
      if (text.endsWith(value.slice(0, k))) {
        ctx.count(marker);
        return text.slice(0, text.length - k) + marker;
      }
    }
  }
  return text;
}

/**
 * Redacts a body that was sent (`from`) by the client or answered by the
 * server, with the known values of `scope`; null stays null. Size and
 * truncation flags are kept as recorded.
 */
export function redactBodyWith(
  body: Body | null,
  ctx: RedactContext,
  from: Provenance,
  scope: RedactScope,
): Body | null {
  if (!body) return body;
  if (body.encoding === "utf8") {
    const text = redactTextBody(body.text, body.mime_type, ctx, from, scope);
    return { ...body, text: body.truncated ? redactTruncatedTail(text, ctx, scope) : text };
  }
  const decoded = decodeTextLike(body);
  if (decoded !== null) {
    const text = redactTextBody(decoded, body.mime_type, ctx, from, scope);
    return text === decoded ? body : { ...body, text: Buffer.from(text, "utf8").toString("base64") };
  }
  const latin1 = Buffer.from(body.text, "base64").toString("latin1");
  const fields = isMultipartMime(body.mime_type) ? redactMultipartFields(latin1, ctx.count, from) : latin1;
  const redacted = ctx.redactText(fields, scope);
  return redacted === latin1 ? body : { ...body, text: Buffer.from(redacted, "latin1").toString("base64") };
}
