/**
 * Learns the validation failures a recording confirms: a write answered 400
 * or 422 whose request differed from every successful request of the
 * endpoint in one respect — a field they all sent non-empty lacking or blank,
 * a value of another JSON type, null where they sent values or left it out,
 * a number beyond every one they sent, a field none of them sent (when the
 * app's answer names it). The twin answers such a request with
 * the recorded status and body, before applying the write.
 */
import type { Endpoint, ValidationRule } from "../model/model-schema.js";
import { pathOfPointer, pointerOf, readPointer } from "../util/json-pointer.js";
import type { EndpointGroup, Observation } from "./endpoint-index.js";
import { canned } from "./read-model.js";
import { isRedirect } from "./redirect-location.js";
import type { RefusedWrite, WriteObservation } from "./state-walk.js";
import { isObject } from "./value-kinds.js";

/** Statuses that answer an invalid body; 401/403/404/409/413 and the like mean something else (decision). */
const VALIDATION_STATUSES = new Set([400, 422]);
/** A conflict with the state (a stale revision, a value taken) may also be answered 409 or 412. */
const CONFLICT_STATUSES = new Set([400, 409, 412, 422]);

/** What the walk showed of an endpoint's writes: the state each refusal and each success met (state-walk.ts). */
export interface ValidationState {
  refused: ReadonlyMap<Observation, RefusedWrite>;
  /** The endpoint's successful writes, with what they met. */
  writes: readonly WriteObservation[];
}

type Body = Record<string, unknown>;

/** A request body as an object (JSON object, or the form's values), or null. */
function bodyOf(o: Observation): Body | null {
  if ((o.request.kind === "json" || o.request.kind === "form") && isObject(o.request.value))
    return o.request.value;
  return null;
}

/** Missing, null, or a string of nothing but white space. */
export function isBlank(v: unknown): boolean {
  return v === undefined || v === null || (typeof v === "string" && v.trim() === "");
}

/** True when the JSON answer holds `name` as a key or as a whole string value (`{"field": "title"}`). */
function names(value: unknown, name: string, depth = 0): boolean {
  if (depth > 6) return false;
  // A JSON pointer to the field names it too (`{"path": "/title"}`, as JSON Schema validators answer).
  if (typeof value === "string") return value === name || value === `/${name}`;
  if (Array.isArray(value)) return value.some((v) => names(v, name, depth + 1));
  if (isObject(value)) return Object.entries(value).some(([k, v]) => k === name || names(v, name, depth + 1));
  return false;
}

type JsonType = NonNullable<ValidationRule["types"]>[number];

/** The JSON type of a sent value (integers are numbers), or null for null and undefined. */
function jsonType(v: unknown): JsonType | null {
  if (v === null || v === undefined) return null;
  if (Array.isArray(v)) return "array";
  const t = typeof v;
  return t === "string" || t === "number" || t === "boolean" || t === "object" ? t : null;
}

/** One way a failed request differed from every success, in one field. */
interface Anomaly {
  pointer: string;
  kind: "missing" | "type" | "null" | "range" | "stale" | "unique" | "sent";
  /** For `type`: the types successes sent. */
  types?: JsonType[];
  /** For `range`: the failed value, and the side of the accepted values it lay on. */
  value?: number;
  side?: "below" | "above";
  /** For `unique` and `stale` of a wrapped body (`/project/identifier`): the entity's field compared. */
  entityField?: string;
  /** For `unique`: the clash held only when letter case is ignored (`Howto` against `howto`). */
  ignoreCase?: boolean;
  /** For `unique`: the id of the entity the refused value clashed with. */
  clashId?: unknown;
}

/** What every success sent in each field: the values (undefined where one left it out), by pointer. */
function successFields(bodies: Body[]): Map<string, unknown[]> {
  const pointers = new Set<string>();
  for (const b of bodies) for (const p of leaves(b).keys()) pointers.add(p);
  return new Map([...pointers].map((p) => [p, bodies.map((b) => readPointer(b, p))]));
}

/**
 * Every respect in which a failed body differs from every success: a field every success sent that it lacks or
 * leaves blank (on a PATCH only one it sent null or blank), a value of a type no success sent, null where successes
 * sent values or left the field out, a number beyond every success's.
 */
function anomalies(body: Body, fields: Map<string, unknown[]>, partial: boolean): Anomaly[] {
  const out: Anomaly[] = [];
  const failed = leaves(body);
  for (const [pointer, values] of fields) {
    const v = readPointer(body, pointer);
    const sent = values.filter((x) => x !== undefined);
    if (values.every((x) => !isBlank(x))) {
      if (isBlank(v) && (!partial || v !== undefined)) {
        out.push({ pointer, kind: "missing" });
        continue;
      }
    } else if (v === null && sent.length > 0 && sent.every((x) => x !== null)) {
      out.push({ pointer, kind: "null" });
      continue;
    }
    const types = [...new Set(sent.map(jsonType))];
    const t = jsonType(v);
    if (t === null || types.includes(null) || types.length === 0) continue;
    if (!types.includes(t)) {
      out.push({ pointer, kind: "type", types: (types as JsonType[]).sort() });
      continue;
    }
    if (t === "number" && types.length === 1) {
      const nums = sent as number[];
      if ((v as number) < Math.min(...nums))
        out.push({ pointer, kind: "range", value: v as number, side: "below" });
      else if ((v as number) > Math.max(...nums))
        out.push({ pointer, kind: "range", value: v as number, side: "above" });
    }
  }
  // A field no success sent at all is another respect the failure differs in (which the app may refuse).
  for (const p of failed.keys()) if (!fields.has(p)) out.push({ pointer: p, kind: "sent" });
  return out;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const scalar = (v: unknown) => (typeof v === "string" && v.trim() !== "") || typeof v === "number";

/** The request body of a successful write as an object, or null. */
const sentBody = (w: WriteObservation) => bodyOf(w.obs);

/** Equal as the app compared: exactly, or (with `ignoreCase`) as strings whose letter case alone differs. */
function sameValue(a: unknown, b: unknown, ignoreCase: boolean): boolean {
  if (same(a, b)) return true;
  return ignoreCase && typeof a === "string" && typeof b === "string" && a.toLowerCase() === b.toLowerCase();
}

/**
 * The respects in which a refused body differs from every success in the state it met (its fields, through a
 * wrapped body's objects: `/project/identifier` compares the entity's `identifier`): a value other than the one its
 * entity held where every success sent the held one (a stale revision), or a value an entity of its scope held where
 * no success sent a held one (uniqueness; compared ignoring letter case only when the refused value matched no entity
 * exactly, and then no success matched one that way either). Each needs a success that shows the contrast.
 */
function stateAnomalies(o: Observation, body: Body, state: ValidationState | undefined): Anomaly[] {
  const met = state?.refused.get(o);
  if (!met) return [];
  const idField = state!.writes[0]?.target.collection.idField;
  const out: Anomaly[] = [];
  for (const [pointer, v] of leaves(body)) {
    if (v === undefined) continue;
    const k = keyOf(pointer);
    const nested = pathOfPointer(pointer).length > 1;
    const sentAt = (w: WriteObservation) => {
      const b = sentBody(w);
      return b === null ? undefined : readPointer(b, pointer);
    };
    const extra = nested ? { entityField: k } : {};
    if (met.pre && Object.hasOwn(met.pre, k) && scalar(v) && !same(v, met.pre[k])) {
      const shown = state!.writes.filter((w) => w.pre && Object.hasOwn(w.pre, k) && sentAt(w) !== undefined);
      if (shown.length > 0 && shown.every((w) => same(sentAt(w), w.pre![k])))
        out.push({ pointer, kind: "stale", ...extra });
    }
    if (!met.scope || !scalar(v)) continue;
    const exact = met.scope.find((e) => same(e[k], v));
    const folded = exact ?? met.scope.find((e) => sameValue(e[k], v, true));
    if (!folded) continue;
    const ignoreCase = exact === undefined;
    const shown = state!.writes.filter((w) => w.scopeBefore && scalar(sentAt(w)));
    if (
      shown.length > 0 &&
      shown.every((w) => !w.scopeBefore!.some((e) => sameValue(e[k], sentAt(w), ignoreCase)))
    )
      out.push({
        pointer,
        kind: "unique",
        ...extra,
        ...(ignoreCase ? { ignoreCase: true } : {}),
        ...(idField !== undefined && folded[idField] !== undefined ? { clashId: folded[idField] } : {}),
      });
  }
  return out;
}

/** True when a string of the answer mentions the field's name as a word, any case (`Hours cannot be blank`). */
function mentions(value: unknown, key: string, depth = 0): boolean {
  if (depth > 6 || key === "") return false;
  if (typeof value === "string") {
    const word = key.replace(/[_-]+/g, " ").replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return new RegExp(`(^|[^A-Za-z0-9])${word}([^A-Za-z0-9]|$)`, "i").test(value.replace(/[_-]+/g, " "));
  }
  if (Array.isArray(value)) return value.some((v) => mentions(v, key, depth + 1));
  if (isObject(value)) return Object.values(value).some((v) => mentions(v, key, depth + 1));
  return false;
}

/**
 * The pointers of an answer holding exactly `id` (a scalar), where the app echoes the entity a value clashed with
 * (`data.term_id`), sorted.
 */
function idPointers(value: unknown, id: unknown): string[] {
  const out: string[] = [];
  const walk = (v: unknown, at: string, depth: number): void => {
    if (depth > 6) return;
    if (Array.isArray(v)) for (const [i, x] of v.entries()) walk(x, `${at}/${i}`, depth + 1);
    else if (isObject(v)) for (const [k, x] of Object.entries(v)) walk(x, `${at}${pointerOf(k)}`, depth + 1);
    else if (at !== "" && (typeof v === "number" || typeof v === "string") && same(v, id)) out.push(at);
  };
  walk(value, "", 0);
  return out.sort();
}

/** The answer with each of `pointers` set to `value` (a copy). */
function withAt(answer: unknown, pointers: readonly string[], value: unknown): unknown {
  const copy = structuredClone(answer);
  for (const p of pointers) {
    const path = pathOfPointer(p);
    let node = copy as Record<string, unknown>;
    for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
    node[path.at(-1)!] = value;
  }
  return copy;
}

/**
 * The validation rules of one write endpoint: a failure (400/422) is learned only when its body differs from every
 * success in one respect (`anomalies`), or in several of which its answer names exactly one field. Never when its
 * answer names another field it sent and not this one. A field and kind whose failures answered differently gets
 * no rule.
 */
export function learnValidations(group: EndpointGroup, state?: ValidationState): ValidationRule[] {
  const none: ValidationRule[] = [];
  if (group.method === "DELETE") return none;
  const success = group.observations.filter(
    (o) => (o.status >= 200 && o.status < 300) || isRedirect(o.status),
  );
  const bodies = success.map(bodyOf);
  if (bodies.length === 0 || bodies.some((b) => b === null)) return none;
  const fields = successFields(bodies as Body[]);
  // A PATCH may leave any field out: only a field it sent null or blank can be what the app refused.
  const partial = group.method === "PATCH";
  const byKey = new Map<string, { a: Anomaly; failures: Observation[]; clashes: unknown[] }>();
  for (const o of group.observations) {
    const body = bodyOf(o);
    if (!CONFLICT_STATUSES.has(o.status) || body === null) continue;
    let found = [...anomalies(body, fields, partial), ...stateAnomalies(o, body, state)];
    // 409 and 412 answer a conflict with the state, never a malformed field.
    if (!VALIDATION_STATUSES.has(o.status))
      found = found.filter((x) => x.kind === "stale" || x.kind === "unique");
    const answer = o.response.kind === "json" ? o.response.value : undefined;
    if (found.length > 1) {
      const named = found.filter((x) => names(answer, keyOf(x.pointer)));
      // A message mentioning one of the fields that each explain the refusal breaks the tie (never decides alone).
      found = named.length > 0 ? named : found.filter((x) => mentions(answer, keyOf(x.pointer)));
    }
    if (found.length !== 1) continue;
    const a = found[0]!;
    // A field no success sent is what the app refused only when its answer names it (`additionalProperty: "id"`).
    if (a.kind === "sent" && !names(answer, keyOf(a.pointer))) continue;
    // An answer naming another field the request sent, and not this one, blames that field (`{field: "status"}`).
    const sent = [...leaves(body).keys()].filter((p) => p !== a.pointer).map(keyOf);
    const blamed = sent.some((k) => k !== keyOf(a.pointer) && names(answer, k));
    if (blamed && !names(answer, keyOf(a.pointer))) continue;
    const key = `${a.pointer}\u0000${a.kind}\u0000${a.side ?? ""}\u0000${a.ignoreCase ? "i" : ""}`;
    const entry = byKey.get(key) ?? { a, failures: [], clashes: [] };
    entry.failures.push(o);
    entry.clashes.push(a.clashId);
    // Of several failures beyond the same side, the one nearest the accepted values bounds the rule.
    if (a.side === "below" && a.value! > entry.a.value!) entry.a = a;
    if (a.side === "above" && a.value! < entry.a.value!) entry.a = a;
    byKey.set(key, entry);
  }
  const rules: ValidationRule[] = [];
  for (const key of [...byKey.keys()].sort()) {
    const { a, failures, clashes } = byKey.get(key)!;
    let answers = failures.map(canned);
    // A uniqueness answer may echo the entity the value clashed with (`term_id`): where every failure's answer holds
    // its clashing entity's id at the same places, the twin fills them from the entity it clashes with.
    const clash = a.kind === "unique" ? clashPointers(answers, clashes) : [];
    if (clash.length > 0) answers = answers.map((x) => ({ ...x, body: withAt(x.body, clash, null) }));
    if (new Set(answers.map((x) => JSON.stringify(x))).size > 1) continue;
    // Two sides of one field answered alike are one rule; answered otherwise, two.
    const field = pathOfPointer(a.pointer).join(".");
    const at = failures.map((o) => `records[${o.index}]`).join(", ");
    const head = `${group.method} ${group.template} answers ${answers[0]!.status} with the recorded body when the request body`;
    const rule = {
      tool_name: group.toolName,
      field,
      pointer: a.pointer,
      ...answers[0]!,
      ...(partial && a.kind === "missing" ? { only_when_sent: true as const } : {}),
      ...(a.entityField !== undefined ? { entity_field: a.entityField } : {}),
      ...(a.ignoreCase ? { ignore_case: true as const } : {}),
      ...(clash.length > 0 ? { clash } : {}),
    };
    rules.push({ ...rule, ...kindOf(a, fields, head, field, at, partial) });
  }
  return rules;
}

/**
 * The places of the answers (the same in each) holding the id of the entity each failure's value clashed with; none
 * unless every failure knew its clashing entity and its answer holds that id somewhere.
 */
function clashPointers(answers: { body: unknown }[], clashes: unknown[]): string[] {
  if (clashes.some((c) => c === undefined || c === null)) return [];
  const each = answers.map((x, i) => idPointers(x.body, clashes[i]));
  const first = each[0] ?? [];
  return each.every((p) => same(p, first)) ? first : [];
}

/** The kind-specific part of a validation rule, with its explain sentence. */
function kindOf(
  a: Anomaly,
  fields: Map<string, unknown[]>,
  head: string,
  field: string,
  at: string,
  partial: boolean,
): Pick<ValidationRule, "kind" | "types" | "below" | "above" | "explain"> {
  const name = JSON.stringify(field);
  switch (a.kind) {
    case "missing":
      return {
        explain: partial
          ? `${head} sends ${name} null or blank (a partial update may leave it out; recorded at ${at}).`
          : `${head} lacks ${name} or leaves it blank (every successful request sent it; recorded at ${at}).`,
      };
    case "null":
      return {
        kind: "null",
        explain: `${head} sends ${name} null (successful requests sent a value or left it out; recorded at ${at}).`,
      };
    case "type":
      return {
        kind: "type",
        types: a.types!,
        explain: `${head} sends ${name} as another type than ${a.types!.join(" or ")} (every successful request that sent it sent ${a.types!.length === 1 ? "that" : "one of those"}; recorded at ${at}).`,
      };
    case "stale":
      return {
        kind: "stale",
        explain: `${head} sends ${name} other than the value the entity holds (a stale revision: every successful request sent the one it held; recorded at ${at}).`,
      };
    case "sent":
      return {
        kind: "sent",
        explain: `${head} sends ${name} at all (no successful request sent it, and the app's answer names it; recorded at ${at}).`,
      };
    case "unique":
      return {
        kind: "unique",
        explain: `${head} sends a ${name} another entity already holds${a.ignoreCase ? " (letter case ignored)" : ""} (no successful request sent a held one; recorded at ${at}).`,
      };
    case "range": {
      const nums = fields.get(a.pointer)!.filter((x) => typeof x === "number") as number[];
      const edge = a.side === "below" ? Math.min(...nums) : Math.max(...nums);
      const beyond = a.side === "below" ? "or lower" : "or higher";
      return {
        kind: "range",
        [a.side!]: a.value!,
        explain: `${head} sends ${name} ${a.value} ${beyond} (the ${a.side === "below" ? "lowest" : "highest"} a successful request sent was ${edge}; between them the recording does not tell; recorded at ${at}).`,
      };
    }
  }
}

/** How deep a wrapped body is walked for its fields. */
const MAX_DEPTH = 4;

/** The fields of a body by pointer: its scalar values and empty ones, through objects (never into arrays). */
function leaves(body: Body, at = "", depth = 0, out = new Map<string, unknown>()): Map<string, unknown> {
  for (const [k, v] of Object.entries(body)) {
    const p = `${at}${pointerOf(k)}`;
    if (isObject(v) && Object.keys(v).length > 0 && depth < MAX_DEPTH) leaves(v, p, depth + 1, out);
    else out.set(p, v);
  }
  return out;
}

/** The last key of a pointer: the name an answer may give the field by. */
function keyOf(pointer: string): string {
  return pathOfPointer(pointer).at(-1) ?? "";
}

interface ObjectSchema {
  type?: unknown;
  properties?: Record<string, unknown>;
  required?: string[];
}

/**
 * Marks what the app requires as required in the endpoints' request schemas (the MCP tools' inputs): each field a
 * validation rule (never a PATCH's `only_when_sent` one) shows the app refusing a request without, through a wrapped
 * body's objects (`issue.subject`). A request schema alone requires only what every recorded request sent, and a
 * recorded failure lacks exactly the field the app requires.
 */
export function requireValidatedFields(endpoints: Endpoint[], validations: ValidationRule[]): void {
  const byTool = new Map(endpoints.map((e) => [e.tool_name, e]));
  for (const v of validations) {
    // A type, null or range rule says how a sent value fails, not that the field must be sent.
    if (v.only_when_sent || v.kind !== undefined) continue;
    let schema = byTool.get(v.tool_name)?.request_schema as ObjectSchema | null | undefined;
    for (const key of pathOfPointer(v.pointer)) {
      if (schema?.type !== "object" || !isObject(schema.properties?.[key])) break;
      if (!(schema.required ?? []).includes(key)) schema.required = [...(schema.required ?? []), key].sort();
      schema = schema.properties![key] as ObjectSchema;
    }
  }
}
