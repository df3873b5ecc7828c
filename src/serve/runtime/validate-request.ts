/**
 * Validation failures the recording confirmed (model `validations`): a write
 * whose body is missing or blank in a field every successful request sent (or
 * sends a value of another type, null, a number beyond the recorded
 * failure's, or a field no success sent, per the rule's kind) is answered with the app's recorded status
 * and body, before any write, even when the endpoint's successful write is withheld.
 */
import type { Model, RefusedBody, ValidationRule } from "../../model/model-schema.js";
import { canonicalJsonCompact } from "../../util/canonical-json.js";
import { bodyObject } from "./apply-field-rules.js";
import { locate } from "./collection-read.js";
import { readPointer } from "./json-text.js";
import { recordedAnswer } from "./recorded-answer.js";
import type { Episode, TwinRequest, TwinResponse } from "./twin-types.js";

const rulesByTool = new WeakMap<Model, Map<string, ValidationRule[]>>();

function rulesOf(model: Model, tool: string): ValidationRule[] {
  let index = rulesByTool.get(model);
  if (!index) {
    index = new Map();
    for (const v of model.validations ?? []) index.set(v.tool_name, [...(index.get(v.tool_name) ?? []), v]);
    rulesByTool.set(model, index);
  }
  return index.get(tool) ?? [];
}

const blank = (v: unknown) => v === undefined || v === null || (typeof v === "string" && v.trim() === "");

/** The JSON type of a sent value (integers are numbers), or null for null and undefined. */
function jsonType(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  return Array.isArray(v) ? "array" : typeof v;
}

/** True when the value the request sent in the rule's field is the failure the rule recorded. */
function fails(r: ValidationRule, v: unknown): boolean {
  switch (r.kind) {
    case "type": {
      const t = jsonType(v);
      return t !== null && !(r.types ?? []).includes(t as never);
    }
    case "null":
      return v === null;
    case "sent":
      return v !== undefined;
    case "range":
      return (
        typeof v === "number" &&
        ((r.below !== undefined && v <= r.below) || (r.above !== undefined && v >= r.above))
      );
    default:
      return blank(v) && !(r.only_when_sent && v === undefined);
  }
}

/** Where a state rule (`stale`, `unique`) looks: the episode and the request's path params. */
export interface ValidationPlace {
  episode: Episode;
  params: Record<string, string>;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Whether an `If-Match` value lets a write to an entity whose tag is `held` through (RFC 9110 13.1.1): `*` (any
 * current entity), or a comma-separated list of entity tags one of which is `held` exactly, as the recorded successes
 * sent it (so a weak `W/"v2"` matches a held `"v2"` no more than it did). A value that is no such list (an app's
 * unquoted token) is compared whole.
 */
export function ifMatchHolds(sent: string, held: string): boolean {
  const value = sent.trim();
  if (value === "*") return true;
  const tags = value.match(/(?:W\/)?"[^"]*"/g);
  const rest = value.replace(/(?:W\/)?"[^"]*"/g, "").replace(/[\s,]/g, "");
  if (!tags || rest !== "") return value === held;
  return tags.some((t) => t === held);
}

/**
 * True when the state refutes the sent value: the entity the path names holds another value (`stale`), or an
 * entity of the write's scope holds this one (`unique`). False when the tool writes no collection the model has.
 */
function conflicts(model: Model, r: ValidationRule, v: unknown, at: ValidationPlace | undefined): boolean {
  if (v === undefined || !at) return false;
  const rule = model.write_rules.find((w) => w.tool_name === r.tool_name);
  const c = rule && model.collections.find((x) => x.name === rule.collection);
  if (!rule || !c) return false;
  const list = at.episode.state.collection(c.name);
  if (r.kind === "stale") {
    const entity = locate(c, list, at.params, rule.id_param ?? "");
    // A header rule compares the sent tag with the entity's ETag (its field in the tag's format).
    if (r.header !== undefined) {
      const f = c.etag ? entity?.[c.etag.field] : undefined;
      if (typeof f !== "string" && typeof f !== "number") return false;
      const held = `${c.etag!.prefix}${f}${c.etag!.suffix}`;
      return r.header.toLowerCase() === "if-match" ? !ifMatchHolds(String(v), held) : v !== held;
    }
    const field = r.entity_field ?? r.field;
    return entity !== undefined && Object.hasOwn(entity, field) && !same(entity[field], v);
  }
  return clashing(model, r, v, at) !== null;
}

/** As the rule compares: exactly, or (with `ignore_case`) as strings whose letter case alone differs. */
function sameAs(r: ValidationRule, a: unknown, b: unknown): boolean {
  if (same(a, b)) return true;
  return (
    r.ignore_case === true &&
    typeof a === "string" &&
    typeof b === "string" &&
    a.toLowerCase() === b.toLowerCase()
  );
}

/**
 * The entity of the write's scope already holding the sent value in the rule's field (`unique`), or null. An update
 * never clashes with the entity its path names (a rename onto its own id, a value it holds itself).
 */
function clashing(
  model: Model,
  r: ValidationRule,
  v: unknown,
  at: ValidationPlace | undefined,
): Record<string, unknown> | null {
  if (v === undefined || !at) return null;
  const rule = model.write_rules.find((w) => w.tool_name === r.tool_name);
  const c = rule && model.collections.find((x) => x.name === rule.collection);
  if (!rule || !c) return null;
  const field = r.entity_field ?? r.field;
  const scope = c.parent ? at.params[c.parent.param] : undefined;
  const list = at.episode.state.collection(c.name);
  const self = rule.id_param ? locate(c, list, at.params, rule.id_param) : undefined;
  for (const e of list.values())
    if (e !== self && sameAs(r, e[field], v) && (scope === undefined || String(e[c.parent!.field]) === scope))
      return e;
  return null;
}

/**
 * The rule's recorded answer, with the clashing entity's id where the app echoed it (`clash`), and its texts spelling
 * the value this request sent and the id its path names where the recorded ones spelled their own (`spell`).
 */
function answerOf(
  model: Model,
  r: ValidationRule,
  tool: string,
  body: unknown,
  at?: ValidationPlace,
): TwinResponse {
  const res = recordedAnswer(r, "validation", tool);
  const rule = model.write_rules.find((w) => w.tool_name === r.tool_name);
  const sent = readPointer(body, r.pointer);
  if (r.spell?.length) spell(res, r.spell, sent, rule?.id_param ? at?.params[rule.id_param] : undefined);
  if (!r.clash?.length || res.body?.kind !== "json") return res;
  const c = rule && model.collections.find((x) => x.name === rule.collection);
  const e = c ? clashing(model, r, sent, at) : null;
  const id = e && c ? e[c.id_field] : undefined;
  if (id === undefined) return res;
  for (const p of r.clash) setPointer(res.body.value, p, id);
  return res;
}

/**
 * Spells, in the answer's texts, the request's own value and path id where the recorded refusal spelled its own. A
 * text needing an id the path does not name (a create's) stays as recorded; only what the request sent is spelled.
 */
export function spell(
  res: TwinResponse,
  texts: NonNullable<ValidationRule["spell"]>,
  sent: unknown,
  ownId: string | undefined,
): void {
  if (typeof sent !== "string" && typeof sent !== "number") return;
  for (const t of texts) {
    if (t.parts.some((p) => typeof p !== "string" && p.from === "own_id") && ownId === undefined) continue;
    const text = t.parts
      .map((p) => (typeof p === "string" ? p : p.from === "value" ? String(sent) : ownId!))
      .join("");
    if (t.pointer === "" && res.body?.kind === "text") res.body = { ...res.body, text };
    else if (t.pointer !== "" && res.body?.kind === "json") setPointer(res.body.value, t.pointer, text);
  }
}

/** Sets the value at an RFC 6901 pointer of a JSON value whose parents exist. */
function setPointer(root: unknown, pointer: string, value: unknown): void {
  const path = pointer
    .split("/")
    .slice(1)
    .map((k) => k.replace(/~1/g, "/").replace(/~0/g, "~"));
  let node = root as Record<string, unknown> | null;
  for (const key of path.slice(0, -1)) node = (node?.[key] ?? null) as Record<string, unknown> | null;
  if (node && typeof node === "object") node[path.at(-1)!] = value;
}

const refusedByTool = new WeakMap<Model, Map<string, Map<string, RefusedBody>>>();

/** The app's recorded refusal of this very body (`refused_bodies`), or null. */
function refusedBody(model: Model, tool: string, body: unknown): TwinResponse | null {
  if (!model.refused_bodies?.length || body === null || typeof body !== "object") return null;
  let index = refusedByTool.get(model);
  if (!index) {
    index = new Map();
    for (const r of model.refused_bodies) {
      const byBody = index.get(r.tool_name) ?? new Map<string, RefusedBody>();
      byBody.set(canonicalJsonCompact(r.request), r);
      index.set(r.tool_name, byBody);
    }
    refusedByTool.set(model, index);
  }
  const hit = index.get(tool)?.get(canonicalJsonCompact(body));
  return hit ? recordedAnswer(hit, "validation", tool) : null;
}

/** The recorded failure the request earns, or null when no rule applies (or its body is not an object). */
export function validateRequest(
  model: Model,
  tool: string,
  req: TwinRequest,
  at?: ValidationPlace,
): TwinResponse | null {
  // The very body the app refused comes first: the recording's own answer to it.
  const exact = refusedBody(model, tool, bodyObject(req.body));
  if (exact) return exact;
  const rules = rulesOf(model, tool);
  if (rules.length === 0) return null;
  // A rule on a request header (a stale If-Match) applies whatever the body.
  const byHeader = rules.find(
    (r) => r.header !== undefined && conflicts(model, r, req.headers[r.header], at),
  );
  if (byHeader) return recordedAnswer(byHeader, "validation", tool);
  const body = bodyObject(req.body);
  // Only an object body was ever recorded failing; the app's answer to anything else is unknown.
  if (body === null || typeof body !== "object" || Array.isArray(body)) return null;
  const rule = rules.find((r) => {
    if (r.header !== undefined) return false;
    const v = readPointer(body, r.pointer);
    return r.kind === "stale" || r.kind === "unique" ? conflicts(model, r, v, at) : fails(r, v);
  });
  if (!rule) return null;
  return answerOf(model, rule, tool, body, at);
}
