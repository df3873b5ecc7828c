/**
 * The `format` hypothesis: a string the app assembles from literal text and
 * values the write knows (`http://host/?p=` + the new id, `<p>` + the sent
 * content + `</p>\n`, the slug of the sent title). Each observation is matched
 * once, left to right, taking at each place the longest source that fits
 * (ties: the entity's id, request values and their slugs, path params, values
 * of entities it names, then its own values); the rule holds only where every
 * confirmed observation gives the same parts.
 */
import type { FieldRule } from "../model/model-schema.js";
import { pointerOfPath, readPointer } from "../util/json-pointer.js";
import { slugify } from "../util/slug.js";
import { type FieldContext, referenced } from "./infer-field-rule.js";
import { isRedactionMarker } from "./value-kinds.js";

type Format = Extract<FieldRule, { kind: "format" }>;
/** One part a value can stand for, and its text in this observation. */
export interface FormatSource {
  part: Exclude<Format["parts"][number], { text: string }>;
  text: string;
}

const MAX_DEPTH = 6;
const WORD = /[A-Za-z0-9]/;
const DIGIT = /\d/;

/** The text of a scalar a part may stand for: strings of `min` characters or more, and integers. */
function textOf(v: unknown, min: number): string | null {
  if (typeof v === "string") return v.length >= min && !isRedactionMarker(v) ? v : null;
  if (typeof v === "number" && Number.isInteger(v)) return String(v);
  return null;
}

/** Every scalar inside `value` with its path (parents first), to a bounded depth. */
function scalars(value: unknown, path: string[] = [], out: [string[], unknown][] = [], depth = 0) {
  if (value === null || typeof value !== "object") {
    if (path.length > 0) out.push([path, value]);
    return out;
  }
  if (depth >= MAX_DEPTH) return out;
  const entries = Array.isArray(value) ? value.map((x, i) => [String(i), x] as const) : Object.entries(value);
  for (const [k, x] of entries) scalars(x, [...path, k], out, depth + 1);
  return out;
}

/** True when one pointer is the other or lies inside it. */
export function related(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}

/** What the string at pointer `self` of one observation's entity may be assembled from, in matching order. */
export function formatSources(ctx: FieldContext, self: string): FormatSource[] {
  const ranked: [number, FormatSource][] = [];
  const id = textOf(ctx.entity[ctx.idField], 1);
  if (id !== null && self !== `/${ctx.idField}`)
    ranked.push([0, { part: { entity: `/${ctx.idField}` }, text: id }]);
  for (const [path, v] of ctx.request ? scalars(ctx.request) : []) {
    const text = textOf(v, 2);
    if (text === null) continue;
    const request = pointerOfPath(path);
    ranked.push([1, { part: { request }, text }]);
    const slug = typeof v === "string" ? slugify(v) : "";
    if (slug.length >= 2 && slug !== v)
      ranked.push([1, { part: { request, transform: "slug" }, text: slug }]);
  }
  for (const [param, v] of Object.entries(ctx.pathParams))
    if (v.length > 0) ranked.push([2, { part: { param }, text: v }]);
  // Values of the entities of other collections the written entity names (a comment's post's link).
  for (const [key, collection, e] of referenced(ctx, self)) {
    const keyText = String(readPointer(ctx.entity, key));
    for (const [path, v] of scalars(e)) {
      const text = textOf(v, 3);
      if (text === null || typeof v !== "string" || holdsToken(v, keyText)) continue;
      ranked.push([2.5, { part: { lookup: collection, key, pointer: pointerOfPath(path) }, text }]);
    }
  }
  for (const [path, v] of scalars(ctx.entity)) {
    const entity = pointerOfPath(path);
    const text = textOf(v, 3);
    if (text === null || related(entity, self) || entity === `/${ctx.idField}`) continue;
    // A string holding the id is itself assembled (a link): the id, not it, is what others are made of.
    if (id !== null && typeof v === "string" && holdsToken(v, id)) continue;
    ranked.push([path.length === 1 ? 3 : 4, { part: { entity }, text }]);
  }
  // The longest value that fits wins; among equally long ones, the simplest source.
  return ranked.sort(([ra, a], [rb, b]) => b.text.length - a.text.length || ra - rb).map(([, s]) => s);
}

/** True when `text` at `i` of `v` is a whole token: no letter or digit touches it, nor a dotted number (`127.0.0.1`). */
function bounded(v: string, i: number, text: string): boolean {
  const before = v[i - 1];
  const after = v[i + text.length];
  if ((before !== undefined && WORD.test(before)) || (after !== undefined && WORD.test(after))) return false;
  if (!DIGIT.test(text[0]!) && !DIGIT.test(text[text.length - 1]!)) return true;
  if (before === "." && DIGIT.test(v[i - 2] ?? "")) return false;
  if (after === "." && DIGIT.test(v[i + text.length + 1] ?? "")) return false;
  return true;
}

/** True when `text` occurs in `v` as a whole token. */
function holdsToken(v: string, text: string): boolean {
  for (let i = v.indexOf(text); i >= 0; i = v.indexOf(text, i + 1)) if (bounded(v, i, text)) return true;
  return false;
}

/**
 * The parts of `v` (literal text and values it holds as whole tokens), or null when it holds none, or is just one
 * value untransformed (that is a copy, or a value from the request, not a format).
 */
export function matchFormat(v: string, sources: FormatSource[]): Format["parts"] | null {
  const parts: Format["parts"] = [];
  let text = "";
  let values = 0;
  for (let i = 0; i < v.length; ) {
    // A value standing for the whole string untransformed is a copy or a request value, not a format.
    const whole = (s: FormatSource) => i === 0 && s.text.length === v.length && !("transform" in s.part);
    const hit = sources.find(
      (s) => s.text.length > 0 && !whole(s) && v.startsWith(s.text, i) && bounded(v, i, s.text),
    );
    if (!hit) {
      text += v[i++];
      continue;
    }
    if (text) parts.push({ text });
    text = "";
    parts.push(hit.part);
    values++;
    i += hit.text.length;
  }
  if (text) parts.push({ text });
  if (values === 0) return null;
  if (parts.length === 1 && !("transform" in parts[0]!)) return null;
  return parts;
}

/**
 * True when `parts` (a format another observation gave) reproduce `v` in this observation: every value part has a
 * source here and the texts, in order, spell `v`. The greedy match takes one parse per observation; where a value
 * fits two sources by coincidence (a comment's author and its post both 1), another observation's parse may be the
 * one that holds everywhere.
 */
export function reproduces(parts: Format["parts"], v: string, sources: FormatSource[]): boolean {
  const byPart = new Map(sources.map((s) => [JSON.stringify(s.part), s.text]));
  let out = "";
  for (const p of parts) {
    if ("text" in p) out += p.text;
    else {
      const text = byPart.get(JSON.stringify(p));
      if (text === undefined) return false;
      out += text;
    }
    if (!v.startsWith(out)) return false;
  }
  return out === v;
}
