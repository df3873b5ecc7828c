/**
 * Generalises partial updates to fields the recording never patched. A PATCH
 * recorded only with `done` learns `title: keep`; yet the create (or the PUT)
 * of the same collection proves `title` is client-settable, so the real app
 * changes it when a PATCH sends it. Such a `keep` becomes `from_request`,
 * otherwise kept, naming the write that proves it (`settable_by`). A replace
 * recorded only with `title` (a PUT that builds the whole entity) takes the
 * fields the create or the PATCH take the same way, otherwise left out.
 */

import type { Endpoint, FieldRule, WriteRule } from "../model/model-schema.js";
import { keyOfPointer } from "../util/json-pointer.js";
import type { EndpointGroup } from "./endpoint-index.js";
import { isRedirect } from "./redirect-location.js";
import { isObject } from "./value-kinds.js";
import type { WriteDraft } from "./write-rules.js";
import type { WriteTarget } from "./write-targets.js";

/** A write that is served: its endpoint, what it writes, and its rule as its own observations taught it. */
export interface ServedWrite {
  group: EndpointGroup;
  target: WriteTarget;
  rule: WriteDraft;
  /** For a route served for one query only (query-variants.ts): its observations of that query. */
  variant?: EndpointGroup;
  /** Other variants of the route are served too (write-variants.ts): its explain() says nothing it leaves out. */
  siblings?: true;
}

type FromRequest = Extract<FieldRule, { kind: "from_request" }>;

/** Rules that mean the app assigns the field: never client-settable, whatever a request says. */
const ASSIGNED = new Set(["id_sequence", "uuid", "clock", "path_param", "from_id"]);

/** True when a successful observation of the endpoint sent `key` in its body. */
function sentBy(group: EndpointGroup, key: string): boolean {
  return group.observations.some(
    (o) =>
      ((o.status >= 200 && o.status < 300) || isRedirect(o.status)) &&
      (o.request.kind === "json" || o.request.kind === "form") &&
      o.request.value !== null &&
      typeof o.request.value === "object" &&
      Object.hasOwn(o.request.value as object, key),
  );
}

/** Where each field of a collection is taken from the request, by the first write proving it (create, PUT, PATCH). */
function settableFields(
  writes: ServedWrite[],
  collection: string,
): Map<string, { by: string; rule: FromRequest }> {
  const order = { create: 0, update: 1, patch: 2 } as Record<string, number | undefined>;
  const sources = writes
    .filter((w) => w.rule.collection === collection && order[w.target.endpointKind] !== undefined)
    .sort(
      (a, b) =>
        order[a.target.endpointKind]! - order[b.target.endpointKind]! ||
        (a.rule.tool_name < b.rule.tool_name ? -1 : 1),
    );
  const assigned = new Set(
    writes
      .filter((w) => w.rule.collection === collection)
      .flatMap((w) => w.rule.fields.filter((f) => ASSIGNED.has(f.rule.kind)).map((f) => f.field)),
  );
  const out = new Map<string, { by: string; rule: FromRequest }>();
  for (const w of sources)
    for (const f of w.rule.fields)
      if (f.rule.kind === "from_request" && f.rule.settable_by === undefined && !assigned.has(f.field))
        if (!out.has(f.field))
          out.set(f.field, { by: `${w.group.method} ${w.group.template}`, rule: f.rule });
  return out;
}

/** A write endpoint and what it writes, served or withheld. */
export interface TargetedWrite {
  group: EndpointGroup;
  target: WriteTarget;
}

/** True when a successful observation sent `key` and its answer (an entity) shows `field` with another value. */
function answeredOtherwise(group: EndpointGroup, field: string, key: string): boolean {
  return group.observations.some((o) => {
    if (!((o.status >= 200 && o.status < 300) || isRedirect(o.status))) return false;
    const sent = o.request.kind === "json" || o.request.kind === "form" ? o.request.value : null;
    const answer = o.response.kind === "json" ? o.response.value : null;
    if (!isObject(sent) || !Object.hasOwn(sent, key) || !isObject(answer) || !Object.hasOwn(answer, field))
      return false;
    // Form values are strings: compare them as text.
    return o.request.kind === "form"
      ? String(answer[field]) !== sent[key]
      : JSON.stringify(answer[field]) !== JSON.stringify(sent[key]);
  });
}

/**
 * True when an update (PATCH or PUT) of the collection was seen to receive `key` and not take `field` from it
 * (the app ignores it: the field is fixed once created): a served one whose rule keeps the field although it
 * was sent, or a withheld one whose answer shows another value than the one sent.
 */
function ignored(
  updates: TargetedWrite[],
  served: ServedWrite[],
  collection: string,
  field: string,
  key: string,
): boolean {
  return updates.some((u) => {
    if (u.target.collection.name !== collection) return false;
    if (u.target.endpointKind !== "patch" && u.target.endpointKind !== "update") return false;
    const rule = served.find((w) => w.group === u.group)?.rule;
    if (!rule) return answeredOtherwise(u.group, field, key);
    const takes = rule.fields.some(
      (f) => f.field === field && f.rule.kind === "from_request" && keyOfPointer(f.rule.pointer) === key,
    );
    return !takes && sentBy(u.group, key);
  });
}

/**
 * The fields of each PATCH and PUT rule with every `keep` widened that another confirmed write of the
 * collection takes from the request (and, for a partial update, such a field it holds no rule for added); never the id field, a field the app assigns anywhere, or a field an
 * update of the collection (of `all` the writes, served or withheld) sent without being proven to take it.
 * Only widened writes are in the map; the drafts are not changed.
 */
export function widenSettable(
  writes: ServedWrite[],
  all: TargetedWrite[],
): Map<ServedWrite, WriteDraft["fields"]> {
  const byCollection = new Map<string, Map<string, { by: string; rule: FromRequest }>>();
  const widened = new Map<ServedWrite, WriteDraft["fields"]>();
  for (const w of writes) {
    const kind = w.target.endpointKind;
    if (kind !== "patch" && kind !== "update" && kind !== "create") continue;
    const col = w.rule.collection;
    if (!byCollection.has(col)) byCollection.set(col, settableFields(writes, col));
    const settable = byCollection.get(col)!;
    // A create, and a replace (which builds the whole entity, leaving out what it has no rule for), take from the
    // request each field another confirmed write of the collection takes, where they never received it.
    if (kind === "create" || w.rule.kind === "replace") {
      const fields = widenCreate(w, settable, all, writes);
      if (fields !== w.rule.fields) widened.set(w, fields);
      if (kind === "create") continue;
    }
    const base = widened.get(w) ?? w.rule.fields;
    const fields = base.map((f) => {
      if (f.rule.kind !== "keep" || f.field === w.target.collection.idField) return f;
      const source = settable.get(f.field);
      if (!source || source.by === `${w.group.method} ${w.group.template}`) return f;
      if (ignored(all, writes, col, f.field, keyOfPointer(source.rule.pointer))) return f;
      const rule: FieldRule = {
        kind: "from_request",
        pointer: source.rule.pointer,
        otherwise: { kind: "keep" },
        settable_by: source.by,
      };
      return { field: f.field, rule };
    });
    // A field no entity this update wrote ever held (a todo's `tag`, never set on the ones patched) has no rule of
    // its own: where another write takes it from the request, an update sending it sets it too, else keeps it.
    const own = `${w.group.method} ${w.group.template}`;
    const ruled = new Set(base.map((f) => f.field));
    if (w.rule.kind === "merge")
      for (const [field, source] of [...settable].sort(([a], [b]) => (a < b ? -1 : 1))) {
        if (ruled.has(field) || source.by === own || field === w.target.collection.idField) continue;
        const key = keyOfPointer(source.rule.pointer);
        if (sentBy(w.group, key) || ignored(all, writes, col, field, key)) continue;
        fields.push({
          field,
          rule: {
            kind: "from_request",
            pointer: source.rule.pointer,
            otherwise: { kind: "keep" },
            settable_by: source.by,
          },
        });
      }
    if (fields.length !== base.length || fields.some((f, i) => f !== base[i])) widened.set(w, fields);
  }
  return widened;
}

/**
 * A create's (or a replace's) fields widened by what the other writes of its collection take from the request: a
 * field it never received (none of its successful observations sent the key) and holds no rule for, or holds only as a constant
 * (the value every recorded create left it at), is taken from the request when sent, else left out or kept at
 * that constant. Never the id, a field the app assigns, or one an update was seen to ignore. Returns the draft's
 * own array when nothing is widened.
 */
function widenCreate(
  w: ServedWrite,
  settable: Map<string, { by: string; rule: FromRequest }>,
  all: TargetedWrite[],
  writes: ServedWrite[],
): WriteDraft["fields"] {
  const own = `${w.group.method} ${w.group.template}`;
  const col = w.rule.collection;
  const has = new Map(w.rule.fields.map((f) => [f.field, f.rule]));
  const widen = (field: string, otherwise: FromRequest["otherwise"]): FieldRule | null => {
    const source = settable.get(field);
    if (!source || source.by === own || field === w.target.collection.idField) return null;
    const key = keyOfPointer(source.rule.pointer);
    if (sentBy(w.group, key) || ignored(all, writes, col, field, key)) return null;
    return { kind: "from_request", pointer: source.rule.pointer, otherwise, settable_by: source.by };
  };
  let changed = false;
  // A constant, or the constant of each request value a `cases` rule holds (a file's "" content, a notebook's JSON).
  const widenConstant = (field: string, rule: FieldRule): FieldRule => {
    if (rule.kind === "cases") {
      const cases = rule.cases.map((c) => ({ value: c.value, rule: widenConstant(field, c.rule) }));
      return cases.some((c, i) => c.rule !== rule.cases[i]!.rule) ? { ...rule, cases } : rule;
    }
    if (rule.kind !== "constant") return rule;
    const widened = widen(field, { kind: "constant", value: rule.value });
    if (!widened) return rule;
    changed = true;
    return widened;
  };
  const fields = w.rule.fields.map((f) => {
    const rule = widenConstant(f.field, f.rule);
    return rule === f.rule ? f : { field: f.field, rule };
  });
  for (const field of [...settable.keys()].sort()) {
    if (has.has(field)) continue;
    const rule = widen(field, { kind: "omit" });
    if (!rule) continue;
    changed = true;
    fields.push({ field, rule });
  }
  return changed ? fields : w.rule.fields;
}

/**
 * Mirrors the widening in the endpoints' request schemas, which become the
 * MCP tools' inputs: each widened field is a property (its schema taken from
 * the write that proves it), and a PATCH requires nothing, since any subset of
 * its fields is a valid partial update. Otherwise a client that validates
 * inputs would refuse `{title}` on a PATCH recorded only with `done`.
 */
export function widenRequestSchemas(endpoints: Endpoint[], rules: WriteRule[]): void {
  const byTool = new Map(endpoints.map((e) => [e.tool_name, e]));
  const byRoute = new Map(endpoints.map((e) => [`${e.method} ${e.template}`, e]));
  for (const rule of rules) {
    const endpoint = byTool.get(rule.tool_name);
    const schema = endpoint?.request_schema as JsonObjectSchema | null | undefined;
    if (!endpoint || !schema || schema.type !== "object") continue;
    for (const f of rule.fields) {
      if (f.rule.kind !== "from_request" || f.rule.settable_by === undefined) continue;
      const key = keyOfPointer(f.rule.pointer);
      const source = byRoute.get(f.rule.settable_by)?.request_schema as JsonObjectSchema | null | undefined;
      const property = source?.properties?.[key];
      if (property === undefined || schema.properties?.[key] !== undefined) continue;
      schema.properties = sortedProperties({ ...(schema.properties ?? {}), [key]: property });
    }
    if (endpoint.kind === "patch") delete schema.required;
  }
}

interface JsonObjectSchema {
  type?: unknown;
  properties?: Record<string, unknown>;
  required?: string[];
}

function sortedProperties(p: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.keys(p)
      .sort()
      .map((k) => [k, p[k]]),
  );
}
