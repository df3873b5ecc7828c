/**
 * What a served write does that no recording confirmed, for coverage: each field whose value for a request that
 * leaves it out is the documented rule's (`default: unconfirmed`, learn.ts `unconfirmedDefaults`), and each id
 * sequence whose reuse of an id freed by deleting the highest entity the recording never decided.
 */
import type { FieldEntry, FieldRule, WriteRule } from "../model/model-schema.js";

export interface Unconfirmed {
  field: string;
  kind: "default" | "id_reuse";
  explain: string;
}

/** The unconfirmed parts of a write rule, by dotted field path, in field order. */
export function unconfirmedParts(rule: WriteRule): Unconfirmed[] {
  const out: Unconfirmed[] = [];
  const visit = (r: FieldRule, field: string) => {
    if (
      (r.kind === "from_request" || r.kind === "each") &&
      r.otherwise.kind === "constant" &&
      r.otherwise.default === "unconfirmed"
    )
      out.push({
        field,
        kind: "default",
        explain: `a request without ${r.pointer} gets ${JSON.stringify(r.otherwise.value)}: no recorded create left it out`,
      });
    if (r.kind === "id_sequence" && r.freed === "inferred")
      out.push({
        field,
        kind: "id_reuse",
        explain: `inferred: after the highest entity is deleted, the next create's id ${r.after === "present" ? "is the freed one" : "is never a freed one"}, as ${(r.inferred_from ?? []).join(", ")} showed; this collection never did`,
      });
    if (r.kind === "id_sequence" && r.freed === "undecided")
      out.push({
        field,
        kind: "id_reuse",
        explain:
          "after the highest entity is deleted, the next create's id: the recording never showed one, so whether the app gives the freed id again is undecided (the twin never does)",
      });
    if (r.kind === "object") walk(r.fields, `${field}.`);
    if (r.kind === "array") for (const [i, x] of r.items.entries()) visit(x, `${field}[${i}]`);
    if (r.kind === "cases") for (const c of r.cases) visit(c.rule, field);
  };
  const walk = (fields: FieldEntry[], prefix: string) => {
    for (const f of fields) visit(f.rule, `${prefix}${f.field}`);
  };
  walk(rule.fields, "");
  // One entry per field and kind (a `cases` rule repeats its branches).
  return out.filter((u, i) => out.findIndex((x) => x.field === u.field && x.kind === u.kind) === i);
}
