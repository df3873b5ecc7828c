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
          o.kind === "keep"
            ? "kept"
            : o.kind === "omit"
              ? "left out"
              : `${JSON.stringify(o.value)}${o.default === "unconfirmed" ? UNCONFIRMED : ""}`;
        return `from the request${at} when sent (settable: ${rule.settable_by} sets it), else ${otherwise}`;
      }
      return `taken from the request body at ${rule.pointer}${otherwiseText(rule.otherwise)}`;
    }
    case "id_sequence":
      if (rule.after === "present")
        return `the highest integer id present + ${rule.step} (an id freed by deleting the highest is given again)${inferredText(rule)}`;
      if (rule.freed === "inferred")
        return `${explainRule({ ...rule, freed: undefined })}${inferredText(rule)}`;
      return `${
        rule.sequence === undefined
          ? `the next integer id (from ${rule.start}, step ${rule.step}), after the highest ever seen`
          : `the next integer id of the ${rule.sequence} sequence (from ${rule.start}, step ${rule.step}), after the highest ever seen`
      }${rule.freed === "undecided" ? " (undecided: the recording never showed a create after the highest was deleted, which would tell whether the app gives that id again; taken: never)" : ""}`;
    case "uuid":
      return "a fresh UUID";
    case "clock":
      return `the episode clock, as ${TIME[rule.format]}${rule.layout === undefined ? "" : ` (${rule.layout})`}${rule.offset_min === undefined ? "" : ` at UTC${offsetText(rule.offset_min)}`}`;
    case "constant":
      return rule.given === undefined
        ? `always ${JSON.stringify(rule.value)}`
        : `${JSON.stringify(rule.value)} where the request's ${rule.given.pointer} is ${[...rule.given.values, ...(rule.given.absent ? ["absent"] : [])].join(" or ")} as recorded (another value there is an explained miss)`;
    case "copy":
      return rule.pointer === undefined ? `a copy of field "${rule.from}"` : `a copy of ${rule.pointer}`;
    case "path_param":
      return `the path parameter {${rule.name}}${rule.integer ? " as a number" : ""}`;
    case "keep":
      return "kept as it was";
    case "object":
      return `an object of ${rule.fields.map((f) => `${f.field}: ${explainRule(f.rule, f.field)}`).join("; ")}${rule.when_sent === undefined ? "" : `, left out when the request has no ${rule.when_sent.join(" or no ")}`}`;
    case "array":
      return `a list of ${rule.items.length}: ${rule.items.map((r, i) => `[${i}] ${explainRule(r)}`).join("; ")}`;
    case "format":
      return `${rule.parts.map(partText).join(" + ")}${otherwiseText(rule.otherwise)}${rule.given === undefined ? "" : `, where the request's ${rule.given.pointer} is ${[...rule.given.values, ...(rule.given.absent ? ["absent"] : [])].join(" or ")} as recorded (its text may be that entity's; another value there is an explained miss)`}`;
    case "length":
      return `the size of the request's ${rule.pointer} (a text's UTF-8 bytes, a list's items)${otherwiseText(rule.otherwise)}`;
    case "increment":
      return `the old value plus ${rule.step}`;
    case "affix":
      return rule.prefix === ""
        ? `the old value followed by ${JSON.stringify(rule.suffix)}`
        : rule.suffix === ""
          ? `the old value after ${JSON.stringify(rule.prefix)}`
          : `the old value between ${JSON.stringify(rule.prefix)} and ${JSON.stringify(rule.suffix)}`;
    case "redacted":
      return `${rule.marker}, as the recording redacted it (the value is never known)`;
    case "lookup":
      return `${rule.pointer} of the ${singular(rule.collection)} whose id is the entity's ${rule.key}`;
    case "from_id":
      return rule.derive === "last_segment"
        ? 'the id after its last "/"'
        : `the standard media type of the id's extension${knownText(rule.known ?? {})}`;
    case "each":
      return `the ${Object.keys(rule.table).length === 1 ? "entity" : "entities"} the request's ${rule.pointer} names, each as recorded under its ${rule.key} (${Object.keys(rule.table).join(", ")}; another is an explained miss)${otherwiseText(rule.otherwise)}`;
    case "cases":
      return `by the request's ${rule.pointer}: ${rule.cases.map((c) => `${c.value}, ${explainRule(c.rule, field)}`).join("; ")} (another value there is an explained miss)`;
  }
}

/** The recorded values of extensions the standard table lacks, as a clause (`; .ipynb: null, none: null`). */
function knownText(known: Readonly<Record<string, string | null>>): string {
  const entries = Object.entries(known).map(
    ([ext, v]) => `${ext === "" ? "none" : ext}: ${JSON.stringify(v)}`,
  );
  return entries.length === 0 ? "" : ` (as recorded for ${entries.join(", ")})`;
}

type Part = Extract<FieldRule, { kind: "format" }>["parts"][number];

function partText(p: Part): string {
  if ("text" in p) return JSON.stringify(p.text);
  if ("param" in p) return `the path parameter {${p.param}}`;
  if ("lookup" in p) return `${p.pointer} of the ${singular(p.lookup)} whose id is the entity's ${p.key}`;
  const slug = "transform" in p && p.transform === "slug" ? "the slug of " : "";
  return "request" in p ? `${slug}the request's ${p.request}` : `${slug}the entity's ${p.entity}`;
}

/** What an id policy another collection of the app decided says. */
function inferredText(rule: Extract<FieldRule, { kind: "id_sequence" }>): string {
  if (rule.freed !== "inferred") return "";
  const from = (rule.inferred_from ?? []).join(", ");
  return ` (inferred: this collection never showed a create after its highest was deleted; ${from} did, and one app numbers its collections alike)`;
}

/** What a default no recorded create confirmed says (learn.ts `unconfirmedDefaults`). */
const UNCONFIRMED =
  " (default: unconfirmed; no recorded create left it out, and every entity recorded holds it: the documented rule's value)";

function otherwiseText(o: Extract<FieldRule, { kind: "from_request" }>["otherwise"]): string {
  return o.kind === "constant"
    ? `, or ${JSON.stringify(o.value)} when the request has none${o.default === "unconfirmed" ? UNCONFIRMED : ""}`
    : o.kind === "keep"
      ? ", or kept as it was when the request has none"
      : "";
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
          : rule.response.kind === "rows"
            ? "the entity alone in an array"
            : rule.response.kind === "count"
              ? "the number of entities written"
              : rule.response.body === null || typeof rule.response.body !== "object"
                ? `the fixed body ${JSON.stringify(rule.response.body)}`
                : "a fixed body with entity fields";
  const redirect = rule.location === undefined ? "" : `, redirecting to ${rule.location}`;
  const upsert =
    rule.created_status === undefined
      ? ""
      : ` (or creates it, answering ${rule.created_status}, when the path names none)`;
  if (rule.replace_all)
    return `${method} ${template} replaces every ${singular(rule.collection)} with the entities of the request's array, in its order, and answers ${rule.status} with ${rule.response.kind === "empty" ? "no body" : "that array"}.`;
  if (rule.by_query) {
    const r = rule.response;
    const listed =
      r.kind === "empty"
        ? "no body"
        : r.kind === "count"
          ? r.key === null
            ? "the number of them"
            : `the number of them under "${r.key}"`
          : "those entities in list order";
    const did = rule.kind === "delete" ? "deletes" : rule.kind === "replace" ? "replaces" : "updates";
    const under =
      rule.query_prefix && rule.query_prefix.length > 0
        ? `, its query read as ${rule.query_prefix.join(".")}.…`
        : "";
    return `${method} ${template} ${did} each ${singular(rule.collection)} its query's filters select${under} (as the reads' query rules do; anything but filters, or a query selecting none, is an explained miss), and answers ${rule.status} with ${listed}${fields ? ` (${fields})` : ""}.`;
  }
  if (rule.batch) {
    const listed = answer.replace("the entity", "the updated entities in key order");
    return `${method} ${template} updates each ${singular(rule.collection)} whose id the request's "${rule.batch.keys}" lists, from its "${rule.batch.data}", and answers ${rule.status} with ${listed}${fields ? ` (${fields})` : ""}.`;
  }
  return `${method} ${template} ${verb} one ${singular(rule.collection)}${upsert} and answers ${rule.status} with ${answer}${redirect}${fields ? ` (${fields})` : ""}.${descendantsText(rule.descendants)}${withheldSentText(rule.withheld_sent)}`;
}

/** The sentence naming the kinds of request a served write refuses (case-splits.ts), or "". */
function withheldSentText(w: WriteRule["withheld_sent"]): string {
  if (!w || w.length === 0) return "";
  return w
    .map(
      (c) =>
        ` A request sending ${c.pointer} is an explained miss: the ${c.recorded} recorded write${c.recorded === 1 ? "" : "s"} that sent it stayed unexplained (${c.reason}), the rule is learned from the others.`,
    )
    .join("");
}

/** The sentence saying what a rename does to the entities under the renamed one (hierarchical ids), or "". */
function descendantsText(d: WriteRule["descendants"]): string {
  if (!d) return "";
  const under = `entities under it (ids starting with its id and "${d.separator}")`;
  if (d.moves === true)
    return ` A rename moves the ${under} with it, their ids and the fields holding them given the new prefix, as the read after a recorded rename showed (records[${d.shown_at}]).`;
  if (d.moves === false)
    return ` A rename of one with ${under} is an explained miss: the read at records[${d.shown_at}] showed them not moved with it.`;
  return ` A rename of one with ${under} is an explained miss: no recorded rename had any, so what the app does with them was never shown.`;
}

/** The sentence explaining a collection. */
export function explainCollection(c: Omit<Collection, "explain">): string {
  const order =
    c.list_order.kind === "insertion"
      ? "in insertion order"
      : `ordered by ${c.list_order.field} ${c.list_order.direction}${
          c.list_order.also
            ? ` (its lists prove ${c.list_order.also.join(", ")} as well; taken: a field no two entities share, then a time, the id last)`
            : ""
        }`;
  const env =
    c.envelope.kind === "bare"
      ? "a bare array"
      : c.envelope.kind === "keyed"
        ? "an object of the entities keyed by their ids"
        : `an object with the entities under "${c.envelope.items_key}"`;
  const parent = c.parent ? `, nested under {${c.parent.param}} (field ${c.parent.field})` : "";
  const filters =
    c.filters.length > 0 ? `; filters: ${c.filters.map((f) => `${f.param}=${f.field}`).join(", ")}` : "";
  const page = c.pagination ? `; pagination: ${c.pagination.limit_param}/${c.pagination.offset_param}` : "";
  return `Collection ${c.name}, identified by ${c.id_field}, listed as ${env} ${order}${parent}${filters}${page}.`;
}
