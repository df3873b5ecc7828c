/**
 * The redactor: every value that must never reach a written file (declared
 * secrets, values a request step read from the page, credential headers and
 * credential fields, and every later reappearance of those values) is
 * replaced by a marker such as `[REDACTED:secret:password]`. Pure: no I/O.
 *
 * Two scopes, so redaction never corrupts the app's own files: API records,
 * URLs, headers and messages are redacted with every known value; the bodies
 * of scripts, styles, documents, images and fonts only with declared secrets,
 * page-read values, values found in a page's markup and tokens of 16 or more
 * characters that look random (a learned "hunter2hunter2" is not replaced
 * inside a script, where it could only be the app's own text).
 */

import { couldBeCredential, looksRandom, MIN_CREDENTIAL_LENGTH } from "../util/credential-value.js";
import { fieldMarker, formCredentialFields, redactFormFields } from "./body-fields.js";
import type { Body, Header, Redaction } from "./evidence-schema.js";
import { compileKnown, type KnownMatcher, MIN_WHOLE_FORM_LENGTH, replaceFound } from "./known-values.js";
import { learnBodyWith, redactBodyWith } from "./redact-body.js";
import type { Provenance, RedactContext, RedactionKind, RedactScope } from "./redact-context.js";
import { learnHeaders, redactHeaderList } from "./redact-headers.js";
import type { Found } from "./split-values.js";

export { redactEvidence, redactStepResult } from "./redact-evidence.js";

/** Values shorter than this, read from the page or learned from traffic, are left alone so ids and ports survive. */
export const MIN_LEARNED_LENGTH = MIN_CREDENTIAL_LENGTH;

/** Matches a marker already in a text, so it is kept as is and never redacted again. */
export const MARKER_PATTERN = /\[REDACTED:(secret|page|header|field):[^\]\s]*\]/;

/** Every marker of a text, its kind and tail captured. */
export const MARKER_TAILS = /\[REDACTED:(secret|page|header|field):([^\]\s]*)\]/g;

/** Replaces secrets, page-read values and credentials with markers; remembers which markers it used. */
export interface Redactor {
  /** Registers a value a request step read from the page; < 8 characters is ignored, a known value keeps its first marker. */
  addPageValue(value: string, marker: string): void;
  /** Registers a value learned from traffic (a cookie, a token field) under a marker, found at `from` (default `sent`). */
  learnValue(value: string, marker: string, from?: Provenance): void;
  /** Learns credential values from headers (cookies, authorization, credential-named headers) without redacting. */
  learnFromHeaders(headers: Header[]): void;
  /** Learns the values of credential fields of a JSON, form or multipart body (or an answered page's markup) without redacting. */
  learnFromBody(body: Body | null, mimeType: string | null, from?: Provenance): void;
  /** Learns the values of credential-named query parameters without redacting. */
  learnFromUrl(url: string): void;
  /** Replaces every known value of the scope (default `all`) in any encoding (see known-values.ts). */
  redactText(text: string, scope?: RedactScope): string;
  /**
   * A name (a header's, a cookie's, the tail of a marker built from a field's
   * name) with every known value in it replaced by `<kind>.<id>` of its marker
   * (`secret.API_TOKEN`), so it stays a valid header token and marker tail.
   */
  redactName(name: string): string;
  /** Redacts credential headers (names kept unless they hold a known value) and every known value in the others. */
  redactHeaders(headers: Header[]): Header[];
  /**
   * Learns from and redacts the credential fields of JSON, form and multipart
   * bodies, then every known value of the scope; base64 text bodies too. A body
   * is `sent` by the client unless said otherwise; an asset's body takes scope `assets`.
   */
  redactBody(body: Body | null, opts?: { from?: Provenance; scope?: RedactScope }): Body | null;
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

/** A known value: its marker, and whether it is replaced inside assets too. */
interface Known {
  marker: string;
  everywhere: boolean;
}

/** Creates a redactor that knows the declared secrets (`[REDACTED:secret:<id>]`, longest value first). */
/**
 * The shortest declared secret apptwin accepts (issue 13, decision): a value
 * of 1 to 3 characters occurs all over any recording (a digit, a letter of
 * `true`), so redacting it would rewrite the evidence beyond use; capture and
 * HAR import refuse it, naming the secret.
 */
export const MIN_SECRET_LENGTH = 4;

/** Why a declared secret's value cannot be redacted, or null when it can. */
export function shortSecret(value: string): string | null {
  const n = [...value].length;
  if (n >= MIN_SECRET_LENGTH) return null;
  return `is ${n} character${n === 1 ? "" : "s"} long; a declared secret must be at least ${MIN_SECRET_LENGTH} (so short a value occurs all over a recording, and redacting it would rewrite digits and letters of every answer)`;
}

export function createRedactor(opts: { secrets: { id: string; value: string }[] }): Redactor {
  /** value → marker; insertion order is priority (secrets, then page values, then learned values). */
  const known = new Map<string, Known>();
  const counts = new Map<string, number>();
  const patterns = new Map<RedactScope, KnownMatcher>();

  const count = (marker: string): void => {
    counts.set(marker, (counts.get(marker) ?? 0) + 1);
  };
  const remember = (value: string, marker: string, minLength: number, everywhere: boolean): void => {
    if (value.length < minLength || MARKER_PATTERN.test(value)) return;
    const before = known.get(value);
    if (before) {
      // A value known twice keeps its first marker; found again as a random token, it is replaced in assets too.
      if (everywhere && !before.everywhere) {
        before.everywhere = true;
        patterns.delete("assets");
      }
      return;
    }
    known.set(value, { marker, everywhere });
    patterns.clear();
  };
  for (const s of [...opts.secrets].sort(
    (a, b) => b.value.length - a.value.length || (a.id < b.id ? -1 : 1),
  )) {
    remember(s.value, `[REDACTED:secret:${s.id}]`, 1, true);
  }

  const knownIn = (scope: RedactScope): Map<string, string> => {
    const out = new Map<string, string>();
    for (const [value, k] of known) if (scope === "all" || k.everywhere) out.set(value, k.marker);
    return out;
  };

  /** The known values of a scope, compiled once per set of values (longest first; any case in `all`). */
  const compiled = (scope: RedactScope): KnownMatcher => {
    const cached = patterns.get(scope);
    if (cached) return cached;
    const matcher = compileKnown([...knownIn(scope)], scope === "all");
    patterns.set(scope, matcher);
    return matcher;
  };

  const redactText = (text: string, scope: RedactScope = "all"): string => {
    if (known.size === 0 || text.length === 0) return text;
    return replaceFound(text, compiled(scope).find(text), count);
  };

  /** What a client sent counts at 8 characters; what a server answered only when it could be a credential. */
  const learn = (value: string, marker: string, from: Provenance = "sent"): void => {
    if (from !== "sent" && !couldBeCredential(value)) return;
    remember(value, marker, MIN_LEARNED_LENGTH, from === "markup" || looksRandom(value));
  };
  /** Every known value of 8 characters or more in a text, in any encoding, where it is. */
  const findLong = (text: string, scope: RedactScope): Found[] =>
    compiled(scope).find(text, MIN_WHOLE_FORM_LENGTH);
  const redactName = (name: string): string => {
    const out = redactText(name);
    if (out === name) return name;
    return out
      .replace(MARKER_TAILS, (_m, kind: string, tail: string) => `${kind}.${tail}`)
      .replace(/[^A-Za-z0-9._-]/g, "_");
  };
  const ctx: RedactContext = { learn, count, redactText, redactName, known: knownIn, findLong };
  const learnFromUrl = (url: string): void => {
    const query = /\?([^#]*)/.exec(url)?.[1];
    if (query)
      for (const f of formCredentialFields(query, "sent")) learn(f.value, fieldMarker(f.name), "sent");
  };

  return {
    addPageValue: (value, marker) => remember(value, marker, MIN_LEARNED_LENGTH, true),
    learnValue: learn,
    learnFromHeaders: (headers) => learnHeaders(headers, learn),
    learnFromBody: (body, mimeType, from = "sent") => learnBodyWith(body, mimeType, learn, from),
    learnFromUrl,
    redactText,
    redactName,
    redactHeaders(headers) {
      learnHeaders(headers, learn);
      return redactHeaderList(headers, ctx);
    },
    redactBody(body, o = {}) {
      const from = o.from ?? "sent";
      learnBodyWith(body, null, learn, from);
      return redactBodyWith(body, ctx, from, o.scope ?? "all");
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
      if (query !== undefined) out += `?${redactText(redactFormFields(query.slice(1), count, "sent"))}`;
      if (fragment !== undefined) out += redactText(fragment);
      return out;
    },
    markers: () =>
      [...counts.entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([marker, n]) => ({ marker, kind: markerKind(marker), count: n })),
  };
}
