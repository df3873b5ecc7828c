/**
 * Credentials an HTML page carries in its markup: an attribute whose name is
 * credential-named (`data-api-token="…"`), or an element whose `name` is
 * (`<meta name="csrf-token" content="…">`, `<input name="authenticity_token"
 * value="…">`). Their values are learned so the page itself, and every record
 * that repeats them, is redacted; a value that could not be a credential
 * (empty, a word) is left alone.
 */
import { isCredentialName } from "../util/credential-name.js";
import { couldBeCredential } from "../util/credential-value.js";
import type { CredentialField } from "./body-fields.js";

const TAG = /<[A-Za-z][A-Za-z0-9-]*\s[^<>]*>/g;
const ATTRIBUTE = /([^\s"'<>/=]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'<>`=]+))/g;
const ENTITIES: Record<string, string> = { amp: "&", quot: '"', apos: "'", lt: "<", gt: ">" };

function decodeEntities(value: string): string {
  return value.replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (whole, e: string) => {
    if (e[0] === "#") {
      const code = e[1] === "x" || e[1] === "X" ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[e.toLowerCase()] ?? whole;
  });
}

/** True when a text reads as HTML (a media type, or a document that starts like one). */
export function isHtml(text: string, mime: string | null | undefined): boolean {
  if (mime != null && /html/i.test(mime)) return true;
  return /^\s*(<!doctype html|<html[\s>])/i.test(text);
}

/** Every credential an HTML text carries in attributes, each value decoded and able to be a credential. */
export function markupCredentialFields(html: string): CredentialField[] {
  const out: CredentialField[] = [];
  for (const tag of html.match(TAG) ?? []) {
    const attrs = new Map<string, string>();
    for (const m of tag.matchAll(ATTRIBUTE)) {
      const name = m[1]!.toLowerCase();
      const value = decodeEntities(m[2] ?? m[3] ?? m[4] ?? "");
      attrs.set(name, value);
      if (isCredentialName(name) && couldBeCredential(value)) out.push({ name, value });
    }
    const named = attrs.get("name");
    const value = attrs.get("value") ?? attrs.get("content");
    if (named !== undefined && value !== undefined && isCredentialName(named) && couldBeCredential(value))
      out.push({ name: named, value });
  }
  return out;
}
