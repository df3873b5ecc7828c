/**
 * Explains each field of a written entity by a rule that holds in every
 * confirmed observation: from the request, a path parameter, an id sequence,
 * a fresh UUID, the clock, the old value, a copy of another field, or a
 * constant. A field no rule explains makes the write withheld.
 */
import type { Entity, FieldRule } from "../model/model-schema.js";
import { keyOfPointer, pointerOf } from "../util/json-pointer.js";
import { DEFAULT_LAYOUT, formatDate, parseDate } from "../util/time-layout.js";
import {
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
  entity: Entity;
  request: Record<string, unknown> | null;
  /** Form bodies carry strings: compare loosely. */
  loose: boolean;
  pathParams: Record<string, string>;
  pre: Entity | null;
  time: number | null;
  maxIntBefore: number | null;
  /** For creates: the highest integer value of each field in the entity's scope before the write. */
  scopeMax: ReadonlyMap<string, number> | null;
  idSeenBefore: boolean;
  idField: string;
  create: boolean;
}

/** The rule of a field, or why none holds. */
export type FieldVerdict =
  | { ok: true; rule: FieldRule }
  | {
      ok: false;
      reason: "unexplained_field" | "untimed_capture" | "conflicting_observations";
      /** What the twin lacks when no recording can close the gap (see `UnclosableGap`). */
      gap?: UnclosableGap;
    };

/**
 * A field no rule can ever explain, however much is recorded: a counter within its scope (highest + 1),
 * a random token the app generates, or a string id the app assigns.
 */
export type UnclosableGap =
  | { kind: "counter" }
  | { kind: "token"; token: TokenShape; answerOnly: boolean }
  | { kind: "string_id" };

type Cands = Map<string, FieldRule>;

const json = (v: unknown) => JSON.stringify(v);
const same = (a: unknown, b: unknown, loose: boolean) =>
  loose && (typeof a !== "object" || a === null) ? String(a) === String(b) : json(a) === json(b);

/** Every rule that explains field `f` in one observation, keyed by a signature; `untimed` when a time changed without request times. */
export function candidates(
  f: string,
  ctx: FieldContext,
  windowMs: number,
): { cands: Cands; untimed: boolean; counter: boolean } {
  const v = ctx.entity[f];
  const cands: Cands = new Map();
  let untimed = false;
  // A created value that is the scope's highest + 1 is a counter (a card's position), never a constant.
  const before = ctx.create && f !== ctx.idField ? ctx.scopeMax?.get(f) : undefined;
  const counter = before !== undefined && v === before + 1;
  const add = (rule: FieldRule) => {
    const sig =
      rule.kind === "constant"
        ? `constant:${json(rule.value)}`
        : rule.kind === "id_sequence"
          ? "id_sequence"
          : json(rule);
    if (!cands.has(sig)) cands.set(sig, rule);
  };
  if (ctx.request) {
    const keys = Object.keys(ctx.request).sort((a, b) => Number(b === f) - Number(a === f));
    for (const k of keys)
      if (same(v, ctx.request[k], ctx.loose))
        add({ kind: "from_request", pointer: pointerOf(k), otherwise: { kind: "omit" } });
  }
  if (!ctx.create && ctx.pre && f in ctx.pre && same(ctx.pre[f], v, false)) add({ kind: "keep" });
  if (typeof v === "string" || typeof v === "number")
    for (const [name, pv] of Object.entries(ctx.pathParams))
      if (String(v) === pv) add({ kind: "path_param", name });
  if (
    ctx.create &&
    f === ctx.idField &&
    Number.isInteger(v) &&
    (ctx.maxIntBefore === null || (v as number) > ctx.maxIntBefore)
  )
    add({ kind: "id_sequence", start: (ctx.maxIntBefore ?? 0) + 1, step: 1 });
  if (isUuid(v) && !(f === ctx.idField && ctx.idSeenBefore) && (ctx.create || ctx.pre?.[f] !== v))
    add({ kind: "uuid" });
  const time = readTime(v);
  if (time) {
    const changed = ctx.create || !ctx.pre || !same(ctx.pre[f], v, false);
    if (ctx.time === null) untimed ||= changed;
    else {
      const rule = clockRule(time, ctx.time, windowMs);
      if (rule) add(rule);
    }
  }
  const today = ctx.time === null ? null : dateClock(v, ctx.time, windowMs);
  if (today) add(today);
  if (typeof v === "string" || (typeof v === "number" && f !== ctx.idField))
    for (const [g, gv] of Object.entries(ctx.entity))
      if (g !== f && same(gv, v, false)) add({ kind: "copy", from: g });
  // A created id is never a constant: every later create would collide with it.
  const newId = ctx.create && f === ctx.idField;
  if (!isRedactionMarker(v) && !looksRandom(v) && !((time || today) && ctx.create) && !counter && !newId)
    add({ kind: "constant", value: v });
  return { cands, untimed, counter };
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

const PRIORITY = ["from_request", "path_param", "id_sequence", "uuid", "clock", "keep", "copy", "constant"];

function rank(rule: FieldRule, create: boolean): number {
  if (!create && rule.kind === "keep") return 0.5;
  return PRIORITY.indexOf(rule.kind);
}

/** Combines the per-observation candidates of field `f` into one rule that holds everywhere, or a reason. */
export function inferFieldRule(f: string, contexts: FieldContext[], windowMs: number): FieldVerdict {
  const per = contexts.map((ctx) => (f in ctx.entity ? candidates(f, ctx, windowMs) : null));
  const create = contexts[0]?.create ?? true;
  const valid: FieldRule[] = [];
  const sigs = new Map<string, FieldRule>();
  for (const p of per) if (p) for (const [s, r] of p.cands) if (!sigs.has(s)) sigs.set(s, r);
  for (const [sig, rule] of sigs) {
    if (rule.kind !== "from_request") {
      if (per.every((p) => p?.cands.has(sig))) valid.push(rule);
      continue;
    }
    const key = keyOfPointer(rule.pointer);
    const absent: ({ cands: Cands } | null)[] = [];
    let present = 0;
    let holds = true;
    contexts.forEach((ctx, i) => {
      if (!ctx.request || !(key in ctx.request)) absent.push(per[i] ?? null);
      else if (per[i]?.cands.has(sig)) present++;
      else holds = false;
    });
    if (!holds || present === 0) continue;
    const otherwise = fallback(absent, create);
    if (otherwise) valid.push({ ...rule, otherwise });
  }
  if (valid.length > 0) {
    valid.sort((a, b) => rank(a, create) - rank(b, create));
    return { ok: true, rule: valid[0]! };
  }
  if (per.some((p) => p?.untimed)) return { ok: false, reason: "untimed_capture" };
  if (per.some((p) => p?.counter))
    return { ok: false, reason: "unexplained_field", gap: { kind: "counter" } };
  const values = contexts.filter((c) => f in c.entity).map((c) => c.entity[f]);
  const fromRequest = per.some((p) => [...(p?.cands.values() ?? [])].some((r) => r.kind === "from_request"));
  if (create && f === contexts[0]?.idField && values.every((v) => typeof v === "string" && !isUuid(v)))
    return { ok: false, reason: "unexplained_field", gap: { kind: "string_id" } };
  const token = fromRequest ? null : tokenShape(values);
  if (token)
    return { ok: false, reason: "unexplained_field", gap: { kind: "token", token, answerOnly: false } };
  const allExplained = per.every((p) => p !== null && p.cands.size > 0);
  return {
    ok: false,
    reason: allExplained && contexts.length > 1 ? "conflicting_observations" : "unexplained_field",
  };
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
