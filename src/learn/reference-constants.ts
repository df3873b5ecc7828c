/**
 * Constants a write's answer holds because its request named one same
 * reference every time (issue 10 item 5; session-5 review P6): every recorded
 * create sent `project_id: "website"` and answered `project: {id: 1, name:
 * "Website"}`, so `project` was learned as that constant, and a create naming
 * another project was answered with Website. A constant is kept only under the
 * condition it was recorded in (`given`): the field a request field names as its
 * reference (`project` for `project_id`, `projectId`, `project_ids`, or
 * `project` itself sent as a scalar), or, inside an object whose `id` is taken
 * from the request (`priority: {id: <priority_id>, name: "Urgent"}`), the
 * siblings of that id. The twin answers such a constant only for a request
 * that sends one of the recorded values there, and an explained miss for any
 * other (serve's apply-field-rules.ts): the app looked the value up, and the
 * recording does not tell what it gives for another reference.
 */
import type { FieldEntry, FieldRule } from "../model/model-schema.js";
import { canonicalJsonCompact } from "../util/canonical-json.js";
import { isCredentialName } from "../util/credential-name.js";
import { pathOfPointer, pointerOf, readPointer } from "../util/json-pointer.js";

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** The request pointers (top level, or one wrapper down: `{issue: {...}}`) any body sent, by their last key. */
function sentPointers(bodies: unknown[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const add = (key: string, pointer: string) => {
    const list = out.get(key) ?? [];
    if (!list.includes(pointer)) out.set(key, [...list, pointer]);
  };
  for (const b of bodies) {
    if (!isObject(b)) continue;
    for (const [k, v] of Object.entries(b)) {
      add(k, pointerOf(k));
      if (isObject(v)) for (const inner of Object.keys(v)) add(inner, `${pointerOf(k)}${pointerOf(inner)}`);
    }
  }
  return out;
}

/** The names a request field referencing `field` may have. */
function referenceNames(field: string): string[] {
  return [`${field}_id`, `${field}Id`, `${field}_ids`, `${field}Ids`];
}

/**
 * The condition the recorded bodies put at `pointer`: the values they sent there, and whether some sent nothing; or
 * null where the values cannot be a condition: the field holds a credential (its name says so, or capture redacted a
 * value of it), so the recording kept only markers, which no real request sends — the constant stays unconditioned
 * and no credential is ever compared or quoted back.
 */
function givenAt(
  bodies: unknown[],
  pointer: string,
): { pointer: string; values: string[]; absent: boolean } | null {
  const last = pathOfPointer(pointer).at(-1) ?? "";
  if (isCredentialName(last)) return null;
  const values = new Set<string>();
  let absent = false;
  for (const b of bodies) {
    const v = readPointer(b, pointer);
    if (v === undefined) absent = true;
    else values.add(canonicalJsonCompact(v));
  }
  if ([...values].some((v) => v.includes(REDACTED))) return null;
  return { pointer, values: [...values].sort(), absent };
}

const REDACTED = "[REDACTED:";

/** The one pointer of the request that names `field` as its reference, or null (none, or two: ambiguous). */
function referencePointer(
  field: string,
  value: unknown,
  sent: Map<string, string[]>,
  bodies: unknown[],
): string | null {
  const named = referenceNames(field).flatMap((n) => sent.get(n) ?? []);
  // The field itself sent as a scalar and answered as an object (`project: "website"` → `project: {…}`).
  const self = isObject(value)
    ? (sent.get(field) ?? []).filter((p) => bodies.every((b) => !isObject(readPointer(b, p))))
    : [];
  const all = [...new Set([...named, ...self])];
  return all.length === 1 ? all[0]! : null;
}

function conditioned(
  rule: FieldRule,
  given: { pointer: string; values: string[]; absent: boolean },
): FieldRule {
  return rule.kind === "constant" ? { ...rule, given } : rule;
}

/**
 * The fields with each constant a request reference decides put under its recorded condition. `bodies`: the request
 * bodies of the write's successful observations.
 */
export function withReferenceConditions(fields: FieldEntry[], bodies: unknown[]): FieldEntry[] {
  if (bodies.length === 0) return fields;
  const sent = sentPointers(bodies);
  return fields.map(({ field, rule }) => {
    if (rule.kind === "constant" && rule.given === undefined) {
      const pointer = referencePointer(field, rule.value, sent, bodies);
      const given = pointer === null ? null : givenAt(bodies, pointer);
      return given === null ? { field, rule } : { field, rule: conditioned(rule, given) };
    }
    if (rule.kind === "object") {
      const id = rule.fields.find((f) => f.rule.kind === "from_request" && /(^id$|_id$|Id$)/.test(f.field));
      if (id?.rule.kind !== "from_request" || !rule.fields.some((f) => f.rule.kind === "constant")) {
        return { field, rule };
      }
      const given = givenAt(bodies, id.rule.pointer);
      if (given === null) return { field, rule };
      return {
        field,
        rule: {
          ...rule,
          fields: rule.fields.map((f) => ({ field: f.field, rule: conditioned(f.rule, given) })),
        },
      };
    }
    return { field, rule };
  });
}
