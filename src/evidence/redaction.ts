/**
 * The redactor: every value that must never reach a written file (declared
 * secrets, values a request step read from the page, credential headers and
 * credential-named fields, and every later reappearance of those values) is
 * replaced by a marker such as `[REDACTED:secret:password]`. Pure: no I/O.
 */

import { fieldMarker, formCredentialFields, redactFormFields } from "./body-fields.js";
import type { Body, Header, Redaction } from "./evidence-schema.js";
import { learnBodyWith, redactBodyWith } from "./redact-body.js";
import type { RedactContext, RedactionKind } from "./redact-context.js";
import { learnHeaders, redactHeaderList } from "./redact-headers.js";

export { redactEvidence, redactStepResult } from "./redact-evidence.js";

/** Values shorter than this, read from the page or learned from traffic, are left alone so ids and ports survive. */
export const MIN_LEARNED_LENGTH = 8;

/** Matches a marker already in a text, so it is kept as is and never redacted again. */
export const MARKER_PATTERN = /\[REDACTED:(secret|page|header|field):[^\]\s]*\]/;

/** Replaces secrets, page-read values and credentials with markers; remembers which markers it used. */
export interface Redactor {
  /** Registers a value a request step read from the page; < 8 characters is ignored, a known value keeps its first marker. */
  addPageValue(value: string, marker: string): void;
  /** Registers a value learned from traffic (a cookie, a token field) under a marker; same rules as page values. */
  learnValue(value: string, marker: string): void;
  /** Learns credential values from headers (cookies, authorization, credential-named headers) without redacting. */
  learnFromHeaders(headers: Header[]): void;
  /** Learns the values of credential-named JSON or form fields without redacting. */
  learnFromBody(body: Body | null, mimeType: string | null): void;
  /** Learns the values of credential-named query parameters without redacting. */
  learnFromUrl(url: string): void;
  /** Replaces every known value, also in URL-encoded and JSON-escaped forms. */
  redactText(text: string): string;
  /** Redacts credential headers (names kept) and every known value in the others. */
  redactHeaders(headers: Header[]): Header[];
  /** Learns from and redacts credential-named fields of JSON and form bodies, then every known value; base64 text bodies too. */
  redactBody(body: Body | null): Body | null;
  /** Redacts userinfo, credential-named query parameters and every known value in path, query and fragment. */
  redactUrl(url: string): string;
  /** The markers this redactor wrote and how often, sorted by marker; never the values. */
  markers(): Redaction[];
}

/** The kind of a marker: `[REDACTED:<kind>:…]`. */
export function markerKind(marker: string): RedactionKind {
  const kind = /^\[REDACTED:([a-z]+):/.exec(marker)?.[1];
  return kind === "secret" || kind === "page" || kind === "header" ? kind : "field";
}

/** Percent-encodes (UTF-8, upper-case hex) only the characters `encode` picks, as a browser's URL parser does. */
function percentEncodeSome(value: string, encode: (c: string) => boolean): string {
  let out = "";
  for (const c of value) {
    if (!encode(c)) out += c;
    else if (c.length === 1 && c >= "\uD800" && c <= "\uDFFF") out += "%EF%BF%BD";
    else out += encodeURIComponent(c);
  }
  return out;
}

/** The WHATWG URL percent-encode sets a browser applies to a path, a query (special schemes) and a fragment. */
const URL_ENCODE_SETS = [/["#<>?`{}]/, /["#<>']/, /["<>`]/].map(
  (set) => (c: string) => c <= " " || c >= "\x7f" || set.test(c),
);

/** A form field as a page without a declared charset submits it: windows-1252 bytes (for Latin-1 text), `+` for space. */
function latin1FormEncoded(value: string): string | null {
  const chars = [...value];
  if (!chars.some((c) => c >= "\x80") || chars.some((c) => c > "\xff")) return null;
  return chars
    .map((c) =>
      c >= "\x80"
        ? `%${c.charCodeAt(0).toString(16).toUpperCase()}`
        : new URLSearchParams([["", c]]).toString().slice(1),
    )
    .join("");
}

/**
 * The forms a value can take in traffic: raw, percent-encoded (both styles),
 * form-encoded (UTF-8, and Latin-1 as a page without a charset sends it), as
 * a browser leaves it in a URL path, query or fragment (only some characters
 * encoded), JSON-escaped.
 */
export function valueVariants(value: string): string[] {
  const uri = encodeURIComponent(value);
  const json = JSON.stringify(value).slice(1, -1);
  const variants = [
    value,
    uri,
    uri.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
    uri.replace(/%20/g, "+"),
    new URLSearchParams([["", value]]).toString().slice(1),
    ...URL_ENCODE_SETS.map((set) => percentEncodeSome(value, set)),
    ...[latin1FormEncoded(value)].filter((v) => v !== null),
    json,
    json.replace(/\//g, "\\/"),
  ];
  return [...new Set(variants)];
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Creates a redactor that knows the declared secrets (`[REDACTED:secret:<id>]`, longest value first). */
export function createRedactor(opts: { secrets: { id: string; value: string }[] }): Redactor {
  /** value → marker; insertion order is priority (secrets, then page values, then learned values). */
  const known = new Map<string, string>();
  const counts = new Map<string, number>();
  let pattern: { re: RegExp; byVariant: Map<string, string> } | null = null;

  const count = (marker: string): void => {
    counts.set(marker, (counts.get(marker) ?? 0) + 1);
  };
  const remember = (value: string, marker: string, minLength: number): void => {
    if (value.length < minLength || known.has(value) || MARKER_PATTERN.test(value)) return;
    known.set(value, marker);
    pattern = null;
  };
  for (const s of [...opts.secrets].sort(
    (a, b) => b.value.length - a.value.length || (a.id < b.id ? -1 : 1),
  )) {
    remember(s.value, `[REDACTED:secret:${s.id}]`, 1);
  }

  const compiled = (): { re: RegExp; byVariant: Map<string, string> } => {
    if (pattern) return pattern;
    const byVariant = new Map<string, string>();
    for (const [value, marker] of known) {
      for (const v of valueVariants(value)) if (!byVariant.has(v)) byVariant.set(v, marker);
    }
    const alternatives = [...byVariant.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
    const source = [MARKER_PATTERN.source, ...alternatives].join("|");
    pattern = { re: new RegExp(source, "g"), byVariant };
    return pattern;
  };

  const redactText = (text: string): string => {
    if (known.size === 0 || text.length === 0) return text;
    const { re, byVariant } = compiled();
    return text.replace(re, (match) => {
      const marker = byVariant.get(match);
      if (marker === undefined) return match; // an existing marker, kept as is
      count(marker);
      return marker;
    });
  };

  const learn = (value: string, marker: string): void => remember(value, marker, MIN_LEARNED_LENGTH);
  const ctx: RedactContext = { learn, count, redactText, known: () => known };
  const learnFromUrl = (url: string): void => {
    const query = /\?([^#]*)/.exec(url)?.[1];
    if (query) for (const f of formCredentialFields(query)) learn(f.value, fieldMarker(f.name));
  };

  return {
    addPageValue: learn,
    learnValue: learn,
    learnFromHeaders: (headers) => learnHeaders(headers, learn),
    learnFromBody: (body, mimeType) => learnBodyWith(body, mimeType, learn),
    learnFromUrl,
    redactText,
    redactHeaders(headers) {
      learnHeaders(headers, learn);
      return redactHeaderList(headers, ctx);
    },
    redactBody(body) {
      learnBodyWith(body, null, learn);
      return redactBodyWith(body, ctx);
    },
    redactUrl(url) {
      const m = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^/?#]*@)?([^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?$/s.exec(url);
      learnFromUrl(url);
      if (!m) return redactText(url);
      const [, scheme = "", userinfo, host = "", path = "", query, fragment] = m;
      let out = scheme;
      if (userinfo) {
        count(fieldMarker("userinfo"));
        out += `${fieldMarker("userinfo")}@`;
      }
      out += host + redactText(path);
      if (query !== undefined) out += `?${redactText(redactFormFields(query.slice(1), count))}`;
      if (fragment !== undefined) out += redactText(fragment);
      return out;
    },
    markers: () =>
      [...counts.entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([marker, n]) => ({ marker, kind: markerKind(marker), count: n })),
  };
}
