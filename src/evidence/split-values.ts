/**
 * A known value split across JSON strings: an app that answers
 * `{"first": "a b/c", "last": "+d&e"}` holds the secret `a b/c+d&e` though
 * neither string does. The string values of a JSON text are read in document
 * order and joined; every known value found across two or more of them is
 * replaced by its marker in each string that holds a piece of it. The rewrite
 * works on the text, so everything else keeps its exact bytes. Pure.
 */

/** Where a known value was found in a text: [start, end) and its marker. */
export interface Found {
  start: number;
  end: number;
  marker: string;
}

const JSON_STRING = /"(?:[^"\\]|\\.)*"/g;

/** One string value of a JSON text: where its literal is, and what it decodes to. */
interface StringValue {
  offset: number;
  literal: string;
  decoded: string;
}

/** The string values of a JSON text (keys left out), in document order. */
function stringValues(text: string): StringValue[] {
  const out: StringValue[] = [];
  for (const m of text.matchAll(JSON_STRING)) {
    const after = /^\s*(.)/.exec(text.slice(m.index + m[0].length, m.index + m[0].length + 64))?.[1];
    if (after === ":") continue;
    out.push({ offset: m.index, literal: m[0], decoded: JSON.parse(m[0]) as string });
  }
  return out;
}

/**
 * Rewrites valid JSON text so every known value `find` reports across two or
 * more string values is replaced, piece by piece, by its marker; `onReplace`
 * hears each marker once per value found.
 */
export function redactSplitValues(
  text: string,
  find: (joined: string) => Found[],
  onReplace: (marker: string) => void,
): string {
  const values = stringValues(text);
  if (values.length < 2) return text;
  const starts: number[] = [];
  let joined = "";
  for (const v of values) {
    starts.push(joined.length);
    joined += v.decoded;
  }
  /** For each string value, the ranges of its decoded text to replace and their marker. */
  const cuts = new Map<number, { from: number; to: number; marker: string }[]>();
  for (const f of find(joined)) {
    const first = lastIndexAtOrBefore(starts, f.start);
    const last = lastIndexAtOrBefore(starts, f.end - 1);
    if (first === last) continue; // inside one string: the plain scan's job
    onReplace(f.marker);
    for (let i = first; i <= last; i++) {
      const from = Math.max(f.start - (starts[i] ?? 0), 0);
      const to = Math.min(f.end - (starts[i] ?? 0), values[i]?.decoded.length ?? 0);
      if (to > from) cuts.set(i, [...(cuts.get(i) ?? []), { from, to, marker: f.marker }]);
    }
  }
  if (cuts.size === 0) return text;
  let out = "";
  let at = 0;
  values.forEach((v, i) => {
    const ranges = cuts.get(i);
    if (!ranges) return;
    let decoded = v.decoded;
    for (const r of [...ranges].sort((a, b) => b.from - a.from)) {
      decoded = decoded.slice(0, r.from) + r.marker + decoded.slice(r.to);
    }
    out += text.slice(at, v.offset) + JSON.stringify(decoded);
    at = v.offset + v.literal.length;
  });
  return out + text.slice(at);
}

/** The index of the last start at or before `pos` (starts ascending). */
function lastIndexAtOrBefore(starts: number[], pos: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
