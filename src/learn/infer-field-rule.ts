/**
 * Explains each field of a written entity by a rule that holds in every
 * confirmed observation: from the request (at any pointer), a path parameter,
 * an id sequence, a fresh UUID, the clock, the old value (or the old value
 * plus one, or the old text with a constant text before or after it), a string assembled from other values, a copy of another field, a
 * recorded redaction, or a constant. An object or a fixed-length array no one
 * rule explains is explained key by key (`title: {raw, rendered}`). A field no
 * rule explains makes the write withheld, naming its path.
 */
import type { Entity, FieldEntry, FieldRule } from "../model/model-schema.js";
import {
  pathOfPointer,
  pointerEntries,
  pointerOf,
  pointerOfPath,
  readPointer,
} from "../util/json-pointer.js";
import { DEFAULT_LAYOUT, formatDate, parseDate } from "../util/time-layout.js";
import { formatSources, matchFormat, related, reproduces } from "./format-rule.js";
import {
  isObject,
  isRedactionMarker,
  isUuid,
  looksRandom,
  readTime,
  type TimeValue,
  type TokenShape,
  tokenShape,
} from "./value-kinds.js";

/** What one observation offers to explain the fields of its entity. */
export interface FieldContext {
  /** The entity after the write: what the read-back shows, with what only the answer showed. */
  entity: Entity;
  request: Record<string, unknown> | null;
  /** Form bodies carry strings: compare loosely. */
  loose: boolean;
  pathParams: Record<string, string>;
  pre: Entity | null;
  time: number | null;
  /** The highest integer id the collection had shown before the write (its sequence so far). */
  maxIntBefore: number | null;
  /** For creates: the highest integer id among the collection's entities present before the write. */
  maxPresentBefore?: number | null;
  /** For creates: the highest integer id each other collection had shown before it. */
  otherMax?: ReadonlyMap<string, number> | null;
  /** The collection written (names a sequence it shares with another). */
  collection?: string;
  /** For creates: the highest integer value of each field in the entity's scope before the write. */
  scopeMax: ReadonlyMap<string, number> | null;
  idSeenBefore: boolean;
  idField: string;
  create: boolean;
  /** Entities of other collections at the write, by `collection \u0000 id` (what a field may be looked up from). */
  refs?: ReadonlyMap<string, Entity>;
  /** What the read-back showed (null for deletes): a field it lacked and nothing read before is unknown before. */
  readBack?: Entity | null;
  /**
   * For creates: per top-level field every entity no write touched holds, the one empty value some of them hold (see
   * learn.ts `untouchedDefaults`): the app's default for a field a create's request may leave out.
   */
  defaults?: ReadonlyMap<string, unknown>;
  /**
   * For creates: per top-level field every entity the recording showed holds, that no create left out and `defaults`
   * does not decide, the value the documented rule gives it (learn.ts `unconfirmedDefaults`), served labelled
   * `default: unconfirmed`.
   */
  guesses?: ReadonlyMap<string, unknown>;
  /** The signed-in entities the recording shows (`GET /users/me`): their ids and the strings they hold. */
  session?: readonly { id: string | number; strings: ReadonlySet<string> }[];
  /** For creates into a nested collection: the scope written (the parent path parameter's value). */
  scope?: string | null;
  /** The field of a nested collection's entities holding their parent's id (`parent.field`), if any. */
  parentField?: string;
  /** The collection's reference tables (reference-tables.ts): what the entities a field lists by a key hold. */
  tables?: ReadonlyMap<string, Record<string, unknown>>;
}

/** The rule of a field, or why none holds (and, for a nested field, its path: `guid.raw`). */
export type FieldVerdict =
  | { ok: true; rule: FieldRule }
  | {
      ok: false;
      reason: "unexplained_field" | "untimed_capture" | "conflicting_observations";
      /** What the twin lacks when no recording can close the gap (see `UnclosableGap`). */
      gap?: UnclosableGap;
      /** The display path of the field no rule explains, when it is inside an object (`content.rendered`). */
      path?: string;
      /**
       * Two rules fit and no recording yet tells them apart: a counter or a constant (the only observation), an id
       * fixed per scope or one the app assigns (every create wrote to one scope).
       */
      ambiguous?: "counter_or_constant" | "scoped_constant_id";
    };

/**
 * A field no rule can ever explain, however much is recorded: a counter within its scope (highest + 1),
 * a random token the app generates, or a string id the app assigns.
 */
export type UnclosableGap =
  | { kind: "counter" }
  | { kind: "reference_list"; pointer: string; key: string }
  | { kind: "token"; token: TokenShape; answerOnly: boolean }
  | { kind: "string_id" };

type Cands = Map<string, FieldRule>;
type Path = readonly string[];

const json = (v: unknown) => JSON.stringify(v);
const same = (a: unknown, b: unknown, loose: boolean) =>
  loose && (typeof a !== "object" || a === null) ? String(a) === String(b) : json(a) === json(b);
/** How deep objects are explained key by key. */
const MAX_DEPTH = 6;
/** The longest array explained item by item. */
const MAX_ITEMS = 20;

const ID_KEY = /^(id|uuid|_id)$|_id$|[a-z]Id$/;

/** The value at `path` in `v`, or undefined. */
function at(v: unknown, path: Path): unknown {
  return readPointer(v, pointerOfPath(path));
}

/** True when `path` exists in `v`. */
function has(v: unknown, path: Path): boolean {
  return path.length === 0 || at(v, path) !== undefined;
}

/** Per observation, what its request offers, by value: pointer lists keyed by JSON (and by text for forms). */
const requestIndex = new WeakMap<FieldContext, Map<string, string[]>>();
function requestPointers(ctx: FieldContext): Map<string, string[]> {
  let index = requestIndex.get(ctx);
  if (index) return index;
  index = new Map();
  if (ctx.request) {
    const walk = (v: unknown, path: string[], depth: number) => {
      if (path.length > 0) {
        const key = ctx.loose && (typeof v !== "object" || v === null) ? `s:${String(v)}` : json(v);
        const list = index!.get(key) ?? [];
        list.push(pointerOfPath(path));
        index!.set(key, list);
      }
      if (depth >= MAX_DEPTH || v === null || typeof v !== "object") return;
      const entries = Array.isArray(v) ? v.map((x, i) => [String(i), x] as const) : Object.entries(v);
      for (const [k, x] of entries) walk(x, [...path, k], depth + 1);
    };
    walk(ctx.request, [], 0);
  }
  requestIndex.set(ctx, index);
  return index;
}

/**
 * Per observation, the entity's scalar leaves by value (JSON) → pointers, and each pointer's place in document
 * order: what a field may be a copy of (only of one before it, so copies never go round in a circle).
 */
interface EntityIndex {
  byValue: Map<string, string[]>;
  order: Map<string, number>;
  leaves: [string, string | number][];
}
const entityIndex = new WeakMap<FieldContext, EntityIndex>();
function entityPointers(ctx: FieldContext): EntityIndex {
  const cached = entityIndex.get(ctx);
  if (cached) return cached;
  const index = new Map<string, string[]>();
  const order = new Map<string, number>();
  const leaves: [string, string | number][] = [];
  const walk = (v: unknown, path: string[], depth: number) => {
    if (typeof v === "string" || typeof v === "number") {
      const pointer = pointerOfPath(path);
      const list = index.get(json(v)) ?? [];
      list.push(pointer);
      index.set(json(v), list);
      order.set(pointer, order.size);
      leaves.push([pointer, v]);
      return;
    }
    if (depth >= MAX_DEPTH || v === null || typeof v !== "object") return;
    const entries = Array.isArray(v) ? v.map((x, i) => [String(i), x] as const) : Object.entries(v);
    for (const [k, x] of entries) walk(x, [...path, k], depth + 1);
  };
  walk(ctx.entity, [], 0);
  const result = { byValue: index, order, leaves };
  entityIndex.set(ctx, result);
  return result;
}

/** Every rule that explains the field at `path` in one observation, keyed by a signature; `untimed` when a time changed without request times. */
export function candidates(
  path: Path | string,
  ctx: FieldContext,
  windowMs: number,
): { cands: Cands; untimed: boolean; counter: boolean; proofs: Set<string> } {
  const p: Path = typeof path === "string" ? [path] : path;
  const f = p[p.length - 1]!;
  const top = p.length === 1;
  const self = pointerOfPath(p);
  const v = at(ctx.entity, p);
  const preHas = ctx.pre !== null && has(ctx.pre, p);
  const preV = preHas ? at(ctx.pre, p) : undefined;
  const cands: Cands = new Map();
  /** Signatures this observation proves, for hypotheses others merely fit (a shared sequence). */
  const proofs = new Set<string>();
  let untimed = false;
  // A created value that is the scope's highest + 1 is a counter (a card's position), never a constant.
  const before = top && ctx.create && f !== ctx.idField ? ctx.scopeMax?.get(f) : undefined;
  const counter = before !== undefined && v === before + 1;
  const add = (rule: FieldRule) => {
    const sig =
      rule.kind === "constant"
        ? `constant:${json(rule.value)}`
        : rule.kind === "id_sequence"
          ? `id_sequence:${rule.sequence ?? ""}:${rule.after ?? ""}`
          : json(rule);
    if (!cands.has(sig)) cands.set(sig, rule);
  };
  if (ctx.request) {
    const key = ctx.loose && (typeof v !== "object" || v === null) ? `s:${String(v)}` : json(v);
    // The request key of the field's own name first, then shallower pointers.
    const pointers = [...(requestPointers(ctx).get(key) ?? [])].sort(
      (a, b) =>
        Number(pathOfPointer(b).at(-1) === f) - Number(pathOfPointer(a).at(-1) === f) ||
        pathOfPointer(a).length - pathOfPointer(b).length,
    );
    // A created id from the request is a client-chosen id only under the id's own name (not a coincidence: `post`).
    const newIdField = top && ctx.create && f === ctx.idField;
    for (const pointer of pointers)
      if (!newIdField || pathOfPointer(pointer).at(-1) === f)
        add({ kind: "from_request", pointer, otherwise: { kind: "omit" } });
  }
  // An integer that is the size of a request value (a saved text's byte length): tried only where values vary
  // (its rank is after a constant's), so a count equal to some string's length by chance stays a constant.
  if (ctx.request && Number.isInteger(v) && (v as number) > 0)
    for (const [key, pointers] of requestPointers(ctx)) {
      const value = JSON.parse(key.startsWith("s:") ? JSON.stringify(key.slice(2)) : key) as unknown;
      if (sizeOf(value) === v)
        for (const pointer of pointers) add({ kind: "length", pointer, otherwise: { kind: "omit" } });
    }
  if (!ctx.create && preHas && same(preV, v, false)) add({ kind: "keep" });
  // A field only the answer shows, of an entity nothing showed it for before: its old value is unknown, so what
  // depends on it (kept, or the old value + 1) cannot be refuted here.
  const unknownBefore =
    !ctx.create && !preHas && ctx.readBack !== undefined && ctx.readBack !== null && !has(ctx.readBack, p);
  if (unknownBefore) {
    add({ kind: "keep" });
    if (typeof v === "number") add({ kind: "increment", step: 1 });
  }
  // A created id is never the path's parameter: on a create's path that names its parent (`/projects/3/memberships`),
  // unless the id field is the one naming the parent.
  const newOwnId = top && ctx.create && f === ctx.idField && f !== ctx.parentField;
  if ((typeof v === "string" || typeof v === "number") && !newOwnId)
    for (const [name, pv] of Object.entries(ctx.pathParams))
      if (String(v) === pv)
        add({ kind: "path_param", name, ...(typeof v === "number" ? { integer: true as const } : {}) });
  if (
    top &&
    ctx.create &&
    f === ctx.idField &&
    Number.isInteger(v) &&
    (ctx.maxIntBefore === null || (v as number) > ctx.maxIntBefore)
  ) {
    // One sequence shared with another collection (terms of two taxonomies): the id follows the highest of both.
    // It is proven by a create whose id is the other's highest + 1 and beyond its own's; others only fit it.
    const own = ctx.maxIntBefore ?? 0;
    for (const [other, max] of [...(ctx.otherMax ?? [])].sort(([a], [b]) => (a < b ? -1 : 1)))
      if (v === Math.max(max, own) + 1 && ctx.collection !== undefined) {
        const [sequence] = [other, ctx.collection].sort();
        add({ kind: "id_sequence", start: v, step: 1, sequence });
        if (max > own) proofs.add(`id_sequence:${sequence}:`);
      }
    add({ kind: "id_sequence", start: (ctx.maxIntBefore ?? 0) + 1, step: 1 });
  }
  // The highest present + 1, 1 of none: what an app reusing a freed id gives (it fits every create that freed none,
  // too: a first create of 1 into an empty collection).
  const present = ctx.maxPresentBefore ?? null;
  if (top && ctx.create && f === ctx.idField && Number.isInteger(v) && v === (present ?? 0) + 1)
    add({ kind: "id_sequence", start: 1, step: 1, after: "present" });
  // An update that gives a nested id-named field the collection's next id draws it from the same sequence (a revision).
  if (
    !ctx.create &&
    !top &&
    ID_KEY.test(f) &&
    Number.isInteger(v) &&
    ctx.maxIntBefore !== null &&
    v === ctx.maxIntBefore + 1 &&
    preV !== v
  )
    add({ kind: "id_sequence", start: v as number, step: 1 });
  if (isUuid(v) && !(top && f === ctx.idField && ctx.idSeenBefore) && (ctx.create || preV !== v))
    add({ kind: "uuid" });
  const time = readTime(v);
  if (time) {
    const changed = ctx.create || !preHas || !same(preV, v, false);
    if (ctx.time === null) untimed ||= changed;
    else {
      const rule = clockRule(time, ctx.time, windowMs);
      if (rule) add(rule);
    }
  }
  const today = ctx.time === null ? null : dateClock(v, ctx.time, windowMs);
  if (today) add(today);
  if (!ctx.create && typeof v === "number" && typeof preV === "number" && v === preV + 1)
    add({ kind: "increment", step: 1 });
  // A text built from the field's own earlier value by a text put after or before it (a trashed slug `contact` →
  // `contact__trashed`): the affix is the rule, so only one every observation shares holds.
  // Never where the request sent the field itself: the app wrote what it was sent (escaped, trimmed), no affix
  // (the review's category PATCH sent "Events & meetups" and read back "Events &amp; meetups").
  const sentItself = ctx.request !== null && readPointer(ctx.request, self) !== undefined;
  if (
    !ctx.create &&
    !sentItself &&
    typeof v === "string" &&
    typeof preV === "string" &&
    preV !== "" &&
    v !== preV
  ) {
    if (v.startsWith(preV)) add({ kind: "affix", prefix: "", suffix: v.slice(preV.length) });
    if (v.endsWith(preV)) add({ kind: "affix", prefix: v.slice(0, v.length - preV.length), suffix: "" });
  }
  if (isRedactionMarker(v)) add({ kind: "redacted", marker: v });
  if ((typeof v === "string" || typeof v === "number") && !isRedactionMarker(v))
    for (const rule of lookups(ctx, self, v)) add(rule);
  // A flag of the entity a reference object names (`status: {id, is_closed}`), never one found elsewhere by chance.
  if (typeof v === "boolean") for (const rule of lookups(ctx, self, v, true)) add(rule);
  if (top && Array.isArray(v) && v.every(isObject)) for (const rule of eachRules(ctx, f, v)) add(rule);
  if (typeof v === "string" && !isRedactionMarker(v)) {
    const parts = matchFormat(v, formatSources(ctx, self));
    if (parts) add({ kind: "format", parts, otherwise: { kind: "omit" } });
  }
  if (typeof v === "string" || (typeof v === "number" && !(top && f === ctx.idField))) {
    const { byValue, order } = entityPointers(ctx);
    const mine = order.get(self) ?? Number.POSITIVE_INFINITY;
    for (const q of byValue.get(json(v)) ?? []) {
      if (related(q, self) || (order.get(q) ?? 0) >= mine) continue;
      const tokens = pathOfPointer(q);
      add(
        tokens.length === 1
          ? { kind: "copy", from: tokens[0]! }
          : { kind: "copy", from: tokens[0]!, pointer: q },
      );
    }
  }
  // A created id is never a constant: every later create would collide with it.
  const newId = top && ctx.create && f === ctx.idField;
  // A counter (highest + 1) is told from a constant in inferAt, over every observation.
  // Nor a text the request sent as another text (stored escaped, trimmed, normalised): one observation of it says
  // what the app made of that text, never what it makes of the next one (an empty answer is a text ignored: kept).
  const sentText = sentItself ? readPointer(ctx.request, self) : undefined;
  const rewritten = typeof sentText === "string" && typeof v === "string" && v !== "" && sentText !== v;
  if (!isRedactionMarker(v) && !looksRandom(v) && !((time || today) && ctx.create) && !newId && !rewritten)
    add({ kind: "constant", value: v });
  return { cands, untimed, counter, proofs };
}

/**
 * The entity leaves of one observation that hold the id of another collection's entity, with that entity: the
 * keys a lookup may follow, the written entity's own siblings of `self` first, then keys named like the collection.
 */
export function referenced(ctx: FieldContext, self: string): [string, string, Entity][] {
  if (!ctx.refs || ctx.refs.size === 0) return [];
  const parent = self.slice(0, self.lastIndexOf("/"));
  const out: [number, string, string, Entity][] = [];
  for (const [key, value] of entityPointers(ctx).leaves) {
    if (related(key, self) || key === pointerOf(ctx.idField)) continue;
    // A reference object's own id (`priority: {id, name}`) names its entity even when the app chose it (a default);
    // elsewhere only a value the client chose (the request sent it, or an update kept it) is a reference.
    const sibling = parent !== "" && key.slice(0, key.lastIndexOf("/")) === parent;
    if (!sibling && !chosen(ctx, key, value)) continue;
    for (const [ref, e] of ctx.refs) {
      const [collection, id] = ref.split("\u0000") as [string, string];
      if (id !== String(value)) continue;
      // Only a reference object's id (`project: {id, name}`) or a key named for the collection (`post`, `categories`):
      // any other number that happens to be some entity's id is a coincidence.
      const tokens = pathOfPointer(key).filter((t) => !/^\d+$/.test(t));
      const named = tokens.some((t) => collection.startsWith(t) || t.startsWith(singularOf(collection)));
      if (sibling || named) out.push([sibling ? 0 : 1, key, collection, e]);
    }
  }
  return out.sort((a, b) => a[0] - b[0]).map(([, key, collection, e]) => [key, collection, e]);
}

/** True when the entity's value at `key` is one the client chose: the request sent it, or an update kept it. */
function chosen(ctx: FieldContext, key: string, value: string | number): boolean {
  const sent = requestPointers(ctx).get(json(value)) ?? requestPointers(ctx).get(`s:${String(value)}`);
  if (sent && sent.length > 0) return true;
  return !ctx.create && ctx.pre !== null && json(readPointer(ctx.pre, key)) === json(value);
}

function singularOf(name: string): string {
  return name.replace(/ies$/, "y").replace(/s$/, "");
}

/** The lookups giving `v`: a value of an entity another collection holds under an id the written entity holds. */
function lookups(
  ctx: FieldContext,
  self: string,
  v: string | number | boolean,
  siblingsOnly = false,
): FieldRule[] {
  const out: FieldRule[] = [];
  for (const [key, collection, e] of referenced(ctx, self)) {
    if (siblingsOnly && !siblingKey(key, self)) continue;
    const idValue = readPointer(ctx.entity, key);
    for (const [pointer, x] of pointerEntries(e))
      if (
        (typeof x === "string" || typeof x === "number" || typeof x === "boolean") &&
        json(x) === json(v) &&
        json(x) !== json(idValue)
      )
        out.push({ kind: "lookup", collection, key, pointer });
  }
  return out;
}

/**
 * The request pointer and key naming a list of objects in every observation that holds it (a request array of
 * scalars, in order the values of one key of its objects: `role_ids` for `roles`), or null. Such a list follows the
 * request's array: an item-by-item rule of one length would answer another request wrongly.
 */
function namingArray(path: Path, contexts: FieldContext[]): { pointer: string; key: string } | null {
  let found: { pointer: string; key: string }[] | null = null;
  for (const ctx of contexts) {
    const v = at(ctx.entity, path);
    if (v === undefined) continue;
    if (!Array.isArray(v) || v.length === 0 || !v.every(isObject) || !ctx.request) return null;
    const here: { pointer: string; key: string }[] = [];
    for (const [text, pointers] of requestPointers(ctx)) {
      if (text.startsWith("s:")) continue;
      const sent = JSON.parse(text) as unknown;
      if (!Array.isArray(sent) || sent.length !== v.length) continue;
      for (const k of Object.keys(v[0] as object))
        if (v.every((o, i) => ["string", "number"].includes(typeof o[k]) && String(o[k]) === String(sent[i])))
          for (const pointer of pointers) here.push({ pointer, key: k });
    }
    found =
      found === null
        ? here
        : found.filter((a) => here.some((b) => a.pointer === b.pointer && a.key === b.key));
    if (found.length === 0) return null;
  }
  return found?.[0] ?? null;
}

/**
 * The `each` rules giving a list of objects: a request array of scalars, in order the values of one key of its
 * objects, whose entities the collection's reference table of that field and key holds (`roles` from `role_ids`).
 */
function eachRules(ctx: FieldContext, f: string, v: Record<string, unknown>[]): FieldRule[] {
  if (!ctx.request || !ctx.tables || ctx.tables.size === 0) return [];
  const out: FieldRule[] = [];
  for (const [key, pointers] of requestPointers(ctx)) {
    if (key.startsWith("s:")) continue;
    const sent = JSON.parse(key) as unknown;
    if (!Array.isArray(sent) || sent.length !== v.length) continue;
    if (!sent.every((x) => typeof x === "string" || typeof x === "number")) continue;
    for (const [tk, table] of ctx.tables) {
      const [field, k] = tk.split("\u0000") as [string, string];
      if (field !== f || !v.every((o, i) => String(o[k]) === String(sent[i]))) continue;
      for (const pointer of pointers)
        out.push({ kind: "each", pointer, key: k, table, otherwise: { kind: "omit" } });
    }
  }
  return out;
}

/** Whole quarter hours, up to ±14 h: the offsets a local time can be at. */
const QUARTER_HOUR = 15 * 60_000;
const MAX_OFFSET = 14 * 60 * 60_000;

/**
 * The clock rule a time stamped `requestTime` fits within `windowMs`, in the layout it was written: an ISO time
 * with a zone as that instant (and the offset it states); one without a zone (`2026-12-01T08:09:08`, the app's
 * local time) at the whole quarter-hour offset that brings it within the window, which every observation must
 * share (the offset is part of the rule).
 */
export function clockRule(time: TimeValue, requestTime: number, windowMs: number): FieldRule | null {
  if (time.format !== "iso")
    return Math.abs(time.ms - requestTime) <= windowMs ? { kind: "clock", format: time.format } : null;
  const local = time.offsetMin === null;
  const offset = local ? Math.round((time.ms - requestTime) / QUARTER_HOUR) * QUARTER_HOUR : 0;
  if (Math.abs(offset) > MAX_OFFSET || Math.abs(time.ms - offset - requestTime) > windowMs) return null;
  const offsetMin = local ? offset / 60_000 : time.offsetMin!;
  return {
    kind: "clock",
    format: "iso",
    ...(time.layout === DEFAULT_LAYOUT ? {} : { layout: time.layout! }),
    ...(offsetMin === 0 ? {} : { offset_min: offsetMin }),
  };
}

/** A calendar date (`2026-12-01`) that is the day of the request, UTC, within the window: the clock's date. */
function dateClock(v: unknown, requestTime: number, windowMs: number): FieldRule | null {
  if (typeof v !== "string" || parseDate(v) === null) return null;
  const days = new Set(
    [requestTime - windowMs, requestTime, requestTime + windowMs].map((t) => formatDate(t)),
  );
  return days.has(v) ? { kind: "clock", format: "date" } : null;
}

const PRIORITY = [
  "from_request",
  "path_param",
  "id_sequence",
  "uuid",
  "clock",
  "increment",
  "redacted",
  "keep",
  "lookup",
  // The entities a request array names (`roles` from `role_ids`): the client may name others, so before a constant.
  "each",
  "format",
  // The old value with an affix: after a format, which explains the text from what the write sent or the entity's
  // other values (a slug of a sent title ending in the old slug's words); before the one value it gave (a constant
  // would give every entity this one's).
  "affix",
  // A value equal to a constant is that constant: a copy is proven only where the source varied and it followed.
  "constant",
  "length",
  "copy",
];

/** The size of a value as a `length` rule reads it: a string's UTF-8 byte length, an array's count; else null. */
export function sizeOf(value: unknown): number | null {
  if (typeof value === "string") return new TextEncoder().encode(value).length;
  return Array.isArray(value) ? value.length : null;
}

/** True when a lookup's key is a sibling of the field it explains (`project/id` for `project/name`). */
function siblingKey(key: string, self: string): boolean {
  const parent = self.slice(0, self.lastIndexOf("/"));
  return parent !== "" && key.slice(0, key.lastIndexOf("/")) === parent;
}

/**
 * True when a request pointer is named for the field it fills: the same key (`subject` for `subject`), or a
 * reference object's id sent as `<object>_id` / `<object>Id` (`tracker_id` for `tracker.id`).
 */
export function namedFor(pointer: string, path: Path): boolean {
  const token = pathOfPointer(pointer)
    .filter((t) => !/^\d+$/.test(t))
    .at(-1);
  const f = path[path.length - 1];
  if (token === undefined || f === undefined) return false;
  if (token === f) return true;
  const parent = path.length > 1 ? path[path.length - 2] : undefined;
  return f === "id" && parent !== undefined && (token === `${parent}_id` || token === `${parent}Id`);
}

/**
 * True when a lookup reads the collection its key's object is named for (`/project/id` in `projects`): of two
 * collections holding an entity of that id (an issue 1 beside the project 1), the one the reference names.
 */
function namedLookup(rule: Extract<FieldRule, { kind: "lookup" }>): boolean {
  const token = pathOfPointer(rule.key)
    .slice(0, -1)
    .filter((t) => !/^\d+$/.test(t))
    .at(-1);
  return token !== undefined && (rule.collection === token || singularOf(rule.collection) === token);
}

/**
 * True when a request copy is no more proven than a constant: its value never varied across the requests that sent
 * it, its key is not named for the field, and the value is one a coincidence gives easily (a number, a boolean, a
 * string of no letters) — `status.id: 1` following a `project_id` of 1 in every create.
 */
function unprovenCopy(rule: FieldRule, path: Path, contexts: FieldContext[]): boolean {
  if (rule.kind !== "from_request" || namedFor(rule.pointer, path)) return false;
  const sent = contexts.flatMap((c) => {
    const v = c.request ? readPointer(c.request, rule.pointer) : undefined;
    return v === undefined ? [] : [json(v)];
  });
  if (new Set(sent).size > 1) return false;
  const v = sent[0] === undefined ? undefined : JSON.parse(sent[0]);
  return typeof v !== "string" || !/\p{L}/u.test(v);
}

function rank(rule: FieldRule, create: boolean, self: string, weak = false): number {
  if (!create && rule.kind === "keep") return 0.5;
  if (rule.kind === "from_request" && weak) return PRIORITY.indexOf("copy");
  // A reference object's other keys follow the entity it names (`project: {id, name}`); elsewhere a looked-up value
  // equal to a constant is that constant, as for a copy.
  if (rule.kind === "lookup")
    return siblingKey(rule.key, self) ? PRIORITY.indexOf("lookup") : PRIORITY.indexOf("copy");
  // A shared sequence every create confirmed beats the collection's own (which only says the ids grow).
  if (rule.kind === "id_sequence" && rule.sequence !== undefined)
    return PRIORITY.indexOf("id_sequence") - 0.1;
  // Reuse of a freed id only where a create showed it: where both fit, the id never given twice.
  if (rule.kind === "id_sequence" && rule.after === "present") return PRIORITY.indexOf("id_sequence") + 0.1;
  return PRIORITY.indexOf(rule.kind);
}

/** The request pointers a rule reads: when a request lacks one, the rule's `otherwise` applies. */
function requestInputs(rule: FieldRule): string[] {
  if (rule.kind === "from_request" || rule.kind === "length" || rule.kind === "each") return [rule.pointer];
  if (rule.kind === "format") return rule.parts.flatMap((p) => ("request" in p ? [p.request] : []));
  return [];
}

/** Combines the per-observation candidates of field `f` into one rule that holds everywhere, or a reason. */
export function inferFieldRule(f: string, contexts: FieldContext[], windowMs: number): FieldVerdict {
  return inferAt([f], contexts, windowMs);
}

/** True when a rule builds nothing but constants (an object of constants is one constant). */
function allConstant(rule: FieldRule): boolean {
  if (rule.kind === "constant") return true;
  if (rule.kind === "object") return rule.fields.every((f) => allConstant(f.rule));
  if (rule.kind === "array") return rule.items.every(allConstant);
  return false;
}

/** Gives each observation the formats another one parsed that reproduce its value too (see `reproduces`). */
function shareFormats(path: Path, contexts: FieldContext[], per: ({ cands: Cands } | null)[]): void {
  const formats = new Map<string, Extract<FieldRule, { kind: "format" }>>();
  for (const p of per)
    if (p) for (const [sig, r] of p.cands) if (r.kind === "format" && !formats.has(sig)) formats.set(sig, r);
  if (formats.size === 0) return;
  const self = pointerOfPath(path);
  contexts.forEach((ctx, i) => {
    const p = per[i];
    const v = at(ctx.entity, path);
    if (!p || typeof v !== "string") return;
    const sources = formatSources(ctx, self);
    for (const [sig, r] of formats)
      if (!p.cands.has(sig) && reproduces(r.parts, v, sources)) p.cands.set(sig, r);
  });
}

/**
 * A random-looking value (a UUID, a token) that every observation, two or more, gave alike is no fresh draw (two
 * draws are never equal) but a constant: the signed-in user's id in every `user_created`. Never a created id (every
 * later create would collide), never a redaction marker; a value that differs once stays a draw.
 */
function repeatedToken(path: Path, contexts: FieldContext[], values: unknown[], valid: FieldRule[]): void {
  if (values.length < 2 || !looksRandom(values[0]) || isRedactionMarker(values[0])) return;
  if (new Set(values.map(json)).size !== 1) return;
  const ctx = contexts[0]!;
  if (path.length === 1 && ctx.create && path[0] === ctx.idField) return;
  for (let i = valid.length - 1; i >= 0; i--) if (valid[i]!.kind === "uuid") valid.splice(i, 1);
  if (!valid.some((r) => r.kind === "constant")) valid.push({ kind: "constant", value: values[0] });
}

function inferAt(path: Path, contexts: FieldContext[], windowMs: number): FieldVerdict {
  const present = contexts.map((ctx) => has(ctx.entity, path));
  // An update of an entity that lacked the field before and after it kept it (absent): an entity a write by query
  // or a batch selected among others that hold it (LoopBack's todo without a `desc`).
  const keptAbsent = (ctx: FieldContext) => !ctx.create && ctx.pre !== null && !has(ctx.pre, path);
  const per = contexts.map((ctx, i) =>
    present[i]
      ? candidates(path, ctx, windowMs)
      : keptAbsent(ctx)
        ? {
            cands: new Map([[json({ kind: "keep" }), { kind: "keep" } as FieldRule]]),
            untimed: false,
            counter: false,
            proofs: new Set<string>(),
          }
        : null,
  );
  shareFormats(path, contexts, per);
  const create = contexts[0]?.create ?? true;
  const valid: FieldRule[] = [];
  const sigs = new Map<string, FieldRule>();
  for (const p of per) if (p) for (const [s, r] of p.cands) if (!sigs.has(s)) sigs.set(s, r);
  for (const [sig, rule] of sigs) {
    const inputs = requestInputs(rule);
    if (inputs.length === 0) {
      const needsProof = rule.kind === "id_sequence" && rule.sequence !== undefined;
      if (per.every((p) => p?.cands.has(sig)) && (!needsProof || per.some((p) => p?.proofs.has(sig))))
        valid.push(rule);
      continue;
    }
    const absent: ({ cands: Cands } | null)[] = [];
    let sent = 0;
    let holds = true;
    contexts.forEach((ctx, i) => {
      if (!ctx.request || inputs.some((q) => readPointer(ctx.request, q) === undefined))
        absent.push(per[i] ?? null);
      else if (per[i]?.cands.has(sig)) sent++;
      else holds = false;
    });
    if (!holds || sent === 0) continue;
    const shown = path.length === 1 && create ? contexts[0]?.defaults : undefined;
    const guessed = path.length === 1 && create ? contexts[0]?.guesses : undefined;
    // Every create sent it: when a request leaves it out, the value every untouched entity holds, not none; where
    // they show none, the documented rule's value, labelled unconfirmed (every entity held the field: never drop it).
    const otherwise: Otherwise | null =
      absent.length === 0 && shown?.has(path[0]!)
        ? { kind: "constant", value: shown.get(path[0]!) }
        : absent.length === 0 && guessed?.has(path[0]!)
          ? { kind: "constant", value: guessed.get(path[0]!), default: "unconfirmed" }
          : fallback(absent, create);
    if (otherwise) valid.push({ ...rule, otherwise } as FieldRule);
  }
  // Highest + 1 in every create is a counter, or, seen once, a counter or a constant: never that constant.
  const counted = per.filter(Boolean);
  const counter = counted.length > 0 && counted.every((p) => p!.counter);
  if (counter) {
    // Nor is it a copy of a value that merely equals it: a copy or a lookup (other than a reference object's own
    // keys) is proven only where its source varied and the field followed, never by values that were all alike.
    const seen = new Set(contexts.flatMap((c, i) => (present[i] ? [json(at(c.entity, path))] : [])));
    const unproven = (r: FieldRule) =>
      seen.size <= 1 &&
      (r.kind === "copy" || (r.kind === "lookup" && !siblingKey(r.key, pointerOfPath(path))));
    // Unless it is the signed-in entity's id, in a create that wrote that entity's strings too (`author_name`): the
    // twin's one session gives it every time.
    const signedIn = contexts.every((c, i) => !present[i] || sessionHeld(c, at(c.entity, path)));
    for (let i = valid.length - 1; i >= 0; i--)
      if ((valid[i]!.kind === "constant" && !signedIn) || unproven(valid[i]!)) valid.splice(i, 1);
  }
  const values = contexts.flatMap((c, i) => (present[i] ? [at(c.entity, path)] : []));
  repeatedToken(path, contexts, values, valid);
  const nested = path.length < MAX_DEPTH && present.every(Boolean) && structured(values);
  // A list the request's array names (`roles` by `role_ids`), which no one table of its entities explains: never a
  // constant nor one length item by item, which would answer another request's array wrongly.
  const namer = nested && Array.isArray(values[0]) ? namingArray(path, contexts) : null;
  const naming: FieldVerdict | null = namer
    ? {
        ok: false,
        reason: "unexplained_field",
        gap: { kind: "reference_list", ...namer },
        ...(path.length > 1 ? { path: path.join(".") } : {}),
      }
    : null;
  if (naming)
    for (let i = valid.length - 1; i >= 0; i--) if (valid[i]!.kind === "constant") valid.splice(i, 1);
  if (valid.length > 0) {
    const self = pointerOfPath(path);
    const weak = new Set(valid.filter((r) => unprovenCopy(r, path, contexts)));
    const named = (r: FieldRule) =>
      (r.kind === "from_request" && namedFor(r.pointer, path)) || (r.kind === "lookup" && namedLookup(r))
        ? 0
        : 1;
    valid.sort(
      (a, b) =>
        rank(a, create, self, weak.has(a)) - rank(b, create, self, weak.has(b)) || named(a) - named(b),
    );
    // A value a draw gave an earlier field too is that field's copy: drawing again would give another value.
    const drawn = valid[0]!.kind === "uuid" || valid[0]!.kind === "id_sequence";
    const best = (drawn && valid.find((r) => r.kind === "copy")) || valid[0]!;
    // A constant object seen in one shape may hide values that follow the write (`_links` holding the new id).
    if (best.kind === "constant" && nested) {
      const s = inferStructure(path, contexts, values, windowMs);
      if (s.ok && !allConstant(s.rule)) return s;
    }
    // Both fit every create (none followed a delete of the highest): the evidence did not decide reuse; said so.
    const reuseFits = valid.some((r) => r.kind === "id_sequence" && r.after === "present");
    if (best.kind === "id_sequence" && best.after === undefined && reuseFits)
      return { ok: true, rule: { ...best, freed: "undecided" } };
    return { ok: true, rule: best };
  }
  if (naming) return naming;
  if (nested) {
    const s = inferStructure(path, contexts, values, windowMs);
    if (s.ok || s.path !== undefined) return s;
  }
  const sentOnly = create ? referenceWhenSent(path, contexts, present, values, windowMs) : null;
  if (sentOnly) return sentOnly;
  const display = path.length > 1 ? { path: path.join(".") } : {};
  if (per.some((p) => p?.untimed)) return { ok: false, reason: "untimed_capture", ...display };
  if (counter && counted.length === 1)
    return { ok: false, reason: "unexplained_field", ambiguous: "counter_or_constant", ...display };
  if (counter) return { ok: false, reason: "unexplained_field", gap: { kind: "counter" }, ...display };
  const fromRequest = per.some((p) => [...(p?.cands.values() ?? [])].some((r) => r.kind === "from_request"));
  const top = path.length === 1;
  if (
    top &&
    create &&
    path[0] === contexts[0]?.idField &&
    values.every((v) => typeof v === "string" && !isUuid(v))
  )
    return (
      scopedConstantId(contexts, values) ?? {
        ok: false,
        reason: "unexplained_field",
        gap: { kind: "string_id" },
      }
    );
  const token = fromRequest ? null : tokenShape(values);
  if (token)
    return {
      ok: false,
      reason: "unexplained_field",
      gap: { kind: "token", token, answerOnly: false },
      ...display,
    };
  const allExplained = per.every((p) => p !== null && p.cands.size > 0);
  return {
    ok: false,
    reason: allExplained && contexts.length > 1 ? "conflicting_observations" : "unexplained_field",
    ...display,
  };
}

/** The request pointers an object rule's leaves read, or null when a leaf is no request value nor looked up by one. */
function requestLeaves(rule: FieldRule, self: string): string[] | null {
  if (rule.kind === "from_request") return [rule.pointer];
  if (rule.kind === "lookup") return siblingKey(rule.key, self) ? [] : null;
  if (rule.kind !== "object") return null;
  const out: string[] = [];
  for (const f of rule.fields) {
    const leaves = requestLeaves(f.rule, `${self}/${f.field}`);
    if (leaves === null) return null;
    for (const p of leaves) if (!out.includes(p)) out.push(p);
  }
  return out;
}

/**
 * A created field some writes answer and others leave out, an object every part of which is a request value (or
 * looked up by one inside it): `issue: {id}` from `/time_entry/issue_id`. Explained key by key over the writes that
 * answered it, and confirmed by the others: every write answering it sent each of those request values, and every
 * write leaving it out sent none of them. The object is then left out when the request lacks one (`when_sent`).
 * Null otherwise (a part another rule gives, or a write that sent the value and got no object).
 */
function referenceWhenSent(
  path: Path,
  contexts: FieldContext[],
  present: boolean[],
  values: unknown[],
  windowMs: number,
): FieldVerdict | null {
  if (present.every(Boolean) || !present.some(Boolean) || !values.every(isObject)) return null;
  const answering = contexts.filter((_, i) => present[i]);
  const s = inferStructure(path, answering, values, windowMs);
  if (!s.ok || s.rule.kind !== "object") return null;
  const pointers = requestLeaves(s.rule, pointerOfPath(path));
  if (pointers === null || pointers.length === 0) return null;
  const sends = (ctx: FieldContext, p: string) =>
    ctx.request !== null && readPointer(ctx.request, p) !== undefined;
  const fits = contexts.every((ctx, i) =>
    present[i] ? pointers.every((p) => sends(ctx, p)) : pointers.every((p) => !sends(ctx, p)),
  );
  return fits ? { ok: true, rule: { ...s.rule, when_sent: pointers } } : null;
}

/**
 * A created string id that is one value in every create into a nested collection: an id fixed per scope (each
 * parent's one `checkpoint`) when the creates wrote to two or more scopes, so a constant that collides only within
 * a scope (the twin answers that as `id_taken`); with one scope, an app-assigned id fits as well (ambiguous, a
 * recording under another parent tells them apart). Null for other ids.
 */
function scopedConstantId(contexts: FieldContext[], values: unknown[]): FieldVerdict | null {
  if (values.length === 0 || contexts.some((c) => typeof c.scope !== "string")) return null;
  if (new Set(values).size !== 1) return null;
  if (new Set(contexts.map((c) => c.scope)).size >= 2)
    return { ok: true, rule: { kind: "constant", value: values[0] } };
  return { ok: false, reason: "unexplained_field", ambiguous: "scoped_constant_id" };
}

/** True when `v` is the id of a signed-in entity some other string of the written entity is a value of. */
function sessionHeld(ctx: FieldContext, v: unknown): boolean {
  if (typeof v !== "number" && typeof v !== "string") return false;
  const strings = entityPointers(ctx).leaves.flatMap(([, x]) => (typeof x === "string" ? [x] : []));
  return (ctx.session ?? []).some((s) => s.id === v && strings.some((x) => s.strings.has(x)));
}

/** True when every value is an object, or every value an array of one length (short enough to explain by item). */
function structured(values: unknown[]): boolean {
  if (values.length === 0) return false;
  if (values.every(isObject)) return true;
  const first = values[0];
  return (
    Array.isArray(first) &&
    first.length > 0 &&
    first.length <= MAX_ITEMS &&
    values.every((v) => Array.isArray(v) && v.length === first.length)
  );
}

/** An object rule (each key its own rule) or an array rule (each item its own rule), or the first part none explains. */
function inferStructure(
  path: Path,
  contexts: FieldContext[],
  values: unknown[],
  windowMs: number,
): FieldVerdict {
  if (Array.isArray(values[0])) {
    const items: FieldRule[] = [];
    for (let i = 0; i < (values[0] as unknown[]).length; i++) {
      const verdict = inferAt([...path, String(i)], contexts, windowMs);
      if (!verdict.ok) return { ...verdict, path: verdict.path ?? [...path, String(i)].join(".") };
      items.push(verdict.rule);
    }
    return { ok: true, rule: { kind: "array", items } };
  }
  const keys: string[] = [];
  for (const v of values) for (const k of Object.keys(v as object)) if (!keys.includes(k)) keys.push(k);
  const fields: FieldEntry[] = [];
  for (const k of keys) {
    const verdict = inferAt([...path, k], contexts, windowMs);
    if (!verdict.ok) return { ...verdict, path: verdict.path ?? [...path, k].join(".") };
    fields.push({ field: k, rule: verdict.rule });
  }
  return { ok: true, rule: { kind: "object", fields } };
}

type Otherwise = Extract<FieldRule, { kind: "from_request" }>["otherwise"];

function fallback(absent: ({ cands: Cands } | null | undefined)[], create: boolean): Otherwise | null {
  if (absent.length === 0) return create ? { kind: "omit" } : { kind: "keep" };
  if (absent.every((p) => !p)) return { kind: "omit" };
  if (absent.some((p) => !p)) return null;
  if (!create && absent.every((p) => p!.cands.has(json({ kind: "keep" })))) return { kind: "keep" };
  const first = [...absent[0]!.cands.entries()].find(([s]) => s.startsWith("constant:"));
  if (first && absent.every((p) => p!.cands.has(first[0]))) {
    const rule = first[1] as Extract<FieldRule, { kind: "constant" }>;
    return { kind: "constant", value: rule.value };
  }
  return null;
}
