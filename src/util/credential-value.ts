/**
 * Whether a value could be a credential, and whether it looks like a random
 * token. A value under a credential-named key is not always one: a locale
 * file's `"password": "Password"`, a label, an empty string, a boolean. Such
 * values must neither be refused in a scenario under a name that only
 * describes a credential, nor be learned and replaced everywhere (which once
 * turned `with` inside an app's JavaScript into `with[REDACTED:field:…]`).
 */

/**
 * A plain word or label: words written as words are (lower case, Capitalised
 * or ALL CAPS, not mixed inside), joined by `-`, `'` or `_` at most, with an
 * optional trailing `:` or `…`. Mixed case inside a word (`kJhGtReW`) is not a word.
 */
const PLAIN_WORD = /^(?:\p{Lu}?\p{Ll}+|\p{Lu}+)(?:[-'’_](?:\p{Lu}?\p{Ll}+|\p{Lu}+))*[:…]?$/u;
const URL_OR_PATH = /^(?:[A-Za-z][A-Za-z0-9+.-]*:\/\/|\.{0,2}\/)/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const DECIMAL = /^[+-]?\d*\.\d+(?:[eE][+-]?\d+)?$|^[+-]?\d+[eE][+-]?\d+$/;
const MARKER = /^\[REDACTED:[a-z]+:[^\]\s]*\]$/;

/** The shortest value that can be a learned credential (shorter ones are ids, ports, flags). */
export const MIN_CREDENTIAL_LENGTH = 8;

/**
 * True when a string could be a credential: at least 8 characters, no
 * whitespace, and not a plain word or label, a URL or path, a date or time, a
 * decimal number, or a redaction marker. An empty string, a boolean or a
 * number never is (a number under a credential name is judged by its digits).
 */
export function couldBeCredential(value: unknown): boolean {
  if (typeof value === "number") return Number.isInteger(value) && couldBeCredential(String(value));
  if (typeof value !== "string") return false;
  if (value.length < MIN_CREDENTIAL_LENGTH || /\s/.test(value)) return false;
  return !(
    PLAIN_WORD.test(value) ||
    URL_OR_PATH.test(value) ||
    DATE_TIME.test(value) ||
    DECIMAL.test(value) ||
    MARKER.test(value)
  );
}

/** Shannon entropy of a string in bits per character. */
function entropy(value: string): number {
  const counts = new Map<string, number>();
  for (const c of value) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / value.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/**
 * True for a token of 16 or more characters that looks random: token
 * characters only (letters, digits, `+/=_.~-`), letters and digits mixed, or
 * letters alone with at least 4 bits of entropy per character. Such a value
 * is redacted even inside the app's scripts, styles and documents.
 */
export function looksRandom(value: string): boolean {
  if (value.length < 16 || !/^[A-Za-z0-9+/=_.~-]+$/.test(value)) return false;
  if (PLAIN_WORD.test(value)) return false;
  const letters = /[A-Za-z]/.test(value);
  const digits = /\d/.test(value);
  if (letters && digits) return true;
  return letters && entropy(value) >= 4;
}
