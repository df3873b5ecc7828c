/**
 * Assembles each served write's rule once, from everything learning knows:
 * the draft its own observations taught (write-rules.ts), the fields other
 * writes of its collection prove client-settable (settable-fields.ts), and
 * the start of its id sequence, after the highest id of the whole recording.
 * Its explain() sentence is computed last, here and nowhere else, so it
 * always says what the finished rule does (definitions apart from the
 * runtime that executes them, as in mockttp).
 */
import type { FieldEntry, FieldRule, WriteRule } from "../model/model-schema.js";
import { pointerOf, readPointer } from "../util/json-pointer.js";
import type { EndpointGroup } from "./endpoint-index.js";
import { explainWrite } from "./explain.js";
import type { ReusePolicy } from "./id-sequences.js";
import { variantText } from "./query-variants.js";
import { isRedirect } from "./redirect-location.js";
import { withReferenceConditions } from "./reference-constants.js";
import { withReferencedFormats } from "./referenced-formats.js";
import { type ServedWrite, type TargetedWrite, widenSettable } from "./settable-fields.js";
import { writeQuery, writeQueryText } from "./write-queries.js";

/**
 * A rule tree whose id sequences start where their counters continue (`sequence`, else the collection's), and say
 * reuse of a freed id is undecided only where the twin serves a delete of the collection (`deletes`): elsewhere
 * no id is ever freed, so the question never arises.
 */
function withStarts(
  rule: FieldRule,
  collection: string,
  next: Readonly<Record<string, number>>,
  deletes: boolean,
  policy: ReusePolicy | null = null,
): FieldRule {
  if (rule.kind === "id_sequence" && rule.after === undefined) {
    const { freed, ...rest } = rule;
    const start = next[rule.sequence ?? collection] ?? rule.start;
    // Undecided here, decided by another collection of the app: theirs, labelled inferred. A shared sequence's
    // reuse is never inferred (the highest present is of two collections).
    if (freed && deletes && policy && !policy.from.includes(collection)) {
      const inferred = { freed: "inferred" as const, inferred_from: policy.from };
      if (policy.policy === "monotonic") return { ...rest, start, ...inferred };
      if (rule.sequence === undefined)
        return { kind: "id_sequence", start: 1, step: rule.step, after: "present", ...inferred };
    }
    return { ...rest, start, ...(freed && deletes ? { freed } : {}) };
  }
  if (rule.kind === "object")
    return {
      ...rule,
      fields: rule.fields.map((f) => ({
        field: f.field,
        rule: withStarts(f.rule, collection, next, deletes, policy),
      })),
    };
  if (rule.kind === "array")
    return { kind: "array", items: rule.items.map((r) => withStarts(r, collection, next, deletes, policy)) };
  if (rule.kind === "cases")
    return {
      ...rule,
      cases: rule.cases.map((c) => ({
        value: c.value,
        rule: withStarts(c.rule, collection, next, deletes, policy),
      })),
    };
  return rule;
}

/** The finished rule of every served write, by its endpoint. */
export function assembleWriteRules(
  served: ServedWrite[],
  targeted: TargetedWrite[],
  idSequences: Readonly<Record<string, number>>,
  known: ReadonlySet<string> = new Set(),
  policy: ReusePolicy | null = null,
  /** The other served variants of routes in `served` (write-variants.ts): their deletes free ids too. */
  variants: readonly ServedWrite[] = [],
): Map<EndpointGroup, WriteRule> {
  const widened = widenSettable(served, targeted);
  const deleted = new Set(
    [...served, ...variants].filter((w) => w.rule.kind === "delete").map((w) => w.rule.collection),
  );
  return new Map(
    served.map((w) => {
      const own = widened.get(w) ?? w.rule.fields;
      // After the widening: a field a create left unset proves nothing settable for another write.
      const unset = w.target.kind === "create" ? unsetFields(own, w.group, w.target.collection.idField) : own;
      // A route served for one query only is learned, guarded and explained by that query's observations.
      const mine = w.variant ?? w.group;
      const bodies = sentBodies(mine);
      const referenced = withReferenceConditions(unset, bodies);
      // A create's format whose literal may be the one entity every recorded create named (referenced-formats.ts).
      const guarded =
        w.target.kind === "create" ? withReferencedFormats(referenced, bodies, known) : referenced;
      const fields = guarded.map((f) => ({
        field: f.field,
        rule: withStarts(f.rule, w.rule.collection, idSequences, deleted.has(w.rule.collection), policy),
      }));
      // A write by query is named by its query: its recorded values are examples of a filter, never a guard.
      const query = w.rule.by_query ? undefined : writeQuery(mine);
      const rule = { ...w.rule, ...(query ? { query } : {}), fields };
      const explain =
        explainWrite(rule, w.group.method, w.group.template) +
        writeQueryText(query) +
        (w.variant && !w.siblings ? variantText(w.group, w.variant, query !== undefined) : "");
      return [w.group, { ...rule, explain }];
    }),
  );
}

/** The request bodies of an endpoint's successful observations. */
function sentBodies(group: EndpointGroup): unknown[] {
  return group.observations.flatMap((o) =>
    ((o.status >= 200 && o.status < 300) || isRedirect(o.status)) &&
    (o.request.kind === "json" || o.request.kind === "form")
      ? [o.request.value]
      : [],
  );
}

/**
 * A create's field every answer gave one empty value (`""` or null) and no successful request sent is one the client
 * left unset: a request that sends it sets it (nothing recorded contradicts that), else it is the empty value. Its
 * pointer sits where the rule's other request values do (`/issue/description` beside `/issue/subject`).
 */
export function unsetFields(fields: FieldEntry[], group: EndpointGroup, idField: string): FieldEntry[] {
  const parents = new Set(
    fields.flatMap((f) =>
      f.rule.kind === "from_request" ? [f.rule.pointer.slice(0, f.rule.pointer.lastIndexOf("/"))] : [],
    ),
  );
  const parent = parents.size === 1 ? [...parents][0]! : "";
  const bodies = sentBodies(group);
  // An empty constant, or the empty constant of each request value a `cases` rule holds.
  const unset = (pointer: string, rule: FieldRule): FieldRule => {
    if (rule.kind === "cases") {
      const cases = rule.cases.map((c) => ({ value: c.value, rule: unset(pointer, c.rule) }));
      return cases.some((c, i) => c.rule !== rule.cases[i]!.rule) ? { ...rule, cases } : rule;
    }
    if (rule.kind !== "constant" || (rule.value !== "" && rule.value !== null)) return rule;
    return { kind: "from_request", pointer, otherwise: { kind: "constant", value: rule.value } };
  };
  return fields.map((f) => {
    if (f.field === idField) return f;
    const pointer = `${parent}${pointerOf(f.field)}`;
    if (bodies.some((b) => readPointer(b, pointer) !== undefined)) return f;
    const rule = unset(pointer, f.rule);
    return rule === f.rule ? f : { field: f.field, rule };
  });
}
