/**
 * Query parameters a twin never repeats back: an agent (or a frontend) may
 * send a credential in the query (`?token=…`, `?api_key=…`, Redmine-style
 * `?key=…`), and the twin's misses, request journal and access log quote the
 * request. Their values are masked there, as journal bodies mask
 * credential-named fields. A parameter is masked when its name holds a
 * credential (credential-name.ts), or its name ends in a word that signs or
 * grants (`key`, `signature`, `sig`, `hmac`, `code`, `nonce`) and its value looks
 * like a random token (`key` alone names a sort key as often as an API key, so
 * the name decides only with the value).
 */
import { isCredentialName, nameWords } from "./credential-name.js";
import { looksRandom } from "./credential-value.js";

export const MASKED = "[MASKED]";

/** True when the value of this query parameter is masked wherever the twin quotes the request. */
export function isMaskedParam(name: string, value: string): boolean {
  if (isCredentialName(name)) return true;
  const last = nameWords(name).at(-1) ?? "";
  return GRANTING.has(last) && looksRandom(value);
}

/**
 * Last words of names whose random-looking values sign or grant a request (`key`, a pre-signed URL's
 * `X-Amz-Signature`, `sig`, an OAuth `code`, an `hmac`): masked only with such a value (`code=US`, `key=title` stay).
 */
const GRANTING = new Set(["key", "signature", "sig", "hmac", "code", "nonce"]);

/** The pairs with masked values replaced by `[MASKED]` (a new array; the same array when nothing is masked). */
export function maskQueryPairs(pairs: readonly (readonly [string, string])[]): [string, string][] {
  if (!pairs.some(([k, v]) => isMaskedParam(k, v))) return pairs as [string, string][];
  return pairs.map(([k, v]) => [k, isMaskedParam(k, v) ? MASKED : v]);
}

/** A query string (without `?`) with masked values replaced; unchanged when nothing is masked. */
export function maskQueryString(query: string): string {
  if (query === "") return query;
  const pairs = [...new URLSearchParams(query)];
  if (!pairs.some(([k, v]) => isMaskedParam(k, v))) return query;
  return new URLSearchParams(maskQueryPairs(pairs)).toString();
}
