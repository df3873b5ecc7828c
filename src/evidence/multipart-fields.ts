/**
 * Credential-named fields of a `multipart/form-data` body (a login form with
 * `enctype="multipart/form-data"`, an upload form carrying a CSRF token). The
 * boundary is read from the body's first line, because a captured body's
 * media type is kept without its parameters. Works on text or on latin1 of
 * the raw bytes alike: only the values of named, non-file parts are touched.
 */
import { type CredentialField, credentialField, fieldMarker } from "./body-fields.js";
import type { Provenance } from "./redact-context.js";

/** True for a multipart form media type. */
export function isMultipartMime(mime: string | null | undefined): boolean {
  return mime != null && /multipart\/form-data/i.test(mime);
}

interface Part {
  name: string;
  /** Offsets of the part's value in the body. */
  start: number;
  end: number;
}

/** The named, non-file parts of a multipart body, with where each value sits. */
function formParts(text: string): Part[] {
  const boundary = /^--([^\r\n]{1,200})\r?\n/.exec(text)?.[1];
  if (boundary === undefined) return [];
  const delimiter = `--${boundary}`;
  const parts: Part[] = [];
  let at = 0;
  for (;;) {
    const next = text.indexOf(delimiter, at + delimiter.length);
    if (next < 0) break;
    const piece = text.slice(at + delimiter.length, next);
    const head = /\r?\n\r?\n/.exec(piece);
    const name = head ? /\bname="([^"]*)"/i.exec(piece.slice(0, head.index))?.[1] : undefined;
    if (head && name !== undefined && !/\bfilename\*?=/i.test(piece.slice(0, head.index))) {
      const start = at + delimiter.length + head.index + head[0].length;
      const tail = /\r?\n$/.exec(piece)?.[0].length ?? 0;
      parts.push({ name, start, end: next - tail });
    }
    at = next;
  }
  return parts;
}

/** Every credential field of a multipart body. */
export function multipartCredentialFields(text: string, from: Provenance): CredentialField[] {
  return formParts(text)
    .map((p) => ({ name: p.name, value: text.slice(p.start, p.end) }))
    .filter((f) => credentialField(f.name, f.value, from));
}

/** Rewrites a multipart body so every credential field's value becomes its marker. */
export function redactMultipartFields(
  text: string,
  onReplace: (marker: string) => void,
  from: Provenance,
): string {
  let out = "";
  let at = 0;
  for (const p of formParts(text)) {
    const value = text.slice(p.start, p.end);
    const marker = fieldMarker(p.name);
    if (!credentialField(p.name, value, from) || value === marker) continue;
    onReplace(marker);
    out += text.slice(at, p.start) + marker;
    at = p.end;
  }
  return out + text.slice(at);
}
