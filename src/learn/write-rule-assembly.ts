/**
 * Assembles each served write's rule once, from everything learning knows:
 * the draft its own observations taught (write-rules.ts), the fields other
 * writes of its collection prove client-settable (settable-fields.ts), and
 * the start of its id sequence, after the highest id of the whole recording.
 * Its explain() sentence is computed last, here and nowhere else, so it
 * always says what the finished rule does (definitions apart from the
 * runtime that executes them, as in mockttp).
 */
import type { FieldRule, WriteRule } from "../model/model-schema.js";
import type { EndpointGroup } from "./endpoint-index.js";
import { explainWrite } from "./explain.js";
import { type ServedWrite, type TargetedWrite, widenSettable } from "./settable-fields.js";

/** A rule tree whose id sequences start where their counters continue (`sequence`, else the collection's). */
function withStarts(rule: FieldRule, collection: string, next: Readonly<Record<string, number>>): FieldRule {
  if (rule.kind === "id_sequence") return { ...rule, start: next[rule.sequence ?? collection] ?? rule.start };
  if (rule.kind === "object")
    return {
      kind: "object",
      fields: rule.fields.map((f) => ({ field: f.field, rule: withStarts(f.rule, collection, next) })),
    };
  if (rule.kind === "array")
    return { kind: "array", items: rule.items.map((r) => withStarts(r, collection, next)) };
  return rule;
}

/** The finished rule of every served write, by its endpoint. */
export function assembleWriteRules(
  served: ServedWrite[],
  targeted: TargetedWrite[],
  idSequences: Readonly<Record<string, number>>,
): Map<EndpointGroup, WriteRule> {
  const widened = widenSettable(served, targeted);
  return new Map(
    served.map((w) => {
      const fields = (widened.get(w) ?? w.rule.fields).map((f) => ({
        field: f.field,
        rule: withStarts(f.rule, w.rule.collection, idSequences),
      }));
      const rule = { ...w.rule, fields };
      return [w.group, { ...rule, explain: explainWrite(rule, w.group.method, w.group.template) }];
    }),
  );
}
