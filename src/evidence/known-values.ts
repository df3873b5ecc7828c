/**
 * Where the known values (secrets, page-read values, learned credentials) are
 * in a text, in any encoding a server or a browser commonly writes: the text
 * is decoded first (percent-encoding of any depth and style, HTML entities,
 * JSON and JavaScript escapes; util/encoded-value.ts) and searched there, any
 * case where case does not matter; the base64, base64url and hex forms of the
 * values of 8 characters or more are searched too (their whole run is
 * replaced), and every JWT's payload is decoded and searched. Each search is
 * one regular expression of literals, which V8 runs in linear time. Pure.
 */
import {
  decodedView,
  decodedViews,
  encodedRunAround,
  escapeRegExp,
  jwtPayloads,
  unwrappedView,
  wholeValueForms,
  wrappedRunAround,
} from "../util/encoded-value.js";
import type { Found } from "./split-values.js";

/** Whether a text holds an escape of a family at all (else its view is the combined one). */
const HAS_FAMILY = { percent: /%/, html: /&/, backslash: /\\/ };

/** An existing marker, never redacted again. */
const MARKER_SOURCE = "\\[REDACTED:(?:secret|page|header|field):[^\\]\\s]*\\]";

/** Values shorter than this are not searched as base64 or hex (4 base64 characters decode to anything). */
export const MIN_WHOLE_FORM_LENGTH = 8;

/** A known value found in a text: the range, its marker, and the length of the value. */
export interface FoundValue extends Found {
  length: number;
  /** The value's rank in the known values (declared secrets first): of two found at the same range, the first wins. */
  rank: number;
}

/** Finds the known values of one scope. */
export interface KnownMatcher {
  /** Every known value of at least `minLength` characters in `text`, non-overlapping, in order. */
  find(text: string, minLength?: number): FoundValue[];
}

interface Hit {
  marker: string;
  length: number;
  rank: number;
}

interface Literals {
  re: RegExp;
  byLiteral: Map<string, Hit>;
  fold: boolean;
}

/** One regular expression of every form of every value, longest form first; a form two values share keeps the first value's marker. */
function literals(
  entries: [string, string][],
  forms: (v: string) => string[],
  fold: boolean,
): Literals | null {
  const byLiteral = new Map<string, Hit>();
  entries.forEach(([value, marker], rank) => {
    // Folded, a form is kept as written too: /i leaves a character whose capital is two (ᾈ) to itself.
    for (const f of forms(value))
      for (const key of fold ? [f, f.toLowerCase()] : [f])
        if (!byLiteral.has(key)) byLiteral.set(key, { marker, length: value.length, rank });
  });
  if (byLiteral.size === 0) return null;
  const alternatives = [...byLiteral.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
  return {
    re: new RegExp(`(${MARKER_SOURCE})|${alternatives.join("|")}`, fold ? "gi" : "g"),
    byLiteral,
    fold,
  };
}

/**
 * The forms of a value searched in the text as it is, before decoding (so an
 * escape the text's neighbouring characters complete does not hide it): the
 * value, with `+` for each space, and JSON-escaped.
 */
function rawForms(value: string): string[] {
  const json = JSON.stringify(value).slice(1, -1);
  return [...new Set([value, value.replace(/ /g, "+"), json, json.replace(/\//g, "\\/")])];
}

/**
 * The text forms of a value searched in decoded text: the value decoded as the
 * text is (a secret that holds `%00` or `\\r` is compared decoded, as the
 * text's copy of it will be), and with `+` for each space (a form's).
 */
function textForms(value: string): string[] {
  const decoded = decodedView(value).text;
  return [...new Set([decoded, decoded.replace(/ /g, "+")])];
}

function matches(text: string, lit: Literals, minLength: number): FoundValue[] {
  const out: FoundValue[] = [];
  for (const m of text.matchAll(lit.re)) {
    if (m[1] !== undefined) continue;
    const hit = lit.byLiteral.get(m[0]) ?? (lit.fold ? lit.byLiteral.get(m[0].toLowerCase()) : undefined);
    if (hit && hit.length >= minLength) out.push({ start: m.index, end: m.index + m[0].length, ...hit });
  }
  return out;
}

/** Sorted, non-overlapping: of two that overlap, the one that starts first (then the longer, then the first known) wins and covers both. */
function merge(found: FoundValue[]): FoundValue[] {
  const sorted = [...found].sort((a, b) => a.start - b.start || b.end - a.end || a.rank - b.rank);
  const out: FoundValue[] = [];
  for (const f of sorted) {
    const last = out[out.length - 1];
    if (last && f.start < last.end) last.end = Math.max(last.end, f.end);
    else out.push({ ...f });
  }
  return out;
}

/**
 * Compiles the known values of a scope (value → marker, in priority order: at
 * one place the longest match wins, then the first value); `fold` searches
 * the text forms in any case.
 */
export function compileKnown(entries: [string, string][], fold: boolean): KnownMatcher {
  const sorted = entries;
  const text = literals(sorted, textForms, fold);
  const raw = literals(sorted, rawForms, fold);
  const long = sorted.filter(([v]) => v.length >= MIN_WHOLE_FORM_LENGTH);
  const whole = literals(long, wholeValueForms, false);

  const find = (input: string, minLength = 0, depth = 2): FoundValue[] => {
    if (text === null || input.length === 0) return [];
    // every family of escapes together (a JSON escape inside percent-encoding), then each alone
    const views = (["all", "percent", "html", "backslash"] as const).flatMap((f) =>
      f !== "all" && !HAS_FAMILY[f].test(input) ? [] : decodedViews(input, f),
    );
    const found: FoundValue[] = raw === null ? [] : matches(input, raw, minLength);
    if (whole !== null) {
      // a `%` before a hex run must not hide it, so whole forms are searched as written too
      for (const m of matches(input, whole, minLength)) {
        const [start, end] = encodedRunAround(input, m.start, m.end);
        found.push({ ...m, start, end });
      }
    }
    for (const view of views) {
      for (const m of matches(view.text, text, minLength)) {
        const [start, end] = view.original(m.start, m.end);
        found.push({ ...m, start, end });
      }
      if (whole === null) continue;
      for (const m of matches(view.text, whole, minLength)) {
        const [s, e] = view.original(m.start, m.end);
        const [start, end] = encodedRunAround(input, s, e);
        found.push({ ...m, start, end });
      }
    }
    if (whole !== null) {
      // base64 or hex wrapped over lines (MIME, PEM): searched with the breaks taken out
      for (const base of [
        { text: input, original: (s: number, e: number): [number, number] => [s, e] },
        ...views,
      ]) {
        const unwrapped = unwrappedView(base.text);
        if (unwrapped === null) continue;
        for (const m of matches(unwrapped.text, whole, minLength)) {
          const [bs, be] = unwrapped.original(m.start, m.end);
          const [s, e] = base.original(bs, be);
          const [start, end] = wrappedRunAround(input, s, e);
          found.push({ ...m, start, end });
        }
      }
    }
    if (depth > 0) {
      for (const jwt of jwtPayloads(input)) {
        const inner = find(jwt.decoded, Math.max(minLength, MIN_WHOLE_FORM_LENGTH), depth - 1)[0];
        if (inner) found.push({ ...inner, start: jwt.start, end: jwt.end });
      }
    }
    return merge(found);
  };
  return { find: (input, minLength) => find(input, minLength) };
}

/** Replaces every range found by its marker; `onReplace` hears each marker written. */
export function replaceFound(text: string, found: Found[], onReplace: (marker: string) => void): string {
  if (found.length === 0) return text;
  let out = "";
  let at = 0;
  for (const f of found) {
    out += text.slice(at, f.start) + f.marker;
    onReplace(f.marker);
    at = f.end;
  }
  return out + text.slice(at);
}
