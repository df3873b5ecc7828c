/**
 * Evaluates the learned field rules of a write into a new entity: values from
 * the request, the episode's id sequence, PRNG and clock, constants, path
 * params, the old value, and copies of other fields (evaluated last).
 */
import type { Entity, FieldRule } from "../../model/model-schema.js";
import { DEFAULT_LAYOUT, formatDate, formatIsoTime } from "../../util/time-layout.js";
import { readPointer } from "./json-text.js";
import { nextUuid } from "./prng.js";
import type { Episode, TwinRequestBody } from "./twin-types.js";

/** What a field rule may read: the episode, the request, the path params and the old entity. */
export interface RuleContext {
  episode: Episode;
  collection: string;
  body: TwinRequestBody;
  params: Record<string, string>;
  old: Entity | null;
}

const ABSENT = Symbol("absent");

/** The request body as the object pointers read: parsed JSON, or the form's first value per name. */
export function bodyObject(body: TwinRequestBody): unknown {
  if (body === null) return undefined;
  if (body.kind === "json") return body.value;
  if (body.kind === "form") {
    const out: Record<string, string> = {};
    for (const [k, v] of body.fields) if (!Object.hasOwn(out, k)) out[k] = v;
    return out;
  }
  return undefined;
}

type ClockRule = Extract<FieldRule, { kind: "clock" }>;

/** Formats the episode clock as the rule asks: epoch ms or s, a date, or ISO in the app's layout and offset. */
export function formatClock(ms: number, rule: Omit<ClockRule, "kind">): string | number {
  if (rule.format === "epoch_ms") return ms;
  if (rule.format === "epoch_s") return Math.floor(ms / 1000);
  if (rule.format === "date") return formatDate(ms, rule.offset_min ?? 0);
  return formatIsoTime(ms, rule.layout ?? DEFAULT_LAYOUT, rule.offset_min ?? 0);
}

function keepOld(ctx: RuleContext, field: string): unknown {
  return ctx.old && Object.hasOwn(ctx.old, field) ? structuredClone(ctx.old[field]) : ABSENT;
}

function evaluate(rule: FieldRule, field: string, ctx: RuleContext): unknown {
  switch (rule.kind) {
    case "from_request": {
      const v = readPointer(bodyObject(ctx.body), rule.pointer);
      if (v !== undefined) return structuredClone(v);
      const o = rule.otherwise;
      if (o.kind === "constant") return structuredClone(o.value);
      return o.kind === "keep" ? keepOld(ctx, field) : ABSENT;
    }
    case "id_sequence": {
      const next = ctx.episode.id_sequences[ctx.collection] ?? rule.start;
      ctx.episode.id_sequences[ctx.collection] = next + rule.step;
      return next;
    }
    case "uuid":
      return nextUuid(ctx.episode.prng);
    case "clock":
      return formatClock(ctx.episode.clock_ms, rule);
    case "constant":
      return structuredClone(rule.value);
    case "path_param": {
      const v = ctx.params[rule.name];
      if (v === undefined) return ABSENT;
      const oldValue = ctx.old?.[field];
      // Keep the type the entity already had (an int parent id stays an int).
      return typeof oldValue === "number" && /^-?\d+$/.test(v) ? Number(v) : v;
    }
    case "keep":
      return keepOld(ctx, field);
    case "copy":
      return ABSENT; // resolved in a second pass, after every other field
  }
}

/**
 * Builds the written entity. Key order: the old entity's keys first (so an
 * update answers in the app's order), then the rules' fields in rule order.
 * With `mergeOld`, fields without a rule keep their old value.
 */
export function applyFieldRules(
  fields: { field: string; rule: FieldRule }[],
  ctx: RuleContext,
  mergeOld: boolean,
): Entity {
  const values = new Map<string, unknown>();
  for (const { field, rule } of fields) values.set(field, evaluate(rule, field, ctx));
  for (const { field, rule } of fields) {
    if (rule.kind !== "copy") continue;
    const source = values.has(rule.from) ? values.get(rule.from) : keepOld(ctx, rule.from);
    values.set(field, source === ABSENT ? ABSENT : structuredClone(source));
  }
  const out: Entity = {};
  const order = [...Object.keys(ctx.old ?? {}), ...fields.map((f) => f.field)];
  for (const key of order) {
    if (Object.hasOwn(out, key)) continue;
    if (values.has(key)) {
      const v = values.get(key);
      if (v !== ABSENT) out[key] = v;
    } else if (mergeOld && ctx.old && Object.hasOwn(ctx.old, key)) {
      out[key] = structuredClone(ctx.old[key]);
    }
  }
  return out;
}
