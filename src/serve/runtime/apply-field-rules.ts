/**
 * Evaluates the learned field rules of a write into a new entity: values from
 * the request, the episode's id sequences, PRNG and clock, constants, path
 * params, the old value (or the old value plus a step, or with a text added), objects and arrays
 * built part by part, and — once everything else is known — copies of other
 * fields and strings assembled from the entity's values (`format`).
 */
import { deriveFromId } from "../../model/id-derived.js";
import type { ConstantGiven, Entity, FieldRule } from "../../model/model-schema.js";
import { canonicalJsonCompact } from "../../util/canonical-json.js";
import { pointerOf, readPointer } from "../../util/json-pointer.js";
import { slugify } from "../../util/slug.js";
import { DEFAULT_LAYOUT, formatDate, formatIsoTime } from "../../util/time-layout.js";
import { nextUuid } from "./prng.js";
import type { Episode, TwinRequestBody } from "./twin-types.js";

/** What a field rule may read: the episode, the request, the path params and the old entity. */
export interface RuleContext {
  episode: Episode;
  collection: string;
  body: TwinRequestBody;
  params: Record<string, string>;
  old: Entity | null;
  /**
   * The id field of the written collection (what `from_id` rules read), and where they report the fields whose
   * value the id does not tell (a media type of an extension nobody recorded): the write is then refused.
   */
  idField?: string;
  unknown?: { field: string; extension: string }[];
  /**
   * Where constants recorded under one reference (`given`) meet a request naming another: the request pointer, what
   * it sent (canonical JSON, or null for nothing) and what the recording sent (`cases`: a `cases` rule's key, whose
   * recorded values each have their own rule). The write is then refused.
   */
  unrecorded?: { pointer: string; sent: string | null; recorded: string[]; cases?: true; each?: string }[];
  /**
   * Where an id was drawn past an id freed by deleting the highest entity while the recording never decided whether
   * the app gives it again (`freed: undecided`): the id drawn and the freed one the other policy gives. The answer
   * says so (`x-apptwin-warning`).
   */
  guessed?: { id: number; freed: number }[];
  /**
   * The request pointers of fields the request left out that got a default no recorded create confirmed
   * (`otherwise.default: unconfirmed`). The answer says so (`x-apptwin-warning`).
   */
  defaulted?: string[];
}

const ABSENT = Symbol("absent");

/** A value of its own for the entity being built: an object or array copied, a primitive as it is (no clone call). */
function copyOf<T>(v: T): T {
  return v === null || typeof v !== "object" ? v : structuredClone(v);
}

/** A copy, format or lookup, resolved after every other field (it reads the entity being built). */
class Deferred {
  constructor(readonly rule: Extract<FieldRule, { kind: "copy" | "format" | "lookup" | "from_id" }>) {}
}

/** A value the rule cannot tell (see `RuleContext.unknown`). */
class Unknown {
  constructor(readonly extension: string) {}
}

/** Notes in `ctx.unrecorded` a request that does not meet the condition a constant was recorded under. */
function checkGiven(given: ConstantGiven, ctx: RuleContext): void {
  const v = readPointer(bodyObject(ctx.body), given.pointer);
  const sent = v === undefined ? null : canonicalJsonCompact(v);
  if (sent === null ? given.absent : given.values.includes(sent)) return;
  if (ctx.unrecorded?.some((u) => u.pointer === given.pointer)) return;
  ctx.unrecorded?.push({ pointer: given.pointer, sent, recorded: given.values });
}

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

type Otherwise = Extract<FieldRule, { kind: "from_request" }>["otherwise"];

function otherwise(o: Otherwise, old: unknown): unknown {
  if (o.kind === "constant") return copyOf(o.value);
  return o.kind === "keep" && old !== ABSENT ? copyOf(old) : ABSENT;
}

/** The old value at a key of an old object (ABSENT when there is none). */
function child(old: unknown, key: string): unknown {
  if (old === null || typeof old !== "object") return ABSENT;
  if (Array.isArray(old)) return /^\d+$/.test(key) && Number(key) < old.length ? old[Number(key)] : ABSENT;
  return Object.hasOwn(old, key) ? (old as Record<string, unknown>)[key] : ABSENT;
}

/** The highest integer id the written collection holds now, or null when it holds none (see `after: present`). */
function highestPresent(ctx: RuleContext): number | null {
  const c = ctx.episode.state.collection(ctx.collection);
  let max: number | null = null;
  for (const e of c) {
    const id = e[c.idField];
    if (typeof id === "number" && Number.isInteger(id) && (max === null || id > max)) max = id;
  }
  return max;
}

function evaluate(rule: FieldRule, ctx: RuleContext, old: unknown): unknown {
  switch (rule.kind) {
    case "from_request": {
      const v = readPointer(bodyObject(ctx.body), rule.pointer);
      if (v !== undefined) return copyOf(v);
      if (rule.otherwise.kind === "constant" && rule.otherwise.default === "unconfirmed") {
        ctx.defaulted?.push(rule.pointer);
      }
      return otherwise(rule.otherwise, old);
    }
    case "id_sequence": {
      if (rule.after === "present") {
        const highest = highestPresent(ctx);
        return highest === null ? rule.start : highest + rule.step;
      }
      const key = rule.sequence ?? ctx.collection;
      const next = ctx.episode.id_sequences[key] ?? rule.start;
      ctx.episode.id_sequences[key] = next + rule.step;
      if (rule.freed === "undecided" && ctx.guessed) {
        const highest = highestPresent(ctx);
        const freed = highest === null ? 1 : highest + rule.step;
        if (freed !== next) ctx.guessed.push({ id: next, freed });
      }
      return next;
    }
    case "uuid":
      return nextUuid(ctx.episode.prng);
    case "clock":
      return formatClock(ctx.episode.clock_ms, rule);
    case "constant":
      if (rule.given) checkGiven(rule.given, ctx);
      return copyOf(rule.value);
    case "path_param": {
      const v = ctx.params[rule.name];
      if (v === undefined) return ABSENT;
      // Keep the type the entity already had (an int parent id stays an int), or the one every recorded value had.
      return (typeof old === "number" || rule.integer) && /^-?\d+$/.test(v) ? Number(v) : v;
    }
    case "keep":
      return old === ABSENT ? ABSENT : copyOf(old);
    case "increment":
      return typeof old === "number" ? old + rule.step : ABSENT;
    case "affix":
      return typeof old === "string" ? `${rule.prefix}${old}${rule.suffix}` : ABSENT;
    case "length": {
      const v = readPointer(bodyObject(ctx.body), rule.pointer);
      const n =
        typeof v === "string" ? new TextEncoder().encode(v).length : Array.isArray(v) ? v.length : null;
      return n !== null ? n : otherwise(rule.otherwise, old);
    }
    case "redacted":
      return rule.marker;
    case "object": {
      // A reference object built from request values the request does not send is left out, as recorded.
      if (rule.when_sent?.some((p) => readPointer(bodyObject(ctx.body), p) === undefined)) return ABSENT;
      const out: Record<string, unknown> = {};
      for (const f of rule.fields) {
        const v = evaluate(f.rule, ctx, child(old, f.field));
        if (v !== ABSENT) out[f.field] = v;
      }
      return out;
    }
    case "array":
      return rule.items.map((r, i) => evaluate(r, ctx, child(old, String(i)))).filter((v) => v !== ABSENT);
    case "format": {
      if (rule.given) checkGiven(rule.given, ctx);
      const body = bodyObject(ctx.body);
      const missing = rule.parts.some((p) => "request" in p && readPointer(body, p.request) === undefined);
      return missing ? otherwise(rule.otherwise, old) : new Deferred(rule);
    }
    case "copy":
    case "lookup":
    case "from_id":
      return new Deferred(rule);
    case "each": {
      const v = readPointer(bodyObject(ctx.body), rule.pointer);
      if (v === undefined) return otherwise(rule.otherwise, old);
      const values = Array.isArray(v) ? v : [v];
      const missing = values.find(
        (x) => (typeof x !== "string" && typeof x !== "number") || !Object.hasOwn(rule.table, String(x)),
      );
      if (missing === undefined) return values.map((x) => copyOf(rule.table[String(x)]));
      // An entity the recording never showed under that key: the twin does not know what the app lists for it.
      if (!ctx.unrecorded?.some((u) => u.pointer === rule.pointer))
        ctx.unrecorded?.push({
          pointer: rule.pointer,
          sent: canonicalJsonCompact(missing),
          recorded: Object.keys(rule.table),
          each: rule.key,
        });
      return ABSENT;
    }
    case "cases": {
      const v = readPointer(bodyObject(ctx.body), rule.pointer);
      const sent = v === undefined ? null : canonicalJsonCompact(v);
      const match = rule.cases.find((c) => c.value === sent);
      if (match) return evaluate(match.rule, ctx, old);
      if (!ctx.unrecorded?.some((u) => u.pointer === rule.pointer))
        ctx.unrecorded?.push({
          pointer: rule.pointer,
          sent,
          recorded: rule.cases.map((c) => c.value),
          cases: true,
        });
      return ABSENT;
    }
  }
}

/** Every deferred value in the entity being built, with the object (or array) and key holding it. */
function deferredSlots(value: unknown, out: [Record<string, unknown>, string, Deferred][] = []) {
  if (value === null || typeof value !== "object" || value instanceof Deferred) return out;
  for (const [k, v] of Object.entries(value)) {
    if (v instanceof Deferred) out.push([value as Record<string, unknown>, k, v]);
    else deferredSlots(v, out);
  }
  return out;
}

/** The value at `pointer` of the entity being built, or the old entity's when the new one lacks it. */
function lookUp(entity: Entity, ctx: RuleContext, pointer: string): unknown {
  const v = readPointer(entity, pointer);
  if (v !== undefined) return v;
  const o = ctx.old === null ? undefined : readPointer(ctx.old, pointer);
  return o === undefined ? ABSENT : o;
}

/** The value at `pointer` of the entity of `collection` whose id the built entity holds at `key`. */
function lookedUp(
  collection: string,
  key: string,
  pointer: string,
  entity: Entity,
  ctx: RuleContext,
): unknown {
  const id = lookUp(entity, ctx, key);
  if (id instanceof Deferred) return id;
  if (typeof id !== "string" && typeof id !== "number") return ABSENT;
  const other = ctx.episode.state.collection(collection).get(String(id));
  const v = other === undefined ? undefined : readPointer(other, pointer);
  return v === undefined ? ABSENT : v;
}

/** The value of a deferred rule, or `undefined` while it still waits on another deferred value. */
function resolve(d: Deferred, entity: Entity, ctx: RuleContext): unknown {
  const rule = d.rule;
  if (rule.kind === "from_id") {
    const id = ctx.idField === undefined ? ABSENT : lookUp(entity, ctx, pointerOf(ctx.idField));
    if (id instanceof Deferred) return undefined;
    if (typeof id !== "string") return ABSENT;
    const v = deriveFromId(rule, id);
    return "value" in v ? v.value : new Unknown(v.unknown);
  }
  if (rule.kind === "lookup") {
    const v = lookedUp(rule.collection, rule.key, rule.pointer, entity, ctx);
    return v instanceof Deferred ? undefined : v === ABSENT ? ABSENT : copyOf(v);
  }
  if (rule.kind === "copy") {
    const v = lookUp(entity, ctx, rule.pointer ?? pointerOf(rule.from));
    return v instanceof Deferred ? undefined : v === ABSENT ? ABSENT : copyOf(v);
  }
  let text = "";
  for (const p of rule.parts) {
    let v: unknown;
    if ("text" in p) v = p.text;
    else if ("param" in p) v = ctx.params[p.param] ?? ABSENT;
    else if ("request" in p) v = readPointer(bodyObject(ctx.body), p.request) ?? ABSENT;
    else if ("lookup" in p) v = lookedUp(p.lookup, p.key, p.pointer, entity, ctx);
    else v = lookUp(entity, ctx, p.entity);
    if (v instanceof Deferred) return undefined;
    if (v === ABSENT || (typeof v === "object" && v !== null)) return ABSENT;
    const s = String(v);
    text += "transform" in p && p.transform === "slug" ? slugify(s) : s;
  }
  return text;
}

/** Resolves the deferred copies and formats, each once the values it reads are known; a cycle leaves them out. */
function resolveDeferred(entity: Entity, ctx: RuleContext): void {
  let slots = deferredSlots(entity);
  while (slots.length > 0) {
    let progress = false;
    for (const [holder, key, d] of slots) {
      const v = resolve(d, entity, ctx);
      if (v === undefined) continue;
      progress = true;
      if (v instanceof Unknown) ctx.unknown?.push({ field: key, extension: v.extension });
      if (v === ABSENT || v instanceof Unknown) delete holder[key];
      else holder[key] = v;
    }
    if (!progress) for (const [holder, key] of slots) delete holder[key];
    slots = deferredSlots(entity);
  }
  // Arrays keep their order: a deleted item left a hole.
  compactArrays(entity);
}

function compactArrays(value: unknown): void {
  if (value === null || typeof value !== "object") return;
  for (const [k, v] of Object.entries(value)) {
    if (Array.isArray(v)) (value as Record<string, unknown>)[k] = v.filter((_, i) => i in v);
    compactArrays((value as Record<string, unknown>)[k]);
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
  for (const { field, rule } of fields) values.set(field, evaluate(rule, ctx, child(ctx.old, field)));
  const out: Entity = {};
  const order = [...Object.keys(ctx.old ?? {}), ...fields.map((f) => f.field)];
  for (const key of order) {
    if (Object.hasOwn(out, key)) continue;
    if (values.has(key)) {
      const v = values.get(key);
      if (v !== ABSENT) out[key] = v;
    } else if (mergeOld && ctx.old && Object.hasOwn(ctx.old, key)) {
      out[key] = copyOf(ctx.old[key]);
    }
  }
  resolveDeferred(out, ctx);
  return out;
}
