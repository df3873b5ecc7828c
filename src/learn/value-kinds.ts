/**
 * Recognisers for the shapes of values learning cares about: ids in paths
 * (numbers, UUIDs, long hex, ULIDs), segments that are never ids (`api`,
 * `v1`, dates), redaction markers, and times in the app's own format.
 */
import { parseIsoTime } from "../util/time-layout.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const LONG_HEX = /^[0-9a-f]{16,}$/i;
const ULID = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;
const INT = /^(0|[1-9]\d{0,15})$/;
const VERSION = /^v\d+(\.\d+)*$/i;
const DATE = /^\d{4}-\d{2}(-\d{2})?$/;
const MARKER = /^\[REDACTED:[a-z]+:[^\]]*\]$/;

/** True for a JSON object (not null, not an array): an entity, a body, an envelope. */
export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** True for a UUID string (any version). */
export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID.test(value);
}

/** True for a path segment that is an id by its shape alone: an integer, UUID, ≥16-char hex or ULID. */
export function isIdShaped(segment: string): boolean {
  if (isNeverParam(segment)) return false;
  return INT.test(segment) || UUID.test(segment) || LONG_HEX.test(segment) || ULID.test(segment);
}

/** True for a segment that is never a parameter: `api`, a version like `v1`, or a date. */
export function isNeverParam(segment: string): boolean {
  return segment === "api" || VERSION.test(segment) || DATE.test(segment);
}

/** True for a redaction marker such as `[REDACTED:header:authorization]`. */
export function isRedactionMarker(value: unknown): value is string {
  return typeof value === "string" && MARKER.test(value);
}

/** The time formats the clock rule knows. */
export type TimeFormat = "iso" | "epoch_ms" | "epoch_s";

/** A time read from a value: its format, instant, and for ISO texts the layout and the offset they state. */
export interface TimeValue {
  format: TimeFormat;
  /** The instant in ms; for an ISO time without a zone, its wall clock read as UTC. */
  ms: number;
  /** ISO only: the text's layout (`YYYY-MM-DDTHH:mm:ss.SSSZ`, `YYYY-MM-DD HH:mm:ss`). */
  layout?: string;
  /** ISO only: the offset the text states (minutes east of UTC), null for a local time without a zone. */
  offsetMin?: number | null;
}

/** Reads `value` as a time in one of the known formats (ISO in any common layout, with or without a zone), or null. */
export function readTime(value: unknown): TimeValue | null {
  if (typeof value === "string") {
    const t = parseIsoTime(value);
    return t ? { format: "iso", ms: t.ms, layout: t.layout, offsetMin: t.offsetMin } : null;
  }
  if (typeof value === "number" && Number.isInteger(value)) {
    // 2001-09-09 .. 2286-11-20 in ms; 2001-09-09 .. 2286 in seconds.
    if (value >= 1e12 && value < 1e13) return { format: "epoch_ms", ms: value };
    if (value >= 1e9 && value < 1e10) return { format: "epoch_s", ms: value * 1000 };
  }
  return null;
}

/** True when two times are written alike: the same format and, for ISO texts, the same layout. */
export function sameTimeShape(a: TimeValue, b: TimeValue): boolean {
  return a.format === b.format && a.layout === b.layout && (a.offsetMin === null) === (b.offsetMin === null);
}

/** A JSON Web Token: base64url segments joined by dots, the header starting `eyJ` (`{"`). */
const JWT = /^eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/**
 * True when a string looks like a generated token (random hex/base64 of 8+ chars with letters and digits, or a
 * JWT, whose dots the base64 alphabet lacks: one left unredacted under an unusual name is never a constant).
 */
export function looksRandom(value: unknown): boolean {
  if (typeof value !== "string" || value.length < 8) return false;
  if (JWT.test(value)) return true;
  if (!/^[A-Za-z0-9_+/=-]+$/.test(value)) return false;
  return /\d/.test(value) && /[A-Za-z]/.test(value);
}

/** The shape of a generated token: its fixed length and alphabet. */
export interface TokenShape {
  length: number;
  alphabet: "hex" | "alphanumeric";
}

/**
 * The shape of values a server generates at random (an etag, a nonce): every value looks random
 * (see `looksRandom`), all have one length, and no two are equal. Null when they are not such tokens.
 */
export function tokenShape(values: unknown[]): TokenShape | null {
  if (values.length === 0 || !values.every(looksRandom)) return null;
  const strings = values as string[];
  const length = strings[0]!.length;
  if (strings.some((v) => v.length !== length) || new Set(strings).size !== strings.length) return null;
  return { length, alphabet: strings.every((v) => /^[0-9a-f]+$/i.test(v)) ? "hex" : "alphanumeric" };
}

/** English singular of a collection segment (`boards` → `board`, `categories` → `category`). */
export function singular(word: string): string {
  if (/ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/(ss|x|ch|sh|us)es$/.test(word)) return word.slice(0, -2);
  if (/s$/.test(word) && !/ss$/.test(word)) return word.slice(0, -1);
  return word;
}

/** A name made safe for tool names: lowercase, `[a-z0-9_]` only. */
export function snake(word: string): string {
  return word
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
}

/** A value that can name a kind of thing (`file`, `notebook`, `draft`, `true`), not free text, a number or a marker. */
export function isKindValue(v: unknown): boolean {
  return typeof v === "boolean" || (typeof v === "string" && KIND.test(v) && !isRedactionMarker(v));
}
const KIND = /^[A-Za-z][A-Za-z0-9_.-]{0,31}$/;
