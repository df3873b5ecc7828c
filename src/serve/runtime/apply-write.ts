/**
 * Served writes: a learned write rule applied to the episode's state
 * (create, replace, merge, delete), answered with the status, content type
 * and body shape the app answered with. The episode clock moves one step per write.
 */
import type { Collection, Endpoint, Entity, Model, WriteRule } from "../../model/model-schema.js";
import { queryTargets } from "../../model/query-targets.js";
import { withoutPointers } from "../../util/entity-view.js";
import { fillParam, templateParams } from "../../util/fill-template.js";
import { applyFieldRules, type RuleContext } from "./apply-field-rules.js";
import { compare, locateNth, missAnswer, notFound, scoped } from "./collection-read.js";
import type { CollectionState } from "./collection-state.js";
import {
  explainAlreadyKept,
  explainedAnswer,
  explainIdTaken,
  explainQueryWrite,
  explainUnbuiltId,
  explainUnknownDerived,
  explainUnrecordedReference,
  explainUnsentFields,
} from "./explain-miss.js";
import { queryForm } from "./json-text.js";
import { applyDescendants, planDescendants } from "./move-descendants.js";
import type { Episode, TwinRequest, TwinResponse } from "./twin-types.js";

/** The entity as an answer shows it: itself (frozen, from the state), or a copy without what it leaves out. */
function view(entity: Entity, omit: string[] | undefined): Entity {
  return omit && omit.length > 0 ? withoutPointers(entity, omit) : entity;
}

/** Builds the answer body of a served write from its response rule (the entity is the state's, frozen). */
function answerBody(rule: WriteRule, entity: Entity): unknown {
  const r = rule.response;
  switch (r.kind) {
    case "entity":
      return view(entity, r.omit);
    case "wrapped":
      return { [r.key]: view(entity, r.omit) };
    case "rows":
      return [view(entity, r.omit)];
    case "count":
      return r.key === null ? 1 : { [r.key]: 1 };
    case "template": {
      const body = structuredClone(r.body);
      if (body !== null && typeof body === "object" && !Array.isArray(body)) {
        for (const f of r.fields) (body as Record<string, unknown>)[f] = entity[f];
        if (r.entity_key !== undefined)
          (body as Record<string, unknown>)[r.entity_key] = view(entity, r.omit);
      }
      return body;
    }
    case "empty":
      return undefined;
  }
}

/** Fills a learned Location template (`/items/{id}`) from the entity after the write. */
function fillLocation(template: string, entity: Entity): string {
  return templateParams(template).reduce(
    (path, field) => fillParam(path, field, String(entity[field] ?? "")),
    template,
  );
}

function answer(rule: WriteRule, entity: Entity): TwinResponse {
  const value = answerBody(rule, entity);
  const contentType = rule.content_type ?? "application/json";
  const empty = value === undefined;
  const headers: Record<string, string> = empty ? {} : { "content-type": contentType };
  // Post-redirect-get: the app answered the write with a 3xx and a Location.
  if (rule.location !== undefined) headers.location = fillLocation(rule.location, entity);
  return {
    status: rule.status,
    headers,
    body: empty ? null : { kind: "json", value },
    served_by: "state",
    rule: rule.tool_name,
  };
}

/**
 * The entity as a path tree holds it: an id its rules joined to the root folder's empty path (`"" + "/" + name`) is
 * the name alone, as every top-level id the recording showed is (tree-collection.ts).
 */
function inRoot(c: Collection, entity: Entity): Entity {
  const id = entity[c.id_field];
  const sep = c.tree?.separator;
  if (!c.tree?.root || sep === undefined || typeof id !== "string" || !id.startsWith(sep)) return entity;
  return { ...entity, [c.id_field]: id.slice(sep.length) };
}

/**
 * True when an entity the state holds has this id in the written entity's scope: a nested collection's ids need be
 * unique only under their parent (each file's one checkpoint `checkpoint`), other collections' everywhere.
 */
function heldInScope(c: Collection, list: CollectionState, id: string, entity: Entity): boolean {
  if (!list.has(id)) return false;
  if (!c.parent) return true;
  const scope = queryForm(entity[c.parent.field]);
  // Only the entities holding the id (the index's slots), never the whole collection: a write costs the same at any size.
  for (const e of list.withId(id)) if (queryForm(e[c.parent.field]) === scope) return true;
  return false;
}

/**
 * A batch update: each entity the request's `keys` names updated by the rule's fields, in key order, answered with
 * them as the rule's response shows one entity (the bare list, or under its key). An id the state lacks answers the
 * collection's not-found before anything is written: the recording never showed the app's answer to one.
 */
function applyBatch(
  model: Model,
  episode: Episode,
  c: Collection,
  rule: WriteRule,
  req: TwinRequest,
  batch: { keys: string; data: string },
): TwinResponse {
  const list = episode.state.collection(c.name);
  const body = req.body?.kind === "json" ? req.body.value : null;
  const keys =
    body !== null && typeof body === "object" && !Array.isArray(body) ? (body as Entity)[batch.keys] : null;
  if (!Array.isArray(keys)) return notFound(c, rule.tool_name, undefined);
  const ids = keys.map((k) => String(k));
  const missing = ids.find((id) => !list.has(id));
  if (missing !== undefined) return notFound(c, rule.tool_name, missing);
  episode.clock_ms += model.clock.step_ms;
  const written = ids.map((id) => {
    const old = list.get(id)!;
    const entity = applyFieldRules(
      rule.fields,
      { episode, collection: c.name, body: req.body, params: {}, old },
      true,
    );
    return list.put(id, entity);
  });
  const r = rule.response;
  const value = r.kind === "empty" ? undefined : r.kind === "wrapped" ? { [r.key]: written } : written;
  return {
    status: rule.status,
    headers: value === undefined ? {} : { "content-type": rule.content_type ?? "application/json" },
    body: value === undefined ? null : { kind: "json", value },
    served_by: "state",
    rule: rule.tool_name,
  };
}

/**
 * A write of the whole collection: the request's array becomes the collection, entity for entity, in its order.
 * A body that is no array of entities each holding a scalar id, or holding one id twice, is refused and nothing is
 * written: the recording never showed the app's answer to one.
 */
function applyReplaceAll(
  model: Model,
  episode: Episode,
  c: Collection,
  rule: WriteRule,
  req: TwinRequest,
): TwinResponse {
  const list = episode.state.collection(c.name);
  const body = req.body?.kind === "json" ? req.body.value : null;
  const ids = Array.isArray(body)
    ? body.map((e) =>
        e !== null &&
        typeof e === "object" &&
        !Array.isArray(e) &&
        ["string", "number"].includes(typeof e[c.id_field])
          ? String(e[c.id_field])
          : null,
      )
    : null;
  if (ids === null || ids.includes(null) || new Set(ids).size !== ids.length)
    return explainedAnswer(
      400,
      {
        error: "invalid_body",
        message: `${req.method.toUpperCase()} ${req.path}: the body must be an array of ${c.name}, each with its own "${c.id_field}"; the recording never shows the app's answer to another body, so the twin writes nothing.`,
      },
      "state",
      rule.tool_name,
    );
  episode.clock_ms += model.clock.step_ms;
  for (const e of [...list.values()]) list.delete(String(e[c.id_field]));
  for (const e of body as Entity[]) list.append(structuredClone(e));
  return {
    status: rule.status,
    headers:
      rule.response.kind === "empty" ? {} : { "content-type": rule.content_type ?? "application/json" },
    body: rule.response.kind === "empty" ? null : { kind: "json", value: [...list.values()] },
    served_by: "state",
    rule: rule.tool_name,
  };
}

/**
 * A write by query: every entity of the scope the query's filters select (by the collection's confirmed query
 * rules, as its reads are answered) written by the rule's fields, or deleted, in list order; answered with those
 * entities as a bare array (after the write, or before a delete: `rows`) or with no body. A query the rules do not
 * select by, one with more than filters, or one selecting nothing is the explained 501 and nothing is written.
 */
function applyQueryWrite(
  model: Model,
  episode: Episode,
  c: Collection,
  rule: WriteRule,
  req: TwinRequest,
  params: Record<string, string>,
  endpoint: Endpoint,
): TwinResponse {
  const list = episode.state.collection(c.name);
  let rows = scoped(list, c, params);
  if (c.list_order.kind === "field") {
    const { field, direction } = c.list_order;
    const sign = direction === "asc" ? 1 : -1;
    rows = [...rows].sort((a, b) => sign * compare(a[field], b[field]));
  }
  const got = queryTargets(c.query, rows, req.query, c.id_field, rule.query_prefix);
  if ("why" in got) return explainQueryWrite(req, endpoint, got.why, got.detail);
  if (got.rows.length === 0) return explainQueryWrite(req, endpoint, "none", "");
  episode.clock_ms += model.clock.step_ms;
  const written: Entity[] = [];
  for (const old of got.rows) {
    const id = String(old[c.id_field]);
    if (rule.kind === "delete") {
      list.delete(id);
      written.push(old);
      continue;
    }
    const entity = applyFieldRules(
      rule.fields,
      { episode, collection: c.name, body: req.body, params, old, idField: c.id_field },
      rule.kind === "merge",
    );
    written.push(list.put(id, entity));
  }
  const r = rule.response;
  const n = written.length;
  const value =
    r.kind === "rows"
      ? written.map((e) => view(e, r.omit))
      : r.kind === "count"
        ? r.key === null
          ? n
          : { [r.key]: n }
        : undefined;
  return {
    status: rule.status,
    headers: value === undefined ? {} : { "content-type": rule.content_type ?? "application/json" },
    body: value === undefined ? null : { kind: "json", value },
    served_by: "state",
    rule: rule.tool_name,
  };
}

/** Applies a served write rule to the episode (mutating its state) and answers it. */
export function applyWrite(
  model: Model,
  episode: Episode,
  c: Collection,
  rule: WriteRule,
  req: TwinRequest,
  params: Record<string, string>,
  endpoint?: Endpoint,
): TwinResponse {
  if (rule.batch) return applyBatch(model, episode, c, rule, req, rule.batch);
  if (rule.by_query && endpoint) return applyQueryWrite(model, episode, c, rule, req, params, endpoint);
  if (rule.replace_all) return applyReplaceAll(model, episode, c, rule, req);
  const list = episode.state.collection(c.name);
  const found = rule.kind === "create" ? undefined : locateNth(c, list, params, rule.id_param ?? "");
  const old = found?.entity ?? null;
  // A create-or-replace (a PUT to a client-chosen path) creates the entity its path names when there is none.
  const creates =
    rule.kind !== "create" && rule.kind !== "delete" && !old && rule.created_status !== undefined;
  if (rule.kind !== "create" && !old && !creates)
    return missAnswer(c, list, params[rule.id_param ?? ""], rule.tool_name, true);
  episode.clock_ms += model.clock.step_ms;
  const id = params[rule.id_param ?? ""]!;
  // The entity `locateNth` found is the one replaced or deleted: the nth holding the path's id (the one under the
  // path's parent), or, named by another of its ids, the first holding its own.
  const at =
    found === undefined
      ? { id, nth: 0 }
      : found.nth < 0 && found.entity[c.id_field] !== undefined && found.entity[c.id_field] !== null
        ? { id: String(found.entity[c.id_field]), nth: 0 }
        : { id, nth: Math.max(0, found.nth) };
  if (rule.kind === "delete") {
    list.delete(at.id, at.nth);
    return answer(rule, old!);
  }
  const unknown: { field: string; extension: string }[] = [];
  const unrecorded: NonNullable<RuleContext["unrecorded"]> = [];
  const guessed: { id: number; freed: number }[] = [];
  const defaulted: string[] = [];
  const ctx = {
    episode,
    collection: c.name,
    body: req.body,
    params,
    old,
    idField: c.id_field,
    unknown,
    unrecorded,
    guessed,
    defaulted,
  };
  const before = { clock: episode.clock_ms - model.clock.step_ms, sequences: { ...episode.id_sequences } };
  // A PUT leaving out a field the entity holds, where the recording never showed whether the app keeps it.
  const unsent = rule.unsent_undecided ? unsentFields(rule, c.id_field, old ?? undefined, req.body) : [];
  if (unsent.length > 0) {
    episode.clock_ms = before.clock;
    return explainUnsentFields(rule.tool_name, id, unsent);
  }
  // A delete that keeps its entity (a trash), on one already holding what it sets: never recorded.
  if (rule.kept_delete && old && alreadyKept(rule, old)) {
    episode.clock_ms = before.clock;
    return explainAlreadyKept(rule.tool_name, id, rule.kept_delete.constants);
  }
  const built = applyFieldRules(rule.fields, ctx, rule.kind === "merge");
  const entity = inRoot(c, built);
  // A value the app looked up by a reference the recording never sent: never the recorded one passed off as it.
  if (unrecorded.length > 0) {
    episode.clock_ms = before.clock;
    episode.id_sequences = before.sequences;
    return explainUnrecordedReference(rule.tool_name, unrecorded[0]!);
  }
  // A field derived from the id that the id does not tell (an extension no recording showed): never a guess.
  if (unknown.length > 0) {
    episode.clock_ms = before.clock;
    episode.id_sequences = before.sequences;
    return explainUnknownDerived(rule.tool_name, String(entity[c.id_field] ?? id), unknown[0]!);
  }
  // The entity's own id, also where the path named it by another of its ids (`/projects/docs.json`).
  const taken = rule.kind === "create" || creates ? null : at.id;
  const newId = entity[c.id_field];
  // A create whose rules built no id (the request lacks what the recorded creates built it from): never an entity
  // without one.
  if ((rule.kind === "create" || creates) && (newId === undefined || newId === null)) {
    episode.clock_ms = before.clock;
    episode.id_sequences = before.sequences;
    return explainUnbuiltId(c.name, rule);
  }
  // A create (or a move) onto an id the state holds: the recording never showed what the app does then (a second
  // file it names `untitled.txt`, a client id in use), so the twin says so instead of holding two entities.
  if (
    (typeof newId === "string" || typeof newId === "number") &&
    String(newId) !== taken &&
    heldInScope(c, list, String(newId), entity)
  ) {
    episode.clock_ms = before.clock;
    episode.id_sequences = before.sequences;
    return explainIdTaken(c.name, rule.tool_name, String(newId));
  }
  // A rename in a hierarchy: the entities under the entity move with it in the same step, or the rename is refused.
  const plan =
    taken !== null && (typeof newId === "string" || typeof newId === "number")
      ? planDescendants(c, list, rule, taken, String(newId))
      : { moves: [] };
  if ("refused" in plan) {
    episode.clock_ms = before.clock;
    episode.id_sequences = before.sequences;
    return plan.refused;
  }
  if (rule.kind === "create" || creates) list.append(entity);
  else list.put(at.id, entity, at.nth);
  applyDescendants(list, plan);
  const res = creates ? { ...answer(rule, entity), status: rule.created_status! } : answer(rule, entity);
  return withWarnings(res, guessed, defaulted);
}

/** True when the entity already holds every constant a delete that keeps its entity sets (`kept_delete`). */
function alreadyKept(rule: WriteRule, old: Entity): boolean {
  return rule.kept_delete!.constants.every((f) => {
    const r = rule.fields.find((x) => x.field === f)?.rule;
    return r?.kind === "constant" && JSON.stringify(old[f]) === JSON.stringify(r.value);
  });
}

/** The answer with an `x-apptwin-warning` for each guess it holds (an id, unconfirmed defaults), or as it is. */
function withWarnings(
  res: TwinResponse,
  guessed: { id: number; freed: number }[],
  defaulted: string[],
): TwinResponse {
  const warnings: string[] = [];
  if (guessed.length > 0) warnings.push(guessWarning(guessed));
  if (defaulted.length > 0) warnings.push(defaultWarning(defaulted));
  if (warnings.length === 0) return res;
  return { ...res, headers: { ...res.headers, "x-apptwin-warning": warnings.join("; ") } };
}

/**
 * Fields the request left out whose value is the twin's documented default (the one empty value the collection's
 * entities held, else [] / false / null by kind), because no recorded create ever left them out: the app may give
 * another default, or refuse the request. Served, with the answer saying so, never passed off as the app's.
 */
function defaultWarning(pointers: string[]): string {
  const names = [...new Set(pointers)].sort().join(", ");
  return `the request left out ${names}, which every recorded create sent: ${pointers.length === 1 ? "its value is" : "their values are"} the twin's documented default, not one the recording confirmed`;
}

/**
 * A create's answer whose id is the twin's guess: drawn after the highest ever given, while the highest entity was
 * deleted and the recording never showed whether the app gives that freed id again (SQLite's rowid does; a Postgres
 * sequence never). Served, not refused: the id is a name the client reads from this answer, and the twin's later
 * answers agree with it; refusing would fail every later request about the entity.
 */
function guessWarning(guessed: { id: number; freed: number }[]): string {
  const g = guessed[0]!;
  return `id ${g.id} is the twin's guess: the highest entity was deleted and the recording never showed whether the app gives its freed id (${g.freed}) again; the twin never does`;
}

/**
 * The fields the entity holds that a PUT's JSON body leaves out and no rule of it assigns (a clock, a sequence, a
 * constant): what the app does with them the recording never showed (`unsent_undecided`).
 */
function unsentFields(
  rule: WriteRule,
  idField: string,
  old: Entity | undefined,
  body: TwinRequest["body"],
): string[] {
  if (!old || body?.kind !== "json" || body.value === null || typeof body.value !== "object") return [];
  const sent = body.value as Record<string, unknown>;
  const assigned = new Set(
    rule.fields.filter((f) => f.rule.kind !== "keep" && f.rule.kind !== "from_request").map((f) => f.field),
  );
  return Object.keys(old)
    .filter((k) => k !== idField && !Object.hasOwn(sent, k) && !assigned.has(k))
    .sort();
}
