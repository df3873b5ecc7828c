/**
 * Singleton documents (settings, options, the current user, a whole config): a fixed path (no path parameter) that
 * reads one JSON object and that writes (PATCH, PUT, POST) at that very path change. No list shows it, so no
 * collection holds it: the twin holds it as a collection of one entity, kept under a key no recorded document has
 * (`hidden`), which the read at the fixed path answers from state.
 *
 * A write is confirmed only when the recording read the document just before it and just after it with no other
 * write in between: the read before is the document it met, the read after what it made of it. Its fields' rules
 * are learned as an item update's are (infer-field-rule.ts: from the request, kept, the clock…), over every
 * confirmed write; a write that dropped a field the document had replaces it, else it merges. Its answer is learned
 * as any write's (response-shape.ts). A write with no such pair of reads stays withheld, saying which to record.
 */
import type { Collection, Entity, Withheld, WriteRule } from "../model/model-schema.js";
import { escapePointerToken as escapeToken } from "../util/json-pointer.js";
import type { FoundCollection } from "./collections.js";
import type { EndpointGroup, Observation } from "./endpoint-index.js";
import { explainWrite } from "./explain.js";
import { type FieldContext, inferFieldRule } from "./infer-field-rule.js";
import { isRedirect } from "./redirect-location.js";
import { learnResponse } from "./response-shape.js";
import { simplifyFields } from "./simplify-rules.js";
import { isObject, singular, snake } from "./value-kinds.js";
import { withheld } from "./withheld-hint.js";
import type { LearnOptions, WriteDraft } from "./write-rules.js";
import { isWriteMethod } from "./write-targets.js";

/** A singleton document learned from the recording: its collection, its seed entity, and its writes' verdicts. */
export interface LearnedSingleton {
  collection: Collection;
  /** The document as the recording last showed it, with its id under the hidden key. */
  seed: Entity;
  read: EndpointGroup;
  /** The reads the state serves (the plain reads of the fixed path): not replayed. */
  served: Set<Observation>;
  /** Per write endpoint at the fixed path: its rule, or why it stays withheld. */
  writes: Map<EndpointGroup, { rule: WriteRule; withheld: null } | { rule: null; withheld: Withheld }>;
}

/** One write of the document with the reads just before and after it. */
interface DocWrite {
  obs: Observation;
  pre: Entity;
  after: Entity;
}

const success = (o: Observation) => (o.status >= 200 && o.status < 300) || isRedirect(o.status);
const SINGLETON_WRITES = new Set(["PUT", "PATCH", "POST"]);

/** A plain read of the document: a 2xx JSON object answer, no query. */
function docRead(o: Observation, read: EndpointGroup): Entity | null {
  if (o.endpoint !== read || o.query.length > 0 || o.status < 200 || o.status >= 300) return null;
  return o.response.kind === "json" && isObject(o.response.value) ? o.response.value : null;
}

/**
 * The writes of `writes` that a plain read of the document preceded and followed with no other successful write in
 * between, in time order, and the document as last shown (a read, or an answer that was a later read's document).
 */
function walkDocument(
  read: EndpointGroup,
  writes: ReadonlySet<EndpointGroup>,
  ordered: Observation[],
): { pairs: DocWrite[]; last: Entity | null } {
  const pairs: DocWrite[] = [];
  let doc: Entity | null = null;
  // The document as the last read showed it, while no successful write followed that read.
  let fresh: Entity | null = null;
  let pending: { obs: Observation; pre: Entity } | null = null;
  for (const o of ordered) {
    const shown = docRead(o, read);
    if (shown) {
      if (pending) pairs.push({ ...pending, after: shown });
      pending = null;
      doc = shown;
      fresh = shown;
      continue;
    }
    if (!isWriteMethod(o.method) || !success(o)) continue;
    pending = writes.has(o.endpoint) && fresh && !pending ? { obs: o, pre: fresh } : null;
    fresh = null;
  }
  return { pairs, last: doc };
}

/** A key no recorded document holds, under which the twin keeps the document's id. */
function hiddenKey(docs: Entity[]): string {
  let key = "_singleton";
  while (docs.some((d) => Object.hasOwn(d, key))) key = `_${key}`;
  return key;
}

/** What each confirmed write offers to explain the fields of the document it left. */
function contexts(pairs: DocWrite[], idField: string, opts: LearnOptions): FieldContext[] {
  return pairs.map((p) => {
    const body = p.obs.request.kind === "json" || p.obs.request.kind === "form" ? p.obs.request.value : null;
    return {
      entity: p.after,
      request: isObject(body) ? body : null,
      loose: p.obs.request.kind === "form",
      pathParams: p.obs.pathParams,
      pre: p.pre,
      time: p.obs.time,
      maxIntBefore: null,
      scopeMax: null,
      idSeenBefore: true,
      idField,
      create: false,
      readBack: p.after,
      session: opts.session ?? [],
    };
  });
}

/** The JSON schema type of a scalar a document field holds, or null for another value (an object, an array, null). */
export function scalarType(v: unknown): "string" | "number" | "boolean" | null {
  if (typeof v === "string") return "string";
  if (typeof v === "boolean") return "boolean";
  return typeof v === "number" ? "number" : null;
}

/**
 * A merge of the document that stored every field it was sent as sent, two fields or more over the recording
 * (`PATCH /api/settings` with `theme`, then with `language`), is taken to store any of the document's scalar fields
 * it is sent: each field only kept so far becomes "from the request when sent, else kept" (`settable_by` the write
 * itself; serve types it by the value the document holds). Not from one field (the only one a PATCH /me may
 * change), nor when a write was sent a field it did not store as sent (the app ignores or transforms some).
 */
function widenDocument(
  fields: WriteDraft["fields"],
  pairs: DocWrite[],
  idField: string,
  route: string,
): void {
  const asSent = new Set(
    fields.flatMap((f) =>
      f.rule.kind === "from_request" && f.rule.pointer === `/${escapeToken(f.field)}` ? [f.field] : [],
    ),
  );
  const sent = new Set<string>();
  for (const p of pairs) {
    const body = p.obs.request.kind === "json" ? p.obs.request.value : null;
    if (!isObject(body)) return;
    for (const k of Object.keys(body)) {
      if (!asSent.has(k) || JSON.stringify(body[k]) !== JSON.stringify(p.after[k])) return;
      sent.add(k);
    }
  }
  if (sent.size < 2) return;
  const last = pairs.at(-1)!.after;
  for (const [i, f] of fields.entries())
    if (f.rule.kind === "keep" && f.field !== idField && scalarType(last[f.field]) !== null)
      fields[i] = {
        field: f.field,
        rule: {
          kind: "from_request",
          pointer: `/${escapeToken(f.field)}`,
          otherwise: { kind: "keep" },
          settable_by: route,
        },
      };
}

/** The rule of one write endpoint of the document from its confirmed writes, or why it is withheld. */
function judgeWrite(
  group: EndpointGroup,
  pairs: DocWrite[],
  name: string,
  idField: string,
  readRoute: string,
  opts: LearnOptions,
): { rule: WriteRule; withheld: null } | { rule: null; withheld: Withheld } {
  const base = { method: group.method, template: group.template, readBack: readRoute };
  const no = (w: Withheld) => ({ rule: null, withheld: w });
  // A write with no read of the document just before and just after it shows nothing of what it did.
  if (pairs.length === 0) return no(withheld("not_read_back", { ...base, around: true }));
  if (new Set(pairs.map((p) => p.obs.status)).size > 1) return no(withheld("conflicting_observations", base));
  const ctx = contexts(pairs, idField, opts);
  const names: string[] = [];
  for (const p of pairs) for (const k of Object.keys(p.after)) if (!names.includes(k)) names.push(k);
  const fields: WriteDraft["fields"] = [];
  let refused: Withheld | null = null;
  for (const f of names) {
    const verdict = inferFieldRule(f, ctx, opts.clockWindowMs);
    if (verdict.ok) {
      fields.push({ field: f, rule: verdict.rule });
      continue;
    }
    const w = withheld(verdict.reason, {
      ...base,
      field: verdict.path ?? f,
      ...(verdict.gap ? { gap: verdict.gap } : {}),
      ...(verdict.ambiguous ? { ambiguous: verdict.ambiguous } : {}),
    });
    if (!refused || (refused.closable && !w.closable)) refused = w;
  }
  if (refused) return no(refused);
  const dropped = pairs.some((p) => Object.keys(p.pre).some((k) => !Object.hasOwn(p.after, k)));
  if (!dropped) widenDocument(fields, pairs, idField, `${group.method} ${group.template}`);
  const answer = learnResponse(
    pairs.map((p, i) => ({
      body: p.obs.response.kind === "json" ? p.obs.response.value : undefined,
      entity: p.after,
      request: ctx[i]!.request,
    })),
  );
  if (!answer.ok) return no(withheld("unexplained_field", { ...base, field: answer.field }));
  // A document a write left without a field it had is replaced by what the rules build; else the rest is kept.
  const response =
    answer.response.kind === "empty" || answer.response.kind === "count"
      ? answer.response
      : { ...answer.response, omit: [...(answer.response.omit ?? []), `/${idField}`].sort() };
  const first = pairs[0]!.obs;
  const draft: WriteDraft = {
    tool_name: group.toolName,
    kind: dropped ? "replace" : "merge",
    collection: name,
    id_param: idField,
    status: first.status,
    content_type: first.contentType,
    response,
    fields: simplifyFields(fields),
  };
  const n = pairs.length;
  const explain = `${explainWrite(draft, group.method, group.template).replace(` one ${singular(name)} `, ` the ${name} document `)} Confirmed by ${n} recorded write${n === 1 ? "" : "s"}, each read by ${readRoute} just before and after with no other write in between.`;
  // The document's id stays as it was: the hidden key is no field the app shows or the request sets.
  return {
    rule: { ...draft, fields: [...draft.fields, { field: idField, rule: { kind: "keep" } }], explain },
    withheld: null,
  };
}

/**
 * The singleton documents of the recording: each GET of a fixed path no collection serves, whose plain answers are
 * JSON objects, with the write endpoints at that path that no collection rule explains (`unexplained`, with their
 * verdicts). A write no read was paired around and no read showed changing anything keeps its verdict (its hint
 * also says how to show it changes nothing); one a read showed changing the document is now closable.
 */
export function learnSingletons(
  groups: EndpointGroup[],
  unexplained: ReadonlyMap<EndpointGroup, Withheld>,
  collections: readonly FoundCollection[],
  ordered: Observation[],
  opts: LearnOptions,
): LearnedSingleton[] {
  const out: LearnedSingleton[] = [];
  const taken = new Set(collections.map((c) => c.name));
  const collectionGroups = new Set(collections.flatMap((c) => (c.item ? [c.list, c.item] : [c.list])));
  for (const read of groups) {
    if (read.method !== "GET" || read.params.length > 0 || collectionGroups.has(read)) continue;
    const writes = groups.filter(
      (g) => g.template === read.template && SINGLETON_WRITES.has(g.method) && unexplained.has(g),
    );
    if (writes.length === 0) continue;
    const docs = read.observations.flatMap((o): Entity[] => {
      const d = docRead(o, read);
      return d ? [d] : [];
    });
    const plain = read.observations.filter((o) => o.query.length === 0 && o.status >= 200 && o.status < 300);
    // Every plain success is a JSON object: an answer of another shape is no one document the twin could hold.
    if (docs.length === 0 || docs.length !== plain.length) continue;
    const { pairs, last } = walkDocument(read, new Set(writes), ordered);
    // Named by its last segment (`settings`), else by its whole path when a collection or another one has that name.
    const segs = read.template.split("/").filter(Boolean);
    let name = snake(segs.at(-1) ?? "") || "root";
    if (taken.has(name)) name = snake(segs.join("_")) || "root";
    while (taken.has(name)) name = `${name}_`;
    taken.add(name);
    const idField = hiddenKey(docs);
    const readRoute = `GET ${read.template}`;
    const verdicts = new Map<EndpointGroup, ReturnType<typeof judgeWrite>>();
    for (const g of writes) {
      const own = pairs.filter((p) => p.obs.endpoint === g);
      if (own.length === 0 && unexplained.get(g)!.closable !== false) continue;
      verdicts.set(g, judgeWrite(g, own, name, idField, readRoute, opts));
    }
    const collection: Collection = {
      name,
      id_field: idField,
      id_kind: "string",
      list_endpoint: null,
      item_endpoint: read.toolName,
      envelope: { kind: "bare" },
      item_envelope: { kind: "bare" },
      parent: null,
      list_order: { kind: "insertion" },
      filters: [],
      pagination: null,
      not_found: null,
      hidden: [`/${idField}`],
      singleton: true,
      explain: `Singleton ${name}: the one document ${readRoute} answers (no list shows it), held in state under the hidden key ${idField}; writes at ${read.template} change it where the recording read it just before and after them.`,
    };
    out.push({
      collection,
      seed: { ...last!, [idField]: name },
      read,
      served: new Set(plain),
      writes: verdicts,
    });
  }
  return out;
}
