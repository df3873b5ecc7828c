/**
 * The one rule for which field, query, header and label names hold
 * credentials, shared by the scenario's inline-credential check and by
 * redaction (they used to disagree: `pwd`, `otp`, `sid`, `x-session-id` passed
 * validation while redaction hid them; `token_type` was refused although
 * redaction left it alone). Names are split into words (snake_case,
 * kebab-case, camelCase, dots) and matched word-wise, so `accessToken`,
 * `x-api-key` and `csrfmiddlewaretoken` match while `author`, `compass` and
 * `passenger` do not. A name whose last word qualifies it (`token_type`,
 * `password_hint`) *describes* a credential: its value counts as one only
 * when it could be one (see credential-value.ts).
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

/** Roots that make a credential name wherever they appear in the joined name (`csrfmiddlewaretoken`, `apikey`). */
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
  "cookie",
  "bearer",
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
  "param",
  "enabled",
  "required",
  "policy",
  "method",
  "label",
  "in",
  "at",
]);

/** What a name says of its value: it holds a credential, it describes one, or neither. */
export type CredentialNameKind = "credential" | "describes" | "none";

/** Splits a name into lower-case words: `refreshToken` → `refresh`, `token`. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

/** Whether a field, query parameter, header or label name holds a credential, describes one, or neither. */
export function credentialNameKind(name: string): CredentialNameKind {
  const words = nameWords(name);
  const joined = words.join("");
  if (joined === "") return "none";
  // "api key" split over two words, and roots glued into one word (csrfmiddlewaretoken).
  const named = words.some((w) => WORDS.has(w)) || ROOTS.some((root) => joined.includes(root));
  if (!named) return "none";
  return words.length > 1 && QUALIFIERS.has(words[words.length - 1]!) ? "describes" : "credential";
}

/** True when a name says its value is a credential (`password`, `x-api-key`, `sid`); `token_type` only describes one. */
export function isCredentialName(name: string): boolean {
  return credentialNameKind(name) === "credential";
}

/** Headers that never carry a credential of their own (a cookie is read by its names). */
const NOT_CREDENTIAL_HEADERS = new Set([
  "cookie",
  "set-cookie",
  "content-type",
  "content-length",
  "accept",
  "referer",
  "origin",
]);

/**
 * True when a request header carries a credential of its own: named like one (`authorization`, `x-api-key`) or
 * holding a value redaction replaced. Never a cookie (its credentials are its cookies' names).
 */
export function isCredentialHeader(name: string, value: string): boolean {
  const lower = name.toLowerCase();
  if (NOT_CREDENTIAL_HEADERS.has(lower)) return false;
  return isCredentialName(lower) || value.includes("[REDACTED:");
}
