/**
 * One plain sentence per learned rule, for people and agents reading a model
 * or a coverage report. Texts are part of the API: tests assert them.
 */
import type { Collection, FieldRule, WriteRule } from "../model/model-schema.js";
import { keyOfPointer } from "../util/json-pointer.js";
import { singular } from "./value-kinds.js";

const TIME = {
  iso: "an ISO 8601 time",
  epoch_ms: "epoch milliseconds",
  epoch_s: "epoch seconds",
  date: "a date (YYYY-MM-DD)",
} as const;

/** `+02:00` for an offset in minutes east of UTC. */
function offsetText(min: number): string {
  const h = String(Math.floor(Math.abs(min) / 60)).padStart(2, "0");
  return `${min < 0 ? "-" : "+"}${h}:${String(Math.abs(min) % 60).padStart(2, "0")}`;
}

/** The sentence explaining how one field gets its value (`field` names it, so a pointer to it need not be repeated). */
export function explainRule(rule: FieldRule, field?: string): string {
  switch (rule.kind) {
    case "from_request": {
      if (rule.settable_by !== undefined) {
        const key = keyOfPointer(rule.pointer);
        const at = key === field ? "" : ` at ${rule.pointer}`;
        const o = rule.otherwise;
        const otherwise =
          o.kind === "keep" ? "kept" : o.kind === "omit" ? "left out" : JSON.stringify(o.value);
        return `from the request${at} when sent (settable: ${rule.settable_by} sets it), else ${otherwise}`;
      }
      const other =
        rule.otherwise.kind === "constant"
          ? `, or ${JSON.stringify(rule.otherwise.value)} when the request has none`
          : rule.otherwise.kind === "keep"
            ? ", or kept as it was when the request has none"
            : "";
      return `taken from the request body at ${rule.pointer}${other}`;
    }
    case "id_sequence":
      return `the next integer id (from ${rule.start}, step ${rule.step}), after the highest ever seen`;
    case "uuid":
      return "a fresh UUID";
    case "clock":
      return `the episode clock, as ${TIME[rule.format]}${rule.layout === undefined ? "" : ` (${rule.layout})`}${rule.offset_min === undefined ? "" : ` at UTC${offsetText(rule.offset_min)}`}`;
    case "constant":
      return `always ${JSON.stringify(rule.value)}`;
    case "copy":
      return `a copy of field "${rule.from}"`;
    case "path_param":
      return `the path parameter {${rule.name}}`;
    case "keep":
      return "kept as it was";
  }
}

/** The sentence explaining a served write. */
export function explainWrite(rule: Omit<WriteRule, "explain">, method: string, template: string): string {
  const verb = { create: "creates", replace: "replaces", merge: "updates", delete: "deletes" }[rule.kind];
  const fields = rule.fields.map((f) => `${f.field}: ${explainRule(f.rule, f.field)}`).join("; ");
  const answer =
    rule.response.kind === "empty"
      ? "no body"
      : rule.response.kind === "entity"
        ? "the entity"
        : rule.response.kind === "wrapped"
          ? `the entity under "${rule.response.key}"`
          : "a fixed body with entity fields";
  const redirect = rule.location === undefined ? "" : `, redirecting to ${rule.location}`;
  return `${method} ${template} ${verb} one ${singular(rule.collection)} and answers ${rule.status} with ${answer}${redirect}${fields ? ` (${fields})` : ""}.`;
}

/** The sentence explaining a collection. */
export function explainCollection(c: Omit<Collection, "explain">): string {
  const order =
    c.list_order.kind === "insertion"
      ? "in insertion order"
      : `ordered by ${c.list_order.field} ${c.list_order.direction}`;
  const env =
    c.envelope.kind === "bare"
      ? "a bare array"
      : `an object with the entities under "${c.envelope.items_key}"`;
  const parent = c.parent ? `, nested under {${c.parent.param}} (field ${c.parent.field})` : "";
  const filters =
    c.filters.length > 0 ? `; filters: ${c.filters.map((f) => `${f.param}=${f.field}`).join(", ")}` : "";
  const page = c.pagination ? `; pagination: ${c.pagination.limit_param}/${c.pagination.offset_param}` : "";
  return `Collection ${c.name}, identified by ${c.id_field}, listed as ${env} ${order}${parent}${filters}${page}.`;
}
