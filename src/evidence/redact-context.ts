import type { Found } from "./split-values.js";

/** What the header and body redactors need from the redactor that owns the known values. */

/** The kind of a redaction marker. */
export type RedactionKind = "secret" | "page" | "header" | "field";

/**
 * Where a value was found: `sent` by the client (a form's password, a query's
 * token: what a user typed), `answered` by the server (a login answer's token,
 * a locale file's "Password"), or in the page's `markup` (a CSRF meta tag).
 * What a server answers under a credential name counts only when it could be
 * a credential (util/credential-value.ts); what a client sent counts at 8 characters.
 */
export type Provenance = "sent" | "answered" | "markup";

/**
 * The values a surface is redacted with: `all` (API records, URLs, headers,
 * messages), or `assets` (the bodies of scripts, styles, documents, images and
 * fonts), where only declared secrets, page-read values, random-looking tokens
 * and values found in the markup are replaced, so the app's own code is never corrupted.
 */
export type RedactScope = "all" | "assets";

/** The redactor's state as the surface-specific redactors see it. */
export interface RedactContext {
  /** Remembers a value found at `from` (when it can be a credential) so it is redacted wherever it appears. */
  learn(value: string, marker: string, from: Provenance): void;
  /** Records that a marker was written once. */
  count(marker: string): void;
  /** Every known value of a scope and its marker, in priority order. */
  known(scope: RedactScope): ReadonlyMap<string, string>;
  /** Replaces every known value of a scope in a text. */
  redactText(text: string, scope?: RedactScope): string;
  /** A name (a header's, a cookie's, a marker's tail) with every known value in it replaced by a token-safe `<kind>.<id>`. */
  redactName(name: string): string;
  /** Where the known values of 8 characters or more of a scope are in a text, in any encoding. */
  findLong(text: string, scope: RedactScope): Found[];
}
