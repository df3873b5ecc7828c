/**
 * Credential-named fields inside JSON and url-encoded form bodies: finding
 * them (to learn their values) and replacing their values in place. The JSON
 * rewrite works on the text, token by token, so everything but the replaced
 * strings keeps its exact bytes (number formats, spacing, key order).
 * Whether a field holds a credential is `credentialField`: what a client sent
 * under a credential name always does (a password may be any text); what a
 * server answered only when it could be one (a locale's "Password" is a label).
 */
import { credentialNameKind } from "../util/credential-name.js";
import { couldBeCredential } from "../util/credential-value.js";
import { parseJsonWithin } from "../util/json-depth.js";
import type { Provenance } from "./redact-context.js";

/** One credential-named field with a string value. */
export interface CredentialField {
  name: string;
  value: string;
}

/**
 * True when a field's value is a credential: a non-empty string under a
 * credential name that a client sent, or under a credential (or describing)
 * name when it could be a credential.
 */
export function credentialField(name: string, value: unknown, from: Provenance): value is string {
  const kind = credentialNameKind(name);
  if (kind === "none" || typeof value !== "string" || value === "") return false;
  return (from === "sent" && kind === "credential") || couldBeCredential(value);
}

/** The marker a credential-named field's value becomes. */
export function fieldMarker(name: string): string {
  return `[REDACTED:field:${name.replace(/[^A-Za-z0-9._-]/g, "_")}]`;
}

/** True for a media type that is JSON (`application/json`, `application/problem+json`, …). */
export function isJsonMime(mime: string | null | undefined): boolean {
  return mime != null && /[/+]json\b/i.test(mime);
}

/** True for a url-encoded form media type. */
export function isFormMime(mime: string | null | undefined): boolean {
  return mime != null && /application\/x-www-form-urlencoded/i.test(mime);
}

/**
 * Parses text as JSON, or returns undefined when it is not JSON or nests past
 * MAX_JSON_DEPTH (such a body is then redacted as text, never walked).
 */
export function tryParseJson(text: string): unknown {
  const parsed = parseJsonWithin(text);
  return parsed.ok ? parsed.value : undefined;
}

/** Every credential field in a parsed JSON value, depth first. */
export function jsonCredentialFields(value: unknown, from: Provenance): CredentialField[] {
  const out: CredentialField[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) {
      for (const item of v) walk(item);
    } else if (v !== null && typeof v === "object") {
      for (const [name, child] of Object.entries(v as Record<string, unknown>)) {
        if (credentialField(name, child, from)) out.push({ name, value: child });
        else walk(child);
      }
    }
  };
  walk(value);
  return out;
}

const JSON_STRING = /"(?:[^"\\]|\\.)*"/g;

/** The first non-whitespace character from `i` walking in direction `step`. */
function charAt(text: string, i: number, step: 1 | -1): string | undefined {
  let j = i;
  while (j >= 0 && j < text.length && /\s/.test(text[j]!)) j += step;
  return text[j];
}

/**
 * Rewrites valid JSON text so the string value of every credential field
 * becomes that key's marker. In valid JSON every `"` outside a string starts
 * a string, so a string-literal scan is a faithful tokenizer.
 */
export function redactJsonFields(
  text: string,
  onReplace: (marker: string) => void,
  from: Provenance,
): string {
  let lastKey: string | null = null;
  return text.replace(JSON_STRING, (literal, offset: number) => {
    const after = charAt(text, offset + literal.length, 1);
    if (after === ":") {
      lastKey = JSON.parse(literal) as string;
      return literal;
    }
    const before = charAt(text, offset - 1, -1);
    if (before === ":" && lastKey !== null && credentialField(lastKey, JSON.parse(literal), from)) {
      const marker = fieldMarker(lastKey);
      if (literal === JSON.stringify(marker)) return literal;
      onReplace(marker);
      return JSON.stringify(marker);
    }
    return literal;
  });
}

/**
 * Rewrites every string of valid JSON text that is written with escapes
 * (`\u00e4`, Go's `\u003c`, any `\u0041`) and holds a known value once
 * decoded: such a string is decoded, redacted and written back with
 * JSON.stringify. Strings without a backslash are left to the plain text scan.
 */
export function redactJsonStrings(text: string, redact: (decoded: string) => string): string {
  return text.replace(JSON_STRING, (literal) => {
    if (!literal.includes("\\")) return literal;
    const decoded = JSON.parse(literal) as string;
    const redacted = redact(decoded);
    return redacted === decoded ? literal : JSON.stringify(redacted);
  });
}

const JSON_SCALAR = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/g;

/**
 * JSON text with `redact` applied token by token, so it stays JSON: each
 * string's decoded text (re-encoded when it changes), each number or literal
 * as a whole (one that changes becomes a string holding the marker), never
 * the punctuation between them.
 */
export function redactJsonTokens(text: string, redact: (t: string) => string): string {
  const scalars = (segment: string) =>
    segment.replace(JSON_SCALAR, (t) => {
      const r = redact(t);
      return r === t ? t : JSON.stringify(r);
    });
  let out = "";
  let last = 0;
  for (const m of text.matchAll(JSON_STRING)) {
    out += scalars(text.slice(last, m.index));
    const decoded = JSON.parse(m[0]) as string;
    const redacted = redact(decoded);
    out += redacted === decoded ? m[0] : JSON.stringify(redacted);
    last = m.index + m[0].length;
  }
  return out + scalars(text.slice(last));
}

function decodeFormPart(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, " "));
  } catch {
    return part;
  }
}

/** Every credential pair of a url-encoded form (or query string), values decoded. */
export function formCredentialFields(text: string, from: Provenance): CredentialField[] {
  const out: CredentialField[] = [];
  for (const part of text.split("&")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const name = decodeFormPart(part.slice(0, eq));
    const value = decodeFormPart(part.slice(eq + 1));
    if (credentialField(name, value, from)) out.push({ name, value });
  }
  return out;
}

/** Rewrites a url-encoded form (or query string) so every credential value becomes its marker. */
export function redactFormFields(
  text: string,
  onReplace: (marker: string) => void,
  from: Provenance,
): string {
  return text
    .split("&")
    .map((part) => {
      const eq = part.indexOf("=");
      if (eq < 0 || eq === part.length - 1) return part;
      const name = decodeFormPart(part.slice(0, eq));
      if (!credentialField(name, decodeFormPart(part.slice(eq + 1)), from)) return part;
      const marker = fieldMarker(name);
      if (part.slice(eq + 1) === marker) return part;
      onReplace(marker);
      return `${part.slice(0, eq)}=${marker}`;
    })
    .join("&");
}
