/**
 * How a list read's query is read and applied: the one definition learn
 * tests its hypotheses with and serve answers with, so a rule confirmed
 * against the recording means exactly the same when the twin runs it.
 *
 * A query becomes *leaves*: each parameter's name split at its brackets
 * (`filter[where][title][like]`) and, when its value is a JSON object or
 * array (`filter={"where":{"id":{"gt":2}}}`), that JSON's keys appended, so
 * both of LoopBack's spellings are one path `filter/where/id/gt`; an array of
 * objects gives index names (`filter/where/or/0/id`), a group's branches when
 * a group token precedes them (src/model/filter-groups.ts). Field names
 * in a path resolve to an entity's fields by structure (`assigned_to_id` →
 * `assigned_to.id`), operators by their spelling.
 */

/** A scalar of a query: text from the URL, or a typed value from a JSON parameter. */
export type QueryScalar = string | number | boolean | null;

/** One leaf of a query: the path of names to it and its value (several for a JSON array of scalars). */
export interface QueryLeaf {
  path: string[];
  value: QueryScalar | QueryScalar[];
  /** Index of the query pair it came from. */
  pair: number;
}

type Json = QueryScalar | Json[] | { [k: string]: Json };
type Entity = Record<string, unknown>;

const MAX_LEAVES = 64;
const MAX_DEPTH = 8;
/** The key of the leaf standing for what lay beyond those limits (no query rule names it). */
const CUT = "\u2026beyond-limit";

/** `filter[where][title]` → `["filter", "where", "title"]`; `a[]` → `["a"]`; anything else is one name. */
export function bracketPath(name: string): string[] {
  const m = /^([^[\]]+)((?:\[[^[\]]*\])+)$/.exec(name);
  if (!m) return [name];
  const keys = [...m[2]!.matchAll(/\[([^[\]]*)\]/g)].map((x) => x[1]!);
  return [m[1]!, ...keys.filter((k, i) => k !== "" || i < keys.length - 1)];
}

function parseJsonValue(value: string): Json | undefined {
  const t = value.trim();
  if (!(t.startsWith("{") || t.startsWith("["))) return undefined;
  try {
    return JSON.parse(t) as Json;
  } catch {
    return undefined;
  }
}

function isScalar(v: unknown): v is QueryScalar {
  return v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean";
}

function expand(path: string[], value: Json, pair: number, out: QueryLeaf[], depth: number): void {
  if (out.length >= MAX_LEAVES || depth > MAX_DEPTH) {
    // Never the query read as if it ended here (its filters dropped, the whole list answered): one leaf no rule
    // knows stands for the rest, so the request is the explained unlearned_query miss.
    if (!out.some((l) => l.path.at(-1) === CUT)) out.push({ path: [...path, CUT], value: "", pair });
    return;
  }
  if (isScalar(value)) {
    out.push({ path, value, pair });
    return;
  }
  if (Array.isArray(value)) {
    if (value.every(isScalar)) out.push({ path, value: value as QueryScalar[], pair });
    else
      value.forEach((v, i) => {
        expand([...path, String(i)], v, pair, out, depth + 1);
      });
    return;
  }
  for (const [k, v] of Object.entries(value)) expand([...path, k], v, pair, out, depth + 1);
}

/**
 * The terms of a tuple expression (`(Status,eq,draft)~and(Views,gt,10)`): each `(field,op,value)` joined by
 * `~and`, as [field, op, value]; null for any other value (an `~or` is not a conjunction of leaves).
 */
function tupleTerms(value: string): [string, string, string][] | null {
  if (!value.startsWith("(")) return null;
  const terms: [string, string, string][] = [];
  for (const part of value.split("~and")) {
    const m = /^\(([^,()]+),([^,()]+),([^()]*)\)$/.exec(part);
    if (!m) return null;
    terms.push([m[1]!, m[2]!, m[3]!]);
  }
  return terms;
}

/**
 * The leaves of a query, in order; repeated names (`a[]=1&a[]=2`) join into one leaf with several values. A tuple
 * expression's terms are leaves of their own under the parameter (`where=(Status,eq,draft)` is `where/Status/eq`).
 */
export function queryLeaves(query: [string, string][]): QueryLeaf[] {
  const out: QueryLeaf[] = [];
  query.forEach(([name, value], pair) => {
    const path = bracketPath(name);
    const terms = tupleTerms(value);
    if (terms) {
      for (const [field, op, v] of terms) out.push({ path: [...path, field, op], value: v, pair });
      return;
    }
    const json = parseJsonValue(value);
    if (json !== undefined && !isScalar(json)) {
      expand(path, json, pair, out, 0);
      return;
    }
    const same = name.endsWith("[]")
      ? out.find((l) => l.path.join("\u0000") === path.join("\u0000"))
      : undefined;
    if (same) same.value = [...(Array.isArray(same.value) ? same.value : [same.value]), value];
    else out.push({ path, value: name.endsWith("[]") ? [value] : value, pair });
  });
  return out;
}

/** The value at a dotted field path of an entity (`project.id`), or undefined (own keys only, never `constructor`). */
export function fieldValue(e: Entity, field: string): unknown {
  let v: unknown = e;
  for (const k of field.split(".")) {
    if (v === null || typeof v !== "object" || Array.isArray(v) || !Object.hasOwn(v, k)) return undefined;
    v = (v as Entity)[k];
  }
  return v;
}

/** The elements of a leaf's value: its array, its text split at the separator, or the value alone. */
export function leafValues(value: QueryScalar | QueryScalar[], sep: string | null): QueryScalar[] {
  if (Array.isArray(value)) return value;
  if (sep !== null && typeof value === "string") return value.split(sep);
  return [value];
}

/** The kind of a value a query compares: a number (or text spelling one), a boolean (or true/false), or text. */
export type ValueKind = "number" | "boolean" | "text";

/** A value's kind; null for null, objects and arrays (nothing a filter value is compared by kind with). */
export function valueKind(v: unknown): ValueKind | null {
  if (typeof v === "number") return "number";
  if (typeof v === "boolean") return "boolean";
  if (typeof v !== "string") return null;
  if (/^-?\d+(\.\d+)?$/.test(v)) return "number";
  return v === "true" || v === "false" ? "boolean" : "text";
}

/** The kinds of the values a field holds across `sample` (empty when it holds none a kind is told of). */
export function fieldKinds(field: string, sample: Entity[]): Set<ValueKind> {
  const out = new Set<ValueKind>();
  for (const e of sample) {
    const k = valueKind(fieldValue(e, field));
    if (k !== null) out.add(k);
  }
  return out;
}

/**
 * The first of a filter's values whose kind the field never holds (`*` or `website` against integer ids), or null.
 * A field holding text takes any value (`title=2024` compares text); one holding no kind (all null) takes every value.
 */
export function foreignValue(values: readonly unknown[], field: string, sample: Entity[]): unknown {
  const kinds = fieldKinds(field, sample);
  if (kinds.size === 0 || kinds.has("text")) return null;
  for (const v of values) {
    const k = valueKind(v);
    if (k !== null && !kinds.has(k)) return v;
  }
  return null;
}

const snake = (s: string) =>
  s
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/[-\s]+/g, "_")
    .toLowerCase();

function isObj(v: unknown): v is Entity {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/**
 * The fields a name in a query may mean, best first: the key itself, a key spelled alike (`isComplete` ~
 * `is_complete`), `<x>_id`/`<x>Id` for the `id` of an object field `<x>` (`assigned_to_id` → `assigned_to.id`),
 * and the scalar members of an object field (`title` → `title.rendered`, `title.raw`). Judged on `sample`.
 */
export function resolveField(name: string, sample: Entity[]): string[] {
  const out: string[] = [];
  const add = (f: string) => {
    if (!out.includes(f)) out.push(f);
  };
  const keys = new Set<string>();
  for (const e of sample) for (const k of Object.keys(e)) keys.add(k);
  const has = (f: string) => sample.some((e) => fieldValue(e, f) !== undefined);
  if (keys.has(name)) {
    const values = sample.map((e) => e[name]).filter((v) => v !== undefined);
    if (values.some((v) => !isObj(v))) add(name);
    for (const o of values.filter(isObj).slice(0, 5))
      for (const [k, v] of Object.entries(o)) if (isScalar(v)) add(`${name}.${k}`);
  }
  for (const k of [...keys].sort()) if (k !== name && snake(k) === snake(name)) add(k);
  const idOf = /^(.+?)(?:_id|Id|ID)$/.exec(name);
  if (idOf) {
    for (const k of [...keys].sort())
      if ((k === idOf[1] || snake(k) === snake(idOf[1]!)) && has(`${k}.id`)) add(`${k}.id`);
  }
  return out;
}

/** The operators a query can apply to a field. */
export const QUERY_OPS = [
  "eq",
  "ne",
  "gt",
  "gte",
  "lt",
  "lte",
  "in",
  "nin",
  "like",
  "ilike",
  "contains",
  "icontains",
  "starts",
  "ends",
  "between",
  "null",
] as const;
export type QueryOp = (typeof QUERY_OPS)[number];

/**
 * How operators are spelled across query languages (LoopBack `gt`/`inq`/`neq`, Mongo-style `$gt`, Directus-style
 * `_gt`, Django-style `icontains`): a token in a confirmed `{op}` slot means the operator its spelling names, once
 * a token of the same style (prefix) was confirmed there.
 */
const OP_SPELLINGS: Record<string, QueryOp> = {
  eq: "eq",
  equals: "eq",
  ne: "ne",
  neq: "ne",
  not: "ne",
  gt: "gt",
  gte: "gte",
  ge: "gte",
  lt: "lt",
  lte: "lte",
  le: "lte",
  in: "in",
  inq: "in",
  nin: "nin",
  notin: "nin",
  like: "like",
  ilike: "ilike",
  contains: "contains",
  icontains: "icontains",
  containsi: "icontains",
  startswith: "starts",
  starts_with: "starts",
  endswith: "ends",
  ends_with: "ends",
  between: "between",
  null: "null",
  isnull: "null",
};

/** Separators between a field and an operator token in one name (`views__gte`, `views_gte`), tried in turn. */
export const FIELD_OP_SEPARATORS = ["__", "_"];

/** A name split into a field name and an operator token at the last `sep` (`views_gte` → views, gte), or null. */
export function splitFieldOp(name: string, sep: string): { name: string; token: string } | null {
  const at = name.lastIndexOf(sep);
  if (at <= 0 || at + sep.length >= name.length) return null;
  const token = name.slice(at + sep.length);
  const t = opToken(token);
  return t && t.prefix === "" ? { name: name.slice(0, at), token } : null;
}

/**
 * A value that spells its operator before `sep` (`gt.100`, `in.(1,3)`): the token and the operands (a list
 * operator's parenthesised list split at commas), or null.
 */
export function splitValueOp(
  value: string,
  sep: string,
): { token: string; op: QueryOp; values: string[] } | null {
  if (sep === "") return splitSymbolOp(value);
  const at = value.indexOf(sep);
  if (at <= 0) return null;
  const token = value.slice(0, at);
  const t = opToken(token);
  if (t?.prefix !== "") return null;
  const rest = value.slice(at + sep.length);
  if (t.op === "in" || t.op === "nin") {
    const m = /^\((.*)\)$/s.exec(rest);
    return m ? { token, op: t.op, values: m[1] === "" ? [] : m[1]!.split(",") } : null;
  }
  return { token, op: t.op, values: [rest] };
}

/**
 * Operators spelt as a symbol before the operand (`subject=~login`, `status_id=!5`, `due=>=2024-01-01`): the value
 * op separator `""`. Longest symbol first; `~` reads as a substring, case folded or not (the answers decide).
 */
export const SYMBOL_OPS: readonly [string, QueryOp][] = [
  [">=", "gte"],
  ["<=", "lte"],
  ["~", "contains"],
  ["!", "ne"],
  [">", "gt"],
  ["<", "lt"],
];

/** A value that begins with an operator symbol and holds an operand after it (see `SYMBOL_OPS`), or null. */
export function splitSymbolOp(value: string): { token: string; op: QueryOp; values: string[] } | null {
  for (const [token, op] of SYMBOL_OPS)
    if (value.startsWith(token) && value.length > token.length)
      return SYMBOL_OPS.some(([t]) => value.slice(token.length).startsWith(t))
        ? null
        : { token, op, values: [value.slice(token.length)] };
  return null;
}

/** The operator a token spells and its style prefix (`$gt` → gt, `$`), or null. */
export function opToken(token: string): { op: QueryOp; prefix: string } | null {
  const m = /^([$_]?)(.+)$/.exec(token);
  if (!m) return null;
  const op = OP_SPELLINGS[m[2]!.toLowerCase()];
  return op ? { op, prefix: m[1]! } : null;
}

function numeric(v: unknown): number | null {
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (typeof v === "string" && /^-?\d+(\.\d+)?$/.test(v.trim())) return Number(v);
  return null;
}

/** A scalar as the text a query would hold (`true`, `3`, `a b`); objects as JSON. */
export function queryText(v: unknown): string {
  if (typeof v === "string") return v;
  if (v === null || v === undefined) return String(v);
  return typeof v === "object" ? JSON.stringify(v) : String(v);
}

/** Orders two values: numbers (or numeric text) numerically, else by code point; missing values last. */
export function compareValues(a: unknown, b: unknown, caseless = false): number {
  if (a === b) return 0;
  if (a === undefined || a === null) return 1;
  if (b === undefined || b === null) return -1;
  const x = numeric(a);
  const y = numeric(b);
  if (x !== null && y !== null) return x - y;
  let sa = queryText(a);
  let sb = queryText(b);
  if (caseless) {
    sa = sa.toLowerCase();
    sb = sb.toLowerCase();
  }
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

function likeRegex(pattern: string, flags: string): RegExp {
  // `*` is the wildcard of patterns that use no `%` (`ilike.*ta*`, as a URL cannot hold `%` unescaped).
  const star = !pattern.includes("%");
  const body = [...pattern]
    .map((ch) =>
      ch === "%" || (star && ch === "*")
        ? ".*"
        : ch === "_"
          ? "."
          : ch.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
    )
    .join("");
  return new RegExp(`^${body}$`, flags);
}

function scalarMatches(actual: unknown, op: QueryOp, want: QueryScalar): boolean {
  switch (op) {
    case "eq":
    case "in":
      return !isObj(actual) && queryText(actual) === queryText(want);
    case "ne":
    case "nin":
      return queryText(actual) !== queryText(want);
    case "gt":
      return actual !== undefined && actual !== null && compareValues(actual, want) > 0;
    case "gte":
      return actual !== undefined && actual !== null && compareValues(actual, want) >= 0;
    case "lt":
      return actual !== undefined && actual !== null && compareValues(actual, want) < 0;
    case "lte":
      return actual !== undefined && actual !== null && compareValues(actual, want) <= 0;
    case "like":
      return typeof actual === "string" && likeRegex(queryText(want), "s").test(actual);
    case "ilike":
      return typeof actual === "string" && likeRegex(queryText(want), "is").test(actual);
    case "contains":
      return typeof actual === "string" && actual.includes(queryText(want));
    case "icontains":
      return typeof actual === "string" && actual.toLowerCase().includes(queryText(want).toLowerCase());
    case "starts":
      return typeof actual === "string" && actual.startsWith(queryText(want));
    case "ends":
      return typeof actual === "string" && actual.endsWith(queryText(want));
    case "null":
      return (actual === null || actual === undefined) === (queryText(want) === "true");
    case "between":
      return false;
  }
}

/**
 * Whether an entity's field value passes `op` against the query's values. Several values mean any of them
 * (`in`, a comma list), except for `ne`/`nin` (none of them) and `between` (two bounds). An array field passes
 * when any of its elements does (`categories: [2, 3]` passes `categories=2`).
 */
export function valuePasses(actual: unknown, op: QueryOp, values: QueryScalar[]): boolean {
  if (op === "between") {
    const [lo, hi] = values;
    if (lo === undefined || hi === undefined) return false;
    const test = (a: unknown) => compareValues(a, lo) >= 0 && compareValues(a, hi) <= 0;
    return Array.isArray(actual)
      ? actual.some(test)
      : actual !== undefined && actual !== null && test(actual);
  }
  const negative = op === "ne" || op === "nin";
  const one = (a: unknown) =>
    negative ? values.every((v) => scalarMatches(a, op, v)) : values.some((v) => scalarMatches(a, op, v));
  if (Array.isArray(actual)) return negative ? actual.every(one) : actual.some(one);
  return one(actual);
}

/** Every string-valued field of an entity, as dotted paths, two levels deep (`title.rendered`). */
export function textFields(e: Entity): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(e)) {
    if (typeof v === "string") out.push(k);
    else if (isObj(v))
      for (const [k2, v2] of Object.entries(v)) if (typeof v2 === "string") out.push(`${k}.${k2}`);
  }
  return out;
}

/** Whether a search term is found in any of the fields (substring; case folded unless `caseSensitive`). */
export function searchPasses(e: Entity, fields: string[], term: string, caseSensitive: boolean): boolean {
  const t = caseSensitive ? term : term.toLowerCase();
  return fields.some((f) => {
    const v = fieldValue(e, f);
    return typeof v === "string" && (caseSensitive ? v : v.toLowerCase()).includes(t);
  });
}

/** One key of a sort: a field and a direction. */
export interface SortTerm {
  field: string;
  direction: "asc" | "desc";
}

/** A stable sort of entities by the terms (ties keep their order). */
export function sortEntities(rows: Entity[], terms: SortTerm[], caseless = false): Entity[] {
  return rows
    .map((e, i) => [e, i] as const)
    .sort(([a, i], [b, j]) => {
      for (const t of terms) {
        const c = compareValues(fieldValue(a, t.field), fieldValue(b, t.field), caseless);
        if (c !== 0) return t.direction === "asc" ? c : -c;
      }
      return i - j;
    })
    .map(([e]) => e);
}

/** How a sort value is spelled: terms separated by `separator`, a direction by a `-` prefix or after `:`/space. */
export interface SortSyntax {
  separator: string | null;
  style: "minus" | "colon" | "space" | "bare" | "dot";
}

const DIRS: Record<string, "asc" | "desc"> = {
  asc: "asc",
  desc: "desc",
  ascending: "asc",
  descending: "desc",
};

/** Reads a sort value in a syntax: `[{name, direction}]` (direction null when the term gives none), or null. */
export function parseSort(
  value: QueryScalar | QueryScalar[],
  syntax: SortSyntax,
): { name: string; direction: "asc" | "desc" | null }[] | null {
  const values = Array.isArray(value) ? value : [value];
  if (values.length === 0 || values.some((v) => typeof v !== "string")) return null;
  const parts = (values as string[]).flatMap((v) => (syntax.separator ? v.split(syntax.separator) : [v]));
  const out: { name: string; direction: "asc" | "desc" | null }[] = [];
  for (const raw of parts) {
    const p = raw.trim();
    if (p === "") return null;
    if (syntax.style === "minus") {
      const desc = p.startsWith("-");
      const name = p.replace(/^[-+]/, "");
      if (name === "" || /[\s:]/.test(name)) return null;
      out.push({ name, direction: desc ? "desc" : p.startsWith("+") ? "asc" : null });
    } else if (syntax.style === "dot") {
      // `views.desc`; a last part that names no direction is part of the name (`title.rendered`).
      const at = p.lastIndexOf(".");
      const dir = at < 0 ? undefined : DIRS[p.slice(at + 1).toLowerCase()];
      const name = dir === undefined ? p : p.slice(0, at);
      if (name === "" || /[\s:]/.test(name) || name.startsWith("-")) return null;
      out.push({ name, direction: dir ?? null });
    } else if (syntax.style === "bare") {
      if (/[\s:]/.test(p) || p.startsWith("-")) return null;
      out.push({ name: p, direction: null });
    } else {
      const sep = syntax.style === "colon" ? ":" : " ";
      const at = p.lastIndexOf(sep);
      const name = at < 0 ? p : p.slice(0, at).trim();
      const dir =
        at < 0
          ? null
          : DIRS[
              p
                .slice(at + 1)
                .trim()
                .toLowerCase()
            ];
      if (name === "" || dir === undefined) return null;
      out.push({ name, direction: dir });
    }
  }
  return out;
}

/** The direction a value names (`asc`, `DESC`), or null. */
export function directionOf(value: QueryScalar | QueryScalar[]): "asc" | "desc" | null {
  return typeof value === "string" ? (DIRS[value.toLowerCase()] ?? null) : null;
}

/** A non-negative integer from a query value (`"2"` or 2), or null. */
export function countOf(value: QueryScalar | QueryScalar[]): number | null {
  if (typeof value === "number") return Number.isInteger(value) && value >= 0 ? value : null;
  if (typeof value === "string" && /^\d{1,9}$/.test(value)) return Number(value);
  return null;
}

/** The field names a projection value lists: `id,title`, `["id","title"]`. */
export function projectionNames(value: QueryScalar | QueryScalar[]): string[] | null {
  const parts = (Array.isArray(value) ? value : [value]).flatMap((v) =>
    typeof v === "string" ? v.split(",").map((s) => s.trim()) : [null],
  );
  return parts.length > 0 && parts.every((p): p is string => typeof p === "string" && p !== "")
    ? parts
    : null;
}

/** An entity cut down to the named top-level fields, in the entity's own key order. */
export function project(e: Entity, names: ReadonlySet<string>): Entity {
  const out: Entity = {};
  for (const [k, v] of Object.entries(e)) if (names.has(k)) out[k] = v;
  return out;
}

/** An entity without the named top-level fields, in its own key order (`fields[desc]=false`). */
export function omitFields(e: Entity, names: ReadonlySet<string>): Entity {
  const out: Entity = {};
  for (const [k, v] of Object.entries(e)) if (!names.has(k)) out[k] = v;
  return out;
}

/** A projection flag's truth: `true`/`"true"` keeps the named field, `false`/`"false"` leaves it out; else null. */
export function keyFlag(value: QueryScalar | QueryScalar[]): boolean | null {
  if (value === true || value === "true") return true;
  if (value === false || value === "false") return false;
  return null;
}
