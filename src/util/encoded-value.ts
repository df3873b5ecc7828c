/**
 * Finding a value however a server, a browser or a template engine wrote it.
 * Two tools, both linear in the text:
 * - `decodedViews` decodes every escape of a text, repeatedly (percent-encoding
 *   of UTF-8 or Latin-1 bytes and `%uHHHH`, HTML numeric and named entities,
 *   JSON and JavaScript escapes), and maps a range of the decoded text back to
 *   the range of the original that wrote it. A value is then searched once,
 *   in the decoded text, so any mix of encodings is found: Python's quote()
 *   keeping `/`, double percent-encoding, `&amp;`, `&#x2F;`, `\u002b`, `\/`.
 * - `wholeValueForms` are the forms that do not work per character: hex of
 *   the value's bytes and the base64/base64url "cores" of the value at each
 *   of the three byte alignments, so base64 of a text that holds the value
 *   (a JWT's payload, `user:password`) is found wherever the value sits in it.
 * Pure.
 */

/** The named HTML entities a server writes for ASCII characters (and the no-break space). */
const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
  excl: "!",
  num: "#",
  dollar: "$",
  percnt: "%",
  lpar: "(",
  rpar: ")",
  ast: "*",
  midast: "*",
  plus: "+",
  comma: ",",
  period: ".",
  sol: "/",
  colon: ":",
  semi: ";",
  equals: "=",
  quest: "?",
  commat: "@",
  lsqb: "[",
  lbrack: "[",
  bsol: "\\",
  rsqb: "]",
  rbrack: "]",
  hat: "^",
  lowbar: "_",
  grave: "`",
  lcub: "{",
  lbrace: "{",
  verbar: "|",
  vert: "|",
  rcub: "}",
  rbrace: "}",
  tab: "\t",
  newline: "\n",
};

const LETTER_ESCAPES: Record<string, string> = {
  n: "\n",
  r: "\r",
  t: "\t",
  b: "\b",
  f: "\f",
  v: "\v",
  "0": "\0",
};

const PERCENT_ESCAPE = "(?:%[0-9A-Fa-f]{2})+|%[uU][0-9A-Fa-f]{4}";
const HTML_ESCAPE = "&#[0-9]{1,7};|&#[xX][0-9A-Fa-f]{1,6};|&[A-Za-z]{2,8};";
const BACKSLASH_ESCAPE = "\\\\(?:u[0-9A-Fa-f]{4}|x[0-9A-Fa-f]{2}|[nrtbfv0\"'/\\\\])";

/** The escapes a round decodes: all of them, or one family (so a family's escape never eats the next's first character). */
export type EscapeFamily = "all" | "percent" | "html" | "backslash";
const ESCAPES: Record<EscapeFamily, RegExp> = {
  all: new RegExp([PERCENT_ESCAPE, HTML_ESCAPE, BACKSLASH_ESCAPE].join("|"), "g"),
  percent: new RegExp(PERCENT_ESCAPE, "g"),
  html: new RegExp(HTML_ESCAPE, "g"),
  backslash: new RegExp(BACKSLASH_ESCAPE, "g"),
};

/** The text one escape stands for, or null when it is none (an unknown entity). */
function decodeEscape(token: string): string | null {
  const c0 = token[0];
  if (c0 === "%") {
    if (token[1] === "u" || token[1] === "U") return String.fromCharCode(Number.parseInt(token.slice(2), 16));
    const bytes = Buffer.from(token.replace(/%/g, ""), "hex");
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      return bytes.toString("latin1");
    }
  }
  if (c0 === "&") {
    if (token[1] === "#") {
      const hex = token[2] === "x" || token[2] === "X";
      const cp = Number.parseInt(token.slice(hex ? 3 : 2, -1), hex ? 16 : 10);
      return cp > 0x10ffff ? null : String.fromCodePoint(cp);
    }
    return NAMED_ENTITIES[token.slice(1, -1).toLowerCase()] ?? null;
  }
  const c1 = token[1] ?? "";
  if (c1 === "u" || c1 === "x") return String.fromCharCode(Number.parseInt(token.slice(2), 16));
  return LETTER_ESCAPES[c1] ?? c1;
}

/** One decoded escape: where it starts in the decoded text and in the source, and both lengths. */
interface Step {
  d: number;
  dLen: number;
  o: number;
  oLen: number;
}

/** One round of decoding: the decoded text and the escapes it replaced, in order. */
function decodeRound(text: string, family: EscapeFamily): { text: string; steps: Step[] } {
  const steps: Step[] = [];
  let out = "";
  let last = 0;
  for (const m of text.matchAll(ESCAPES[family])) {
    const decoded = decodeEscape(m[0]);
    if (decoded === null) continue;
    out += text.slice(last, m.index);
    steps.push({ d: out.length, dLen: decoded.length, o: m.index, oLen: m[0].length });
    out += decoded;
    last = m.index + m[0].length;
  }
  return { text: steps.length === 0 ? text : out + text.slice(last), steps };
}

/** The last step that starts at or before decoded position `pos`, or -1. */
function stepAt(steps: Step[], pos: number): number {
  let lo = 0;
  let hi = steps.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((steps[mid] as Step).d <= pos) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** Maps a decoded range [start, end) of one round to the source range that wrote it. */
function mapRange(steps: Step[], start: number, end: number): [number, number] {
  const point = (pos: number, side: "start" | "end"): number => {
    const i = stepAt(steps, pos);
    if (i < 0) return side === "start" ? pos : pos + 1;
    const s = steps[i] as Step;
    if (pos < s.d + s.dLen) return side === "start" ? s.o : s.o + s.oLen;
    const o = s.o + s.oLen + (pos - s.d - s.dLen);
    return side === "start" ? o : o + 1;
  };
  return [point(start, "start"), end > start ? point(end - 1, "end") : point(start, "start")];
}

/** A text with every escape decoded (up to `rounds` times), and the way back to the original. */
export interface DecodedView {
  text: string;
  /** The range of the original text that wrote the decoded range [start, end). */
  original(start: number, end: number): [number, number];
}

/**
 * The text after each round of decoding, while a round finds an escape (at
 * most `rounds`): `%2520` is `%20` after one and a space after two. Each
 * round is searched, since a later one can also eat what an earlier one
 * revealed (`%5C"` is `\"` after one round and `"` after two).
 */
export function decodedViews(text: string, family: EscapeFamily = "all", rounds = 4): DecodedView[] {
  const layers: Step[][] = [];
  const views: DecodedView[] = [];
  let current = text;
  for (let i = 0; i < rounds; i++) {
    const round = decodeRound(current, family);
    if (round.steps.length === 0) break;
    layers.push(round.steps);
    current = round.text;
    const depth = layers.length;
    views.push({
      text: current,
      original(start, end) {
        let range: [number, number] = [start, end];
        for (let j = depth - 1; j >= 0; j--) range = mapRange(layers[j] as Step[], range[0], range[1]);
        return range;
      },
    });
  }
  return views;
}

/** A text with every escape decoded, as many rounds as find one (at most `rounds`). */
export function decodedView(text: string, rounds = 4): DecodedView {
  return decodedViews(text, "all", rounds).at(-1) ?? { text, original: (start, end) => [start, end] };
}

/** A line break inside a run of base64 or hex: what MIME, PEM and `base64.encodebytes` wrap lines with. */
const WRAP_BREAK = /(?<=[A-Za-z0-9+/_=-])(?:\r?\n|\\r\\n|\\n)+(?=[A-Za-z0-9+/_=-])/g;

/**
 * The text with every line break inside a base64 or hex run removed (a
 * real break, or a JSON `\n` escape of one), and the way back: base64
 * written wrapped every 64 or 76 characters is then one run, whose whole
 * forms are found as in an unwrapped text. Null when there is no such break.
 */
export function unwrappedView(text: string): DecodedView | null {
  const steps: Step[] = [];
  let out = "";
  let last = 0;
  for (const m of text.matchAll(WRAP_BREAK)) {
    out += text.slice(last, m.index);
    steps.push({ d: out.length, dLen: 0, o: m.index, oLen: m[0].length });
    last = m.index + m[0].length;
  }
  if (steps.length === 0) return null;
  out += text.slice(last);
  return { text: out, original: (start, end) => mapRange(steps, start, end) };
}

/**
 * The run of base64 or hex around a range that spans wrapped lines: the
 * range widened on its first and last line only (the lines before and after
 * are other bytes of the blob, or the text around it), never taking a line
 * break or half of its JSON escape.
 */
export function wrappedRunAround(text: string, start: number, end: number): [number, number] {
  const inRun = (i: number) => {
    const c = text[i];
    if (c === undefined || !/[A-Za-z0-9+/_%=-]/.test(c)) return false;
    return !((c === "n" || c === "r") && text[i - 1] === "\\");
  };
  let s = start;
  let e = end;
  while (s > 0 && inRun(s - 1)) s--;
  while (e < text.length && text[e] !== "\\" && inRun(e)) e++;
  return [s, e];
}

/** The base64 characters of `text` that only the bytes of `value` decide, when `value` starts `skip` bytes in. */
function base64Core(value: Buffer, skip: number, alphabet: "base64" | "base64url"): string {
  const encoded = Buffer.concat([Buffer.alloc(skip), value]).toString(alphabet);
  const first = Math.ceil((8 * skip) / 6);
  const last = Math.floor((8 * (skip + value.length)) / 6);
  return encoded.slice(first, last);
}

/** The forms of a value that cannot be decoded per character: a JSON string's inside, as a server writes it. */
function jsonForms(value: string): string[] {
  const json = JSON.stringify(value).slice(1, -1);
  const ascii = json.replace(
    /[\u0080-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  return [value, json, json.replace(/\//g, "\\/"), ascii, ascii.replace(/\//g, "\\/")];
}

/**
 * The case-sensitive forms of a value found as they are: the base64 and
 * base64url cores of its text forms at the three alignments, and the hex of
 * its bytes in both cases. Each is at least 8 characters for a value of 8
 * bytes, so it never matches by chance.
 */
export function wholeValueForms(value: string): string[] {
  const out = new Set<string>();
  for (const form of new Set(jsonForms(value))) {
    const bytes = Buffer.from(form, "utf8");
    for (const skip of [0, 1, 2])
      for (const alphabet of ["base64", "base64url"] as const) out.add(base64Core(bytes, skip, alphabet));
  }
  const utf8 = Buffer.from(value, "utf8");
  // UTF-16LE (what .NET and PowerShell encode strings as) in base64 and hex
  const utf16 = Buffer.from(value, "utf16le");
  for (const skip of [0, 1, 2])
    for (const alphabet of ["base64", "base64url"] as const) out.add(base64Core(utf16, skip, alphabet));
  // base32 (RFC 4648: TOTP secrets, some token formats), either case, at each of the five byte alignments
  for (const skip of [0, 1, 2, 3, 4]) {
    const core = base32Core(utf8, skip);
    out.add(core);
    out.add(core.toLowerCase());
  }
  for (const bytes of [utf8, utf16]) {
    const hex = bytes.toString("hex");
    out.add(hex);
    out.add(hex.toUpperCase());
  }
  // hex dumps: bytes separated by a space or a colon, either case
  const pairs = utf8.toString("hex").match(/../g) ?? [];
  for (const sep of [" ", ":"]) {
    out.add(pairs.join(sep));
    out.add(pairs.join(sep).toUpperCase());
  }
  return [...out].filter((f) => f.length >= 8);
}

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** The base32 characters (RFC 4648, no padding) that only the bytes of `value` decide, when it starts `skip` bytes in. */
function base32Core(value: Buffer, skip: number): string {
  const bytes = Buffer.concat([Buffer.alloc(skip), value]);
  let bits = 0;
  let acc = 0;
  let encoded = "";
  for (const byte of bytes) {
    acc = (acc << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      encoded += BASE32[(acc >>> (bits - 5)) & 31];
      bits -= 5;
    }
    acc &= (1 << bits) - 1;
  }
  const first = Math.ceil((8 * skip) / 5);
  const last = Math.floor((8 * (skip + value.length)) / 5);
  return encoded.slice(first, last);
}

/** The run of base64 (either alphabet, percent-encoded or not), base32 or hex around [start, end) of a text. */
export function encodedRunAround(text: string, start: number, end: number): [number, number] {
  const inRun = (c: string | undefined) => c !== undefined && /[A-Za-z0-9+/_%=-]/.test(c);
  let s = start;
  let e = end;
  while (s > 0 && inRun(text[s - 1])) s--;
  while (e < text.length && inRun(text[e])) e++;
  return [s, e];
}

/** Every JWT-shaped token of a text (`eyJ…` header and payload): where its payload is and what it decodes to. */
export function jwtPayloads(text: string): { start: number; end: number; decoded: string }[] {
  const out: { start: number; end: number; decoded: string }[] = [];
  for (const m of text.matchAll(
    /\beyJ[A-Za-z0-9_-]{2,}={0,2}\.([A-Za-z0-9_-]{4,}={0,2})(?:\.[A-Za-z0-9_-]*)?/g,
  )) {
    const payload = m[1] ?? "";
    const start = m.index + m[0].indexOf(`.${payload}`) + 1;
    out.push({
      start,
      end: start + payload.length,
      decoded: Buffer.from(payload, "base64url").toString("utf8"),
    });
  }
  return out;
}

export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
