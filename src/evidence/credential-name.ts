/**
 * Which field, query and header names hold credentials. Names are split into
 * words (snake_case, kebab-case, camelCase, dots) and matched word-wise, so
 * `accessToken`, `x-api-key` and `csrfmiddlewaretoken` match while `author`,
 * `compass` and `passenger` do not. Only string values are ever treated as
 * secret, so a numeric `tokens_used` is left alone by the callers.
 */

/** Whole words that name a credential on their own. */
const WORDS = new Set([
  "pass",
  "passwd",
  "pwd",
  "password",
  "passphrase",
  "token",
  "secret",
  "session",
  "sessionid",
  "sid",
  "csrf",
  "xsrf",
  "csrftoken",
  "authorization",
  "auth",
  "cookie",
  "apikey",
  "jwt",
  "bearer",
  "credential",
  "credentials",
  "otp",
]);

/** Roots that make a credential name wherever they appear in the joined name. */
const ROOTS = [
  "password",
  "passwd",
  "token",
  "secret",
  "csrf",
  "xsrf",
  "apikey",
  "authorization",
  "credential",
];

/** A last word that makes the name describe a credential rather than hold one (`token_type`, `password_hint`). */
const QUALIFIERS = new Set([
  "type",
  "kind",
  "expires",
  "expiry",
  "expiration",
  "ttl",
  "count",
  "used",
  "usage",
  "limit",
  "hint",
  "length",
  "format",
  "name",
  "url",
  "uri",
  "endpoint",
  "path",
  "field",
  "header",
  "enabled",
  "required",
  "policy",
  "method",
  "label",
  "in",
  "at",
]);

/** Splits a name into lower-case words: `refreshToken` → `refresh`, `token`. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

/** True when a field, query parameter or header name says its value is a credential. */
export function isCredentialName(name: string): boolean {
  const words = nameWords(name);
  if (words.length > 1 && QUALIFIERS.has(words[words.length - 1]!)) return false;
  if (words.some((w) => WORDS.has(w))) return true;
  const joined = words.join("");
  if (joined === "") return false;
  // "api key" split over two words, and roots glued into one word (csrfmiddlewaretoken).
  return ROOTS.some((root) => joined.includes(root));
}
