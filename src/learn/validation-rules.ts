/**
 * Learns the validation failures a recording confirms: a write answered 400
 * or 422 whose request lacked a field (or left it blank) that every
 * successful request of the endpoint sent non-empty. The twin answers such a
 * request with the recorded status and body, before applying the write.
 */
import type { Endpoint, ValidationRule } from "../model/model-schema.js";
import { pathOfPointer, pointerOf, readPointer } from "../util/json-pointer.js";
import type { EndpointGroup, Observation } from "./endpoint-index.js";
import { canned } from "./read-model.js";
import { isRedirect } from "./redirect-location.js";
import { isObject } from "./value-kinds.js";

/** Statuses that answer an invalid body; 401/403/404/409/413 and the like mean something else (decision). */
const VALIDATION_STATUSES = new Set([400, 422]);

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
  if (typeof value === "string") return value === name;
  if (Array.isArray(value)) return value.some((v) => names(v, name, depth + 1));
  if (isObject(value)) return Object.entries(value).some(([k, v]) => k === name || names(v, name, depth + 1));
  return false;
}

/**
 * The validation rules of one write endpoint. A failure lacking
 * several required fields is attributed only to the one its answer names, and never to one when its answer
 * names another field it sent; a PATCH's only to a field it sent null or blank; a field whose failures
 * answered differently gets no rule.
 */
export function learnValidations(group: EndpointGroup): ValidationRule[] {
  const none: ValidationRule[] = [];
  if (group.method === "DELETE") return none;
  const success = group.observations.filter(
    (o) => (o.status >= 200 && o.status < 300) || isRedirect(o.status),
  );
  const bodies = success.map(bodyOf);
  if (bodies.length === 0 || bodies.some((b) => b === null)) return none;
  // A field of a wrapped body (`{issue: {subject}}`) is required as much as a top-level one.
  const required = [...leaves(bodies[0]!).keys()].filter((p) =>
    bodies.every((b) => !isBlank(readPointer(b, p))),
  );
  // A PATCH may leave any field out: only a field it sent null or blank can be what the app refused.
  const partial = group.method === "PATCH";
  const byField = new Map<string, Observation[]>();
  for (const o of group.observations) {
    const body = bodyOf(o);
    if (!VALIDATION_STATUSES.has(o.status) || body === null) continue;
    let lacking = required.filter((p) => {
      const v = readPointer(body, p);
      return isBlank(v) && (!partial || v !== undefined);
    });
    const answer = o.response.kind === "json" ? o.response.value : undefined;
    if (lacking.length > 1) lacking = lacking.filter((p) => names(answer, keyOf(p)));
    if (lacking.length !== 1) continue;
    const field = lacking[0]!;
    // An answer naming another field the request sent, and not this one, blames that field (`{field: "status"}`).
    const sent = [...leaves(body).keys()].filter((p) => p !== field).map(keyOf);
    const blamed = sent.some((k) => k !== keyOf(field) && names(answer, k));
    if (blamed && !names(answer, keyOf(field))) continue;
    const list = byField.get(field) ?? [];
    list.push(o);
    byField.set(field, list);
  }
  const rules: ValidationRule[] = [];
  for (const pointer of [...byField.keys()].sort()) {
    const failures = byField.get(pointer)!;
    const answers = failures.map(canned);
    if (new Set(answers.map((a) => JSON.stringify(a))).size > 1) continue;
    const field = pathOfPointer(pointer).join(".");
    const at = failures.map((o) => `records[${o.index}]`).join(", ");
    const head = `${group.method} ${group.template} answers ${answers[0]!.status} with the recorded body when the request body`;
    rules.push({
      tool_name: group.toolName,
      field,
      pointer,
      ...answers[0]!,
      ...(partial ? { only_when_sent: true } : {}),
      explain: partial
        ? `${head} sends ${JSON.stringify(field)} null or blank (a partial update may leave it out; recorded at ${at}).`
        : `${head} lacks ${JSON.stringify(field)} or leaves it blank (every successful request sent it; recorded at ${at}).`,
    });
  }
  return rules;
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
    if (v.only_when_sent) continue;
    let schema = byTool.get(v.tool_name)?.request_schema as ObjectSchema | null | undefined;
    for (const key of pathOfPointer(v.pointer)) {
      if (schema?.type !== "object" || !isObject(schema.properties?.[key])) break;
      if (!(schema.required ?? []).includes(key)) schema.required = [...(schema.required ?? []), key].sort();
      schema = schema.properties![key] as ObjectSchema;
    }
  }
}
