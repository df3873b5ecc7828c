/**
 * Folds the rules of one write where a value they read is a constant: a copy of
 * a constant is that constant, a `format` part standing for a constant is its
 * text (`comments?{type}=` with type always "post" is `comments?post=`), and a
 * format left with no value in it is a constant string. What the twin does is
 * unchanged; the rule says it plainly.
 */
import type { FieldEntry, FieldRule } from "../model/model-schema.js";
import { pathOfPointer, pointerOf, pointerOfPath, readPointer } from "../util/json-pointer.js";
import { slugify } from "../util/slug.js";

type Part = Extract<FieldRule, { kind: "format" }>["parts"][number];

/** Every rule of the tree by the pointer of the value it gives. */
function rulesByPointer(fields: FieldEntry[], at = "", out = new Map<string, FieldRule>()) {
  for (const f of fields) {
    const p = `${at}${pointerOf(f.field)}`;
    out.set(p, f.rule);
    if (f.rule.kind === "object") rulesByPointer(f.rule.fields, p, out);
    if (f.rule.kind === "array")
      f.rule.items.forEach((r, i) => {
        const q = `${p}/${i}`;
        out.set(q, r);
        if (r.kind === "object") rulesByPointer(r.fields, q, out);
      });
  }
  return out;
}

/** The constant value at `pointer`, when the rule giving it (or an ancestor's) is a constant. */
function constantAt(rules: Map<string, FieldRule>, pointer: string): { value: unknown } | null {
  const path = pathOfPointer(pointer);
  for (let n = path.length; n > 0; n--) {
    const rule = rules.get(pointerOfPath(path.slice(0, n)));
    if (!rule) continue;
    if (rule.kind !== "constant") return null;
    const value = readPointer(rule.value, pointerOfPath(path.slice(n)));
    return value === undefined ? null : { value };
  }
  return null;
}

function fold(rule: FieldRule, rules: Map<string, FieldRule>): FieldRule {
  switch (rule.kind) {
    case "copy": {
      const c = constantAt(rules, rule.pointer ?? pointerOf(rule.from));
      return c ? { kind: "constant", value: c.value } : rule;
    }
    case "format": {
      const parts: Part[] = [];
      for (const p of rule.parts) {
        const c = "entity" in p ? constantAt(rules, p.entity) : null;
        const scalar =
          c && (typeof c.value === "string" || typeof c.value === "number") ? String(c.value) : null;
        const part: Part =
          scalar === null
            ? p
            : { text: "transform" in p && p.transform === "slug" ? slugify(scalar) : scalar };
        const last = parts[parts.length - 1];
        if (last && "text" in last && "text" in part)
          parts[parts.length - 1] = { text: last.text + part.text };
        else parts.push(part);
      }
      if (parts.every((p) => "text" in p))
        return { kind: "constant", value: parts.map((p) => ("text" in p ? p.text : "")).join("") };
      return { ...rule, parts };
    }
    case "object":
      return {
        ...rule,
        fields: rule.fields.map((f) => ({ field: f.field, rule: fold(f.rule, rules) })),
      };
    case "array":
      return { kind: "array", items: rule.items.map((r) => fold(r, rules)) };
    default:
      return rule;
  }
}

/** The fields with every read of a constant folded in, until nothing changes. */
export function simplifyFields(fields: FieldEntry[]): FieldEntry[] {
  let current = fields;
  for (let round = 0; round < 8; round++) {
    const rules = rulesByPointer(current);
    const next = current.map((f) => ({ field: f.field, rule: fold(f.rule, rules) }));
    if (JSON.stringify(next) === JSON.stringify(current)) return next;
    current = next;
  }
  return current;
}
