/**
 * Judges the observations of one write endpoint: the draft of its rule (what
 * its own observations teach), or a withheld verdict. Served only when a
 * later read confirmed the effect and every field of the written entity, and
 * the answer, fit a rule. The draft becomes a rule in write-rule-assembly.ts,
 * where what other writes prove is added and the rule is explained.
 */
import { countOf } from "../model/count-read.js";
import { deriveFromId } from "../model/id-derived.js";
import type { Entity, FieldRule, Withheld, WriteRule } from "../model/model-schema.js";
import { appendTo } from "../util/append-to.js";
import { unionView } from "../util/entity-view.js";
import { pointerEntries, pointerOf } from "../util/json-pointer.js";
import type { LearnWarning } from "./api-records.js";
import { descendantsRule } from "./descendant-moves.js";
import type { EndpointGroup } from "./endpoint-index.js";
import { type FieldContext, inferFieldRule } from "./infer-field-rule.js";
import { restamped } from "./read-back.js";
import { isRedirect, locationTemplate, redirectTarget } from "./redirect-location.js";
import { refineUnderCases, requestCases } from "./request-cases.js";
import { type AnswerCase, learnResponse } from "./response-shape.js";
import { simplifyFields } from "./simplify-rules.js";
import type { WriteObservation } from "./state-walk.js";
import { isObject } from "./value-kinds.js";
import { withheld } from "./withheld-hint.js";
import type { WriteTarget } from "./write-targets.js";

/** Options of learning. */
export interface LearnOptions {
  /** How far (ms) a stamped time may be from the request's start to count as the clock. Default 120 000. */
  clockWindowMs: number;
  /** The signed-in entities the recording shows (see session-identity.ts); none unless given. */
  session?: FieldContext["session"];
  /** Per collection, the defaults its untouched entities show (see `FieldContext.defaults`); none unless given. */
  defaults?: ReadonlyMap<string, ReadonlyMap<string, unknown>>;
  /** Per collection, the defaults no recording decides (see `FieldContext.guesses`); none unless given. */
  guesses?: ReadonlyMap<string, ReadonlyMap<string, unknown>>;
  /** Per collection, the fields every entity the recording showed derives from its id (derived-fields.ts). */
  derived?: ReadonlyMap<string, ReadonlyMap<string, Extract<FieldRule, { kind: "from_id" }>>>;
  /** Per collection, its reference tables (reference-tables.ts); none unless given. */
  tables?: ReadonlyMap<string, ReadonlyMap<string, Record<string, unknown>>>;
  /** Per collection, the fields naming a kind of entity (learn.ts `categoryFields`): what a create may be keyed by. */
  categories?: ReadonlyMap<string, ReadonlySet<string>>;
}

/**
 * The read that confirms a write of this endpoint, as shown in hints: always a read route the recording has (a hint
 * never names a route the app may not have). On a collection, its item read (an update, a delete answering 404) or
 * its list (a create, or when no item read was recorded); on none, the list at the write's path (a POST's own path,
 * another write's parent) when that was read, else null (the hint then names no route).
 */
export function readBackOf(
  group: EndpointGroup,
  target: WriteTarget | null,
  readRoutes: ReadonlySet<string>,
): string | null {
  if (target) {
    const { list, item } = target.collection;
    if (target.kind === "create" || !item) return `GET ${list.template}`;
    return target.kind === "delete" ? `GET ${item.template} (answering 404)` : `GET ${item.template}`;
  }
  const segs = group.template.split("/").slice(1);
  const upto = group.method === "POST" ? segs.length : Math.max(1, segs.length - 1);
  const route = `/${segs.slice(0, upto).join("/")}`;
  return readRoutes.has(`GET ${route}`) ? `GET ${route}` : null;
}

/** A write rule as one endpoint's own observations teach it, before assembly (see write-rule-assembly.ts). */
export type WriteDraft = Omit<WriteRule, "explain">;

/** The judgement of one write endpoint: a draft rule, or why it is withheld, and warnings about ignored failures. */
export type WriteJudgement = ({ draft: WriteDraft; withheld: null } | { draft: null; withheld: Withheld }) & {
  warnings: LearnWarning[];
};

type Base = { method: string; template: string; readBack: string | null };

/** Why no observation of the endpoint can teach a rule: a body apptwin cannot read, or no success at all. */
function unusable(group: EndpointGroup, base: Base): Withheld | null {
  // A body the app refused (4xx) teaches no rule, so one apptwin cannot read does not withhold the write either.
  const bad = group.observations.find(
    (o) => (o.request.kind === "unsupported" || o.request.kind === "truncated") && o.status < 400,
  );
  if (bad)
    return withheld("unsupported_body", {
      ...base,
      mime: bad.request.kind === "unsupported" ? bad.request.mime : null,
    });
  // A redirect (post-redirect-get) is a write's answer, not a failure: it is judged by its read-back too.
  const success = group.observations.some((o) => (o.status >= 200 && o.status < 300) || isRedirect(o.status));
  if (!success)
    return withheld("failed_status", {
      ...base,
      statuses: [...new Set(group.observations.map((o) => o.status))].sort(),
    });
  return null;
}

/** One warning per failed observation: it teaches no write rule. */
function failedWrites(group: EndpointGroup): LearnWarning[] {
  return group.observations
    .filter((o) => o.status >= 400)
    .map((o) => ({
      code: "failed_write",
      message: `${group.method} ${group.template} answered ${o.status}; a failed write teaches no write rule, only a validation (see validations) when it differs from the successes in one respect the recording confirms (a field left out, a value of another type, range or kind, one another entity holds)`,
      pointer: `/records/${o.index}/response/status`,
    }));
}

/** The writes a later read confirmed, all answered alike, or why there are none to learn from. */
function confirmedWrites(
  target: WriteTarget | null,
  walked: WriteObservation[],
  base: Base,
): { confirmed: WriteObservation[]; target: WriteTarget; createdStatus?: number } | { withheld: Withheld } {
  if (!target) return { withheld: withheld("no_collection", base) };
  const disagree = walked.find((w) => w.result === "disagrees");
  if (disagree)
    return {
      withheld: withheld("read_back_disagrees", {
        ...base,
        field: disagree.mismatch ?? "",
        ...(disagree.mismatchAt === undefined ? {} : { readAt: disagree.mismatchAt }),
        ...(disagree.bystander === undefined ? {} : { bystander: disagree.bystander }),
        ...(disagree.target.kind === "delete" && disagree.bystander === undefined ? { kept: true } : {}),
      }),
    };
  const confirmed = walked.filter((w) => w.result === "confirmed");
  // A write by query whose entities the walk could not tell: what kept it from telling them.
  const unresolved = walked.find((w) => w.unresolved !== undefined);
  if (confirmed.length === 0 && unresolved)
    return {
      withheld: withheld("not_read_back", {
        ...base,
        byQuery: { ...unresolved.unresolved!, at: unresolved.obs.index },
      }),
    };
  if (confirmed.length === 0) {
    // Creates that named no entity: the read after them exists, but nothing pairs it with what they wrote.
    const anonymous = walked.length > 0 && walked.every((w) => w.target.kind === "create" && w.id === null);
    // Creates a full list after them did not show: the recording holds the read a hint would ask for.
    const unseen = walked.length > 0 && walked.every((w) => w.unseenIn !== undefined) ? walked[0]! : null;
    // Updates a read after them showed unchanged in all they sent: the recording holds the read a hint would ask for.
    const shown = walked.length > 0 && walked.every((w) => w.shownAfter !== undefined) ? walked[0]! : null;
    const said = unseen
      ? { unseen: { id: unseen.id!, at: unseen.unseenIn! } }
      : anonymous
        ? { anonymous }
        : shown
          ? { shown: { at: shown.shownAfter!, fields: [...shown.expect.keys()] } }
          : {};
    return { withheld: withheld("not_read_back", { ...base, ...said }) };
  }
  if (new Set(confirmed.map((w) => w.obs.status)).size > 1) {
    const created = upsertStatus(target, confirmed);
    if (created === null) return { withheld: withheld("conflicting_observations", base) };
    return { confirmed, target, createdStatus: created };
  }
  return { confirmed, target };
}

/**
 * A delete the app answers by keeping its entity (a trash, an archive, a status): every read after a recorded delete
 * still showed the entity, so it is learned as what it is, an update of the fields that changed there (`merge`, each
 * field judged by the field rules like any update's, the read-back as the entity after). Null when any delete was
 * read back gone, or none was read back, or a delete answered otherwise than 2xx: those are judged as deletes.
 */
export function softDeletes(
  target: WriteTarget | null,
  walked: WriteObservation[],
): { confirmed: WriteObservation[]; target: WriteTarget; createdStatus?: number } | null {
  if (target?.kind !== "delete" || target.filter || target.batch || !target.collection.item) return null;
  const judged = walked.filter((w) => w.result !== "unconfirmed");
  if (judged.length === 0 || !judged.every((w) => w.keptAs !== undefined && w.obs.status < 300)) return null;
  const updates: WriteTarget = { ...target, kind: "merge" };
  return {
    target: updates,
    confirmed: judged.map((w) => ({ ...w, target: updates, result: "confirmed", readBack: w.keptAs! })),
  };
}

/**
 * The fields a delete learned as an update sets to a constant (`kept_delete`): each recorded one changed them (its
 * read-back confirmed it), so none showed what deleting an entity already holding them answers.
 */
function keptDelete(
  fields: WriteDraft["fields"],
): { kept_delete: { constants: string[] } } | Record<string, never> {
  const constants = fields.flatMap(({ field, rule }) => (rule.kind === "constant" ? [field] : [])).sort();
  if (constants.length === 0) return {};
  return { kept_delete: { constants } };
}

/** The string leaves of a request body (JSON or form), each with its pointer, at most a few levels deep. */
function sentTexts(w: WriteObservation): { pointer: string; text: string }[] {
  const r = w.obs.request;
  if (r.kind !== "json" && r.kind !== "form") return [];
  return pointerEntries(r.value, 4).flatMap(([pointer, v]) =>
    typeof v === "string" ? [{ pointer, text: v }] : [],
  );
}

/** The pieces of a sent text another value may be built from: the text, its last path segment, that without its extension. */
function stems(text: string): string[] {
  const last = text.split("/").pop() ?? text;
  const bare = last.includes(".") ? last.slice(0, last.lastIndexOf(".")) : last;
  return [...new Set([text, last, bare])].filter((x) => x.length >= 3);
}

/**
 * The first field a write learned as a constant, or as its old value with an affix, whose text, in every confirmed
 * observation, holds a piece of a text that observation's request sent without being it (a copy of
 * `projects/analysis.ipynb` named `analysis-Copy1.ipynb`; a sent slug `contact` answered `contact-2`): the app built
 * the value from what the request sent, which no field rule of the twin does (an affix of the old value is confirmed
 * only where nothing sent explains the value as well), and the rule would give every request this one's value. With
 * what it was built from, for the hint.
 */
function builtFromSent(
  fields: WriteDraft["fields"],
  confirmed: WriteObservation[],
): { field: string; built: { pointer: string; from: string; to: string; affix?: true } } | null {
  for (const { field, rule } of fields) {
    const one = rule.kind === "constant" && typeof rule.value === "string" ? rule.value : null;
    if (one === null && rule.kind !== "affix") continue;
    let first: { pointer: string; from: string; to: string } | null = null;
    const every = confirmed.every((w) => {
      const to = one ?? afterWrite(w)[field];
      if (typeof to !== "string") return false;
      const hit = sentTexts(w).find(({ text }) => text !== to && stems(text).some((p) => to.includes(p)));
      if (hit && !first) first = { pointer: hit.pointer, from: hit.text, to };
      return hit !== undefined;
    });
    // `first` is set inside the callback, which narrowing does not see.
    const found = first as { pointer: string; from: string; to: string } | null;
    if (every && found) return { field, built: one === null ? { ...found, affix: true } : found };
  }
  return null;
}

/**
 * The first field of a delete learned as an update whose one value (a constant) holds, as text, what the field held
 * before the delete, other than as an affix every delete shared (`slug` "n1" → "[n1]"; "contact" → "contact__trashed"
 * is the `affix` rule): the app built it from the entity's own earlier value in a way no field rule of the twin does,
 * and the constant would give every entity this one's value. With the read that showed it, for the hint; null when
 * none.
 */
function rebuiltFrom(
  fields: WriteDraft["fields"],
  confirmed: WriteObservation[],
): { field: string; kept: true; readAt: number; rebuilt: { from: unknown; to: unknown } } | null {
  for (const { field, rule } of fields) {
    if (rule.kind !== "constant" || typeof rule.value !== "string") continue;
    const to = rule.value;
    const w = confirmed.find((x) => {
      const from = x.pre?.[field];
      return typeof from === "string" && from !== "" && from !== to && to.includes(from);
    });
    if (w)
      return { field, kept: true, readAt: w.mismatchAt ?? w.obs.index, rebuilt: { from: w.pre![field], to } };
  }
  return null;
}

/**
 * A replace (PUT) whose status tells a create from a replace: every write to an id the recording had never shown
 * answered one status, every write to an entity it held answered another. That create status, else null.
 */
function upsertStatus(target: WriteTarget, confirmed: WriteObservation[]): number | null {
  if (target.kind !== "replace" && target.kind !== "merge") return null;
  const fresh = new Set(confirmed.filter((w) => w.pre === null && !w.idSeenBefore).map((w) => w.obs.status));
  const held = new Set(confirmed.filter((w) => w.pre !== null).map((w) => w.obs.status));
  if (fresh.size !== 1 || held.size !== 1 || fresh.size + held.size !== new Set([...fresh, ...held]).size)
    return null;
  if (confirmed.some((w) => w.pre === null && w.idSeenBefore)) return null;
  return [...fresh][0]!;
}

/**
 * The entity after a confirmed write: what its read-back shows, with what only the answer showed (the app
 * answers the writer more than its reads show: WordPress's `title.raw`, `password`). A clock the app stamped again
 * before the read (a folder's `last_modified` a file saved into it moved on) is the one the write answered: the
 * write's own stamp, which its clock rule explains; the later one belongs to what came after.
 */
export function afterWrite(w: WriteObservation): Entity {
  if (!w.answered || !w.readBack) return w.readBack!;
  const out = unionView(w.readBack, w.answered);
  for (const [k, v] of Object.entries(w.answered))
    if (Object.hasOwn(w.readBack, k) && restamped(w, k, v, w.readBack[k])) out[k] = v;
  return out;
}

/** What each confirmed write offers to explain the fields of the entity it wrote. */
function fieldContexts(
  target: WriteTarget,
  confirmed: WriteObservation[],
  session: FieldContext["session"] = [],
  defaults: ReadonlyMap<string, unknown> | undefined = undefined,
  tables: ReadonlyMap<string, Record<string, unknown>> | undefined = undefined,
  guesses: ReadonlyMap<string, unknown> | undefined = undefined,
): FieldContext[] {
  const col = target.collection;
  return confirmed.map((w) => ({
    entity: target.kind === "delete" ? (w.pre ?? { [col.idField]: w.id }) : afterWrite(w),
    request:
      w.obs.request.kind === "json" && isObject(w.obs.request.value)
        ? w.obs.request.value
        : w.obs.request.kind === "form"
          ? w.obs.request.value
          : null,
    loose: w.obs.request.kind === "form",
    pathParams: w.params ?? w.obs.pathParams,
    pre: w.pre,
    time: w.obs.time,
    maxIntBefore: w.maxIntBefore,
    maxPresentBefore: w.maxPresentBefore,
    otherMax: w.otherMaxBefore,
    collection: col.name,
    refs: w.refs,
    readBack: target.kind === "delete" ? null : w.readBack,
    scopeMax: w.scopeMaxBefore,
    idSeenBefore: w.idSeenBefore,
    idField: col.idField,
    create: target.kind === "create",
    scope:
      target.kind === "create" && col.parent
        ? ((w.params ?? w.obs.pathParams)[col.parent.param] ?? null)
        : null,
    session,
    ...(defaults && target.kind === "create" ? { defaults } : {}),
    ...(guesses && target.kind === "create" ? { guesses } : {}),
    ...(tables ? { tables } : {}),
    ...(col.parent ? { parentField: col.parent.field } : {}),
  }));
}

/** The rule of every field of the written entities (none for a delete), or the first field no rule explains. */
function fieldRules(
  target: WriteTarget,
  confirmed: WriteObservation[],
  contexts: FieldContext[],
  opts: LearnOptions,
  base: Base,
): { fields: WriteDraft["fields"] } | { withheld: Withheld } {
  if (target.kind === "delete") return { fields: [] };
  const names: string[] = [];
  for (const c of contexts) for (const k of Object.keys(c.entity)) if (!names.includes(k)) names.push(k);
  // Every field is judged: a gap no recording can close wins over one a recording could (it decides the hint).
  let refused: Withheld | null = null;
  const derived = opts.derived?.get(target.collection.name);
  const rules = new Map<string, FieldRule>();
  const unexplained: { field: string; withheld: Withheld; split: boolean }[] = [];
  for (const f of names) {
    const verdict = inferFieldRule(f, contexts, opts.clockWindowMs);
    // A field derived from the id needs no other rule (withDerived below gives it its rule).
    const fromId = derived?.get(f);
    if (!verdict.ok && fromId && derivesAll(fromId, f, contexts)) {
      rules.set(f, fromId);
      continue;
    }
    if (!verdict.ok) {
      // A token no read-back shows is one only the answer carries (an etag).
      const shown = confirmed.some((w) => w.readBack && Object.hasOwn(w.readBack, f));
      const gap =
        verdict.gap?.kind === "token" && !shown ? { ...verdict.gap, answerOnly: true } : verdict.gap;
      const w = withheld(verdict.reason, {
        ...base,
        field: verdict.path ?? f,
        ...(gap ? { gap } : {}),
        ...(verdict.ambiguous ? { ambiguous: verdict.ambiguous } : {}),
        ...(target.collection.parent ? { scopeParam: target.collection.parent.param } : {}),
      });
      // Only a conflict may follow a request value: never a gap no recording closes (a token, a counter).
      unexplained.push({
        field: f,
        withheld: w,
        split: !gap && !verdict.ambiguous && verdict.reason !== "untimed_capture",
      });
      continue;
    }
    rules.set(f, verdict.rule);
  }
  if (unexplained.length > 0) {
    // The fields no one rule explains may each follow one request value (a file and a notebook created alike).
    const split = unexplained.every((u) => u.split)
      ? requestCases(
          unexplained.map((u) => u.field),
          contexts,
          opts.clockWindowMs,
          opts.categories?.get(target.collection.name) ?? new Set(),
        )
      : { ok: false as const };
    if (split.ok) {
      for (const [f, rule] of split.rules) rules.set(f, rule);
      for (const [f, rule] of refineUnderCases(split.pointer, rules, contexts, opts.clockWindowMs))
        rules.set(f, rule);
    } else
      for (const u of unexplained)
        if (!refused || (refused.closable && !u.withheld.closable)) refused = u.withheld;
  }
  if (refused) return { withheld: refused };
  const fields: WriteDraft["fields"] = names.map((f) => ({ field: f, rule: rules.get(f)! }));
  return { fields: simplifyFields(derived ? withDerived(fields, derived, contexts) : fields) };
}

/** True when a rule reads the entity's field `f` (a format part, a copy): `f` cannot then be derived from it. */
function reads(rule: FieldRule, f: string): boolean {
  if (rule.kind === "copy") return rule.from === f;
  if (rule.kind === "format")
    return rule.parts.some((p) => "entity" in p && (p.entity === `/${f}` || p.entity.startsWith(`/${f}/`)));
  if (rule.kind === "object") return rule.fields.some((x) => reads(x.rule, f));
  if (rule.kind === "array") return rule.items.some((x) => reads(x, f));
  if (rule.kind === "cases") return rule.cases.some((x) => reads(x.rule, f));
  return false;
}

/**
 * The fields the collection derives from the id (confirmed over every entity the recording showed) take that rule
 * when it gives every written entity's value too, so a create, a replace or a move gives what the id implies; not
 * a field the id's own rule is built from (a created file's path from its name).
 */
function withDerived(
  fields: WriteDraft["fields"],
  derived: ReadonlyMap<string, Extract<FieldRule, { kind: "from_id" }>>,
  contexts: FieldContext[],
): WriteDraft["fields"] {
  const idField = contexts[0]?.idField;
  const idRule = fields.find((x) => x.field === idField)?.rule;
  return fields.map((x) => {
    const rule = derived.get(x.field);
    if (!rule || (idRule && reads(idRule, x.field))) return x;
    return derivesAll(rule, x.field, contexts) ? { field: x.field, rule } : x;
  });
}

/** True when the rule gives field `f` of every written entity that holds it. */
function derivesAll(
  rule: Extract<FieldRule, { kind: "from_id" }>,
  f: string,
  contexts: FieldContext[],
): boolean {
  return contexts.every((c) => {
    if (!Object.hasOwn(c.entity, f)) return true;
    const id = c.entity[c.idField];
    if (typeof id !== "string") return false;
    const d = deriveFromId(rule, id);
    return "value" in d && d.value === c.entity[f];
  });
}

/** The answer rule and the redirect Location every confirmed write shares, or why they do not fit one rule. */
function answerRule(
  target: WriteTarget,
  confirmed: WriteObservation[],
  contexts: FieldContext[],
  base: Base,
): { response: WriteDraft["response"]; location: string | null } | { withheld: Withheld } {
  const cases: AnswerCase[] = confirmed.map((w, i) => ({
    body: w.obs.response.kind === "json" ? w.obs.response.value : undefined,
    entity: contexts[i]!.entity,
    request: contexts[i]!.request,
  }));
  const response = learnResponse(cases);
  if (!response.ok)
    return {
      withheld: withheld("unexplained_field", {
        ...base,
        field: response.field,
        ...(response.token ? { gap: { kind: "token", token: response.token, answerOnly: true } } : {}),
      }),
    };
  // A redirect's Location is its meaning: redirects that do not share one template withhold the write.
  const idField = target.collection.idField;
  const template = (w: WriteObservation, i: number) =>
    redirectTarget(w.obs) === null ? null : locationTemplate(w.obs, contexts[i]!.entity, idField);
  if (confirmed.some((w) => isRedirect(w.obs.status))) {
    const locations = new Set(confirmed.map(template));
    if (locations.size > 1)
      return { withheld: withheld("conflicting_observations", { ...base, field: "Location" }) };
    return { response: response.response, location: [...locations][0] ?? null };
  }
  // Another answer's Location is kept when every one names the written entity by one template (`201` with
  // `Location: /api/tasks/3`); else the twin sends none (it is no part of the answer's meaning, never a reason to
  // withhold: a checkpoint's Location also names its file, which no entity field fills in).
  const named = new Set(confirmed.map(template));
  const only = named.size === 1 ? [...named][0]! : null;
  return { response: response.response, location: only?.includes(`{${idField}}`) ? only : null };
}

/**
 * The answer of a batch update, the same shape in every confirmed request: none, the bare list of the entities it
 * wrote in the order the request named them, or that list under the one key of an object. Each listed entity must
 * show the entity as its read-back (with what the answer added) does.
 */
function batchAnswer(
  target: WriteTarget,
  confirmed: WriteObservation[],
  base: Base,
): { response: WriteDraft["response"]; location: null } | { withheld: Withheld } {
  const idField = target.collection.idField;
  const byObs = new Map<WriteObservation["obs"], WriteObservation[]>();
  for (const w of confirmed) appendTo(byObs, w.obs, w);
  const shapes = new Set<string>();
  for (const [o, ws] of byObs) {
    const body = o.response.kind === "json" ? o.response.value : undefined;
    if (o.response.kind === "none") {
      shapes.add("empty");
      continue;
    }
    const key = isObject(body) && Object.keys(body).length === 1 ? Object.keys(body)[0]! : null;
    const listed = Array.isArray(body) ? body : key !== null && isObject(body) ? body[key] : undefined;
    const keys =
      o.request.kind === "json" && isObject(o.request.value) ? o.request.value[target.batch!.keys] : null;
    const after = new Map(ws.map((w) => [w.id, afterWrite(w)]));
    const fits =
      Array.isArray(listed) &&
      Array.isArray(keys) &&
      listed.length === keys.length &&
      listed.every((e, i) => {
        if (!isObject(e) || String(e[idField]) !== String(keys[i])) return false;
        const a = after.get(String(keys[i]));
        return (
          a === undefined || Object.entries(e).every(([k, v]) => JSON.stringify(a[k]) === JSON.stringify(v))
        );
      });
    shapes.add(fits ? (key === null ? "entity" : `wrapped:${key}`) : "unexplained");
  }
  const [shape] = [...shapes];
  if (shapes.size !== 1 || shape === "unexplained")
    return { withheld: withheld("unexplained_field", { ...base, field: "(the answer)" }) };
  if (shape === "empty") return { response: { kind: "empty" }, location: null };
  if (shape === "entity") return { response: { kind: "entity" }, location: null };
  return { response: { kind: "wrapped", key: shape!.slice("wrapped:".length) }, location: null };
}

/**
 * The answer of a write by query, the same shape in every confirmed request: none, or the bare array of the entities
 * it selected in list order, each a view of that entity after the write (before it, for a delete) leaving out the
 * same top-level fields every time (`rows`).
 */
function queryAnswer(
  target: WriteTarget,
  confirmed: WriteObservation[],
  base: Base,
): { response: WriteDraft["response"]; location: null } | { withheld: Withheld } {
  const byObs = new Map<WriteObservation["obs"], WriteObservation[]>();
  for (const w of confirmed) appendTo(byObs, w.obs, w);
  const shapes = new Set<string>();
  const omitted = new Set<string>();
  const shownKeys = new Set<string>();
  for (const [o, ws] of byObs) {
    if (o.response.kind === "none") {
      shapes.add("empty");
      continue;
    }
    const body = o.response.kind === "json" ? o.response.value : undefined;
    // One number, the count of entities the query selected (`{"count": 3}`): the same key in every answer.
    const n = countOf(body);
    if (n !== null && !Array.isArray(body) && n.n === ws.filter((w) => w.id !== null).length) {
      shapes.add(`count:${JSON.stringify(n.key)}`);
      continue;
    }
    const fits =
      Array.isArray(body) &&
      body.length === ws.length &&
      body.every((e, i) => {
        const w = ws[i]!;
        const a = target.kind === "delete" ? w.pre : afterWrite(w);
        if (!isObject(e) || a === null || String(e[target.collection.idField]) !== w.id) return false;
        for (const k of Object.keys(a)) if (!Object.hasOwn(e, k)) omitted.add(k);
        for (const k of Object.keys(e)) shownKeys.add(k);
        return Object.entries(e).every(([k, v]) => JSON.stringify(a[k]) === JSON.stringify(v));
      });
    shapes.add(fits ? "rows" : "unexplained");
  }
  const [shape] = [...shapes];
  if (shapes.size !== 1 || shape === "unexplained" || [...omitted].some((k) => shownKeys.has(k)))
    return { withheld: withheld("unexplained_field", { ...base, field: "(the answer)" }) };
  if (shape === "empty") return { response: { kind: "empty" }, location: null };
  if (shape!.startsWith("count:"))
    return { response: { kind: "count", key: JSON.parse(shape!.slice(6)) as string | null }, location: null };
  const omit = [...omitted].sort().map((k) => pointerOf(k));
  return { response: { kind: "rows", ...(omit.length > 0 ? { omit } : {}) }, location: null };
}

/** The answer of a whole-collection write, the same in every confirmed request: none, or the array it sent. */
function replaceAllAnswer(
  confirmed: WriteObservation[],
  base: Base,
): { response: WriteDraft["response"] } | { withheld: Withheld } {
  const shapes = new Set(
    confirmed.map((w) => {
      const o = w.obs;
      if (o.response.kind === "none") return "empty";
      const sent = o.request.kind === "json" ? o.request.value : undefined;
      return o.response.kind === "json" && JSON.stringify(o.response.value) === JSON.stringify(sent)
        ? "entity"
        : "unexplained";
    }),
  );
  const [shape] = [...shapes];
  if (shapes.size !== 1 || shape === "unexplained")
    return { withheld: withheld("unexplained_field", { ...base, field: "(the answer)" }) };
  return { response: shape === "empty" ? { kind: "empty" } : { kind: "entity" } };
}

/**
 * A PUT replaces the entity (a field its rule does not name is dropped) only when the recording shows it dropping
 * one: a field the entity had before that the written entity lacks. A PUT every read-back showed keeping each field
 * it had is a partial update, which keeps fields no recorded entity had too (an issue's `assigned_to`).
 */
export function replaceKind(kind: WriteTarget["kind"], confirmed: WriteObservation[]): WriteTarget["kind"] {
  if (kind !== "replace") return kind;
  const seen = confirmed.filter((w) => w.pre !== null);
  if (seen.length === 0) return kind;
  const dropped = seen.some((w) => {
    const after = afterWrite(w);
    return Object.keys(w.pre!).some((k) => !Object.hasOwn(after, k));
  });
  return dropped ? kind : "merge";
}

/**
 * True for a PUT `replaceKind` takes for a partial update whose confirmed read-backs never showed a field the
 * entity held before and the request did not send (its id aside): none dropped one, none kept one. Whether the app
 * keeps or drops such a field is then unknown (LoopBack's review training PUT `{title, isComplete}` on a todo holding
 * only those; the held-out PUT on a todo with `desc` dropped it, where the twin had kept it).
 */
export function unsentUndecided(
  kind: WriteTarget["kind"],
  confirmed: WriteObservation[],
  idField: string,
): boolean {
  if (kind !== "replace" || replaceKind(kind, confirmed) !== "merge") return false;
  return confirmed.every((w) => {
    if (w.pre === null) return true;
    const body = w.obs.request.kind === "json" ? w.obs.request.value : undefined;
    const sent = body !== null && typeof body === "object" && !Array.isArray(body) ? body : {};
    return Object.keys(w.pre).every((k) => k === idField || Object.hasOwn(sent, k));
  });
}

/** Judges one write endpoint: the draft of its rule, or why it is withheld (plus warnings about ignored failures). */
export function learnWrite(
  group: EndpointGroup,
  target: WriteTarget | null,
  walked: WriteObservation[],
  opts: LearnOptions,
  readRoutes: ReadonlySet<string> = new Set(),
): WriteJudgement {
  const base = {
    method: group.method,
    template: group.template,
    readBack: readBackOf(group, target, readRoutes),
  };
  const refused = unusable(group, base);
  if (refused) return { draft: null, withheld: refused, warnings: [] };
  const warnings = failedWrites(group);
  const no = (w: Withheld): WriteJudgement => ({ draft: null, withheld: w, warnings });
  const soft = softDeletes(target, walked);
  if (soft) base.readBack = readBackOf(group, soft.target, readRoutes);
  const judged = soft ?? confirmedWrites(target, walked, base);
  if ("withheld" in judged) return no(judged.withheld);
  const { confirmed, target: written } = judged;
  if (written.replaceAll) {
    const answer = replaceAllAnswer(confirmed, base);
    if ("withheld" in answer) return no(answer.withheld);
    const first = confirmed[0]!.obs;
    const draft: WriteDraft = {
      tool_name: group.toolName,
      kind: "replace",
      collection: written.collection.name,
      id_param: null,
      status: first.status,
      content_type: first.contentType,
      response: answer.response,
      replace_all: true,
      fields: [],
    };
    return { draft, withheld: null, warnings };
  }
  const contexts = fieldContexts(
    written,
    confirmed,
    opts.session,
    opts.defaults?.get(written.collection.name),
    opts.tables?.get(written.collection.name),
    opts.guesses?.get(written.collection.name),
  );
  const fields = fieldRules(written, confirmed, contexts, opts, base);
  if ("withheld" in fields) return no(fields.withheld);
  const rebuilt = soft ? rebuiltFrom(fields.fields, soft.confirmed) : null;
  if (rebuilt) return no(withheld("unexplained_field", { ...base, ...rebuilt }));
  const built = builtFromSent(fields.fields, confirmed);
  if (built) return no(withheld("unexplained_field", { ...base, ...built }));
  // A write by query reads its query under one prefix in every confirmed observation, or its rule is unknown.
  const prefixes = new Set(confirmed.map((w) => JSON.stringify(w.queryPrefix ?? [])));
  if (written.filter && prefixes.size > 1)
    return no(withheld("conflicting_observations", { ...base, field: "(the query)" }));
  const queryPrefix = written.filter ? (confirmed[0]!.queryPrefix ?? []) : [];
  const answer = written.batch
    ? batchAnswer(written, confirmed, base)
    : written.filter
      ? queryAnswer(written, confirmed, base)
      : answerRule(written, confirmed, contexts, base);
  if ("withheld" in answer) return no(answer.withheld);
  // A create-or-replace answers the replace's status, and its create status where the path names no entity.
  const first = (judged.createdStatus === undefined ? confirmed : confirmed.filter((w) => w.pre !== null))[0]!
    .obs;
  const draft: WriteDraft = {
    tool_name: group.toolName,
    kind: replaceKind(written.kind, confirmed),
    ...(unsentUndecided(written.kind, confirmed, written.collection.idField)
      ? { unsent_undecided: true as const }
      : {}),
    ...(soft ? keptDelete(fields.fields) : {}),
    collection: written.collection.name,
    id_param: written.idParam,
    status: first.status,
    ...(judged.createdStatus === undefined ? {} : { created_status: judged.createdStatus }),
    content_type: first.contentType,
    response: answer.response,
    ...(answer.location === null ? {} : { location: answer.location }),
    ...(written.batch ? { batch: written.batch } : {}),
    ...(written.filter ? { by_query: true as const } : {}),
    ...(queryPrefix.length > 0 ? { query_prefix: queryPrefix } : {}),
    fields: fields.fields,
    ...descendantsRule(group, written, walked),
  };
  return { draft, withheld: null, warnings };
}
