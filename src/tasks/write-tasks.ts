/**
 * Changes to make, from the writes the twin serves from state (never a
 * withheld or acknowledged one): create an entity with given fields, change
 * a field of an entity found by its key, delete one, and find an entity by
 * another property then change it. Each is graded on the final state: the
 * expected change is there and nothing else changed.
 */

import type { Entity, Model, WriteRule } from "../model/model-schema.js";
import { escapePointerToken, keyOfPointer, pointerOf, readPointer } from "../util/json-pointer.js";
import { queryForm } from "../util/query-form.js";
import {
  type CollectionView,
  type EvalTool,
  type FieldInfo,
  idOf,
  type Scope,
  scopeContaining,
  scopeOf,
  valuesIn,
} from "./collection-view.js";
import { newValue } from "./new-value.js";
import { orderRank } from "./order-rank.js";
import { orderField, orderPhrase } from "./retrieval-tasks.js";
import {
  discoveryCalls,
  entityArgs,
  entityPhrase,
  fieldIdPart,
  type Generated,
  noKey,
  none,
  scopePhrase,
  skip,
  taskId,
} from "./task-parts.js";
import type { ExpectedField, OracleCall, Task } from "./task-schema.js";
import { article, capitalised, flagWords, NEW_PHRASES, quoted, words } from "./task-words.js";

/** The served writes of one collection, with their tools. */
export interface ServedWrites {
  rules: { rule: WriteRule; tool: EvalTool }[];
}

const UPDATE_KINDS = new Set(["merge", "replace"]);
const FIXED_RULES = new Set(["from_request", "keep", "path_param"]);

function write(
  id: string,
  kind: Task["kind"],
  prompt: string,
  changes: Task["expected"]["changes"],
  calls: OracleCall[],
  explain: string,
): Task {
  return {
    id,
    kind,
    category: "write",
    prompt,
    answer: null,
    expected: { changes },
    oracle: { calls, answer: null },
    explain,
  };
}

/** The top-level field a rule takes from the request at a one-token pointer, if any. */
function requestField(f: WriteRule["fields"][number]): string | null {
  const rule = f.rule as { kind: string; pointer?: string };
  if (rule.kind !== "from_request" || typeof rule.pointer !== "string") return null;
  return /^\/[^/]+$/.test(rule.pointer) ? rule.pointer : null;
}

function setAt(body: Record<string, unknown>, pointer: string, value: unknown): void {
  body[pointer.slice(1).replace(/~1/g, "/").replace(/~0/g, "~")] = value;
}

/**
 * The request body that sets `sets` (pointer → value), filled with the entity's current values for every other
 * field the tool requires; null when a required field has no value to send.
 */
function bodyFor(
  rule: WriteRule,
  tool: EvalTool,
  sets: ExpectedField[],
  entity: Entity | null,
): Record<string, unknown> | null {
  const body: Record<string, unknown> = {};
  for (const s of sets) setAt(body, s.pointer, s.value);
  const schema = (tool.input_schema.properties as Record<string, { required?: unknown }> | undefined)?.body;
  const required = Array.isArray(schema?.required) ? (schema.required as string[]) : [];
  for (const name of required) {
    if (Object.hasOwn(body, name)) continue;
    const f = rule.fields.find((x) => requestField(x) === `/${escapePointerToken(name)}`);
    const current = f && entity ? entity[f.field] : undefined;
    if (current === undefined) return null;
    body[name] = current;
  }
  if (tool.binding.body === "form") for (const k of Object.keys(body)) body[k] = queryForm(body[k]);
  return body;
}

/** Fields that the collection's served updates set by themselves (a clock, a constant): they may change on any update. */
function mayChange(writes: ServedWrites): string[] {
  const out = new Set<string>();
  for (const { rule } of writes.rules) {
    if (!UPDATE_KINDS.has(rule.kind)) continue;
    for (const f of rule.fields) if (!FIXED_RULES.has((f.rule as { kind: string }).kind)) out.add(f.field);
  }
  return [...out].sort();
}

/** The update rules of a collection, PATCH-like (merge) first, then by tool name. */
function updateRules(writes: ServedWrites): ServedWrites["rules"] {
  return writes.rules
    .filter((r) => UPDATE_KINDS.has(r.rule.kind))
    .sort((a, b) =>
      a.rule.kind === b.rule.kind ? (a.tool.name < b.tool.name ? -1 : 1) : a.rule.kind === "merge" ? -1 : 1,
    );
}

/** Fields an update can set: one-token request pointers onto readable, non-time fields, in rule order. */
function settable(view: CollectionView, writes: ServedWrites): FieldInfo[] {
  const out: FieldInfo[] = [];
  for (const { rule } of updateRules(writes)) {
    for (const f of rule.fields) {
      if (requestField(f) === null) continue;
      const info = view.fields.find((x) => x.pointer === `/${escapePointerToken(f.field)}`);
      if (info && info.kind !== "time" && !out.includes(info)) out.push(info);
    }
  }
  return out;
}

/** The calls and expectation that set `field` of `entity` to `value`, or the reason none can. */
function updateOf(
  view: CollectionView,
  writes: ServedWrites,
  scope: Scope,
  entity: Entity,
  field: FieldInfo,
  value: unknown,
): { calls: OracleCall[]; change: Task["expected"]["changes"][number] } | string {
  for (const { rule, tool } of updateRules(writes)) {
    if (
      !rule.fields.some(
        (f) => requestField(f) !== null && `/${escapePointerToken(f.field)}` === field.pointer,
      )
    )
      continue;
    const args = entityArgs(view, scope, tool.binding.path_params, rule.id_param, entity);
    const body = bodyFor(rule, tool, [{ pointer: field.pointer, value }], entity);
    if (!args || !body) continue;
    return {
      calls: [
        ...discoveryCalls(view, scope),
        { tool: tool.name, arguments: { ...args, ...recordedQuery(rule), body } },
      ],
      change: {
        kind: "updated",
        collection: view.collection.name,
        id: queryForm(idOf(view, entity)),
        fields: [{ pointer: field.pointer, value }],
        may_change: mayChange(writes),
      },
    };
  }
  return `no served update of ${view.collection.name} can be called with only what the seed state gives`;
}

function changeClause(field: FieldInfo, value: unknown): string {
  if (field.kind === "boolean") return flagWords(field.label).set("it", Boolean(value));
  return `change its ${field.label} to ${quoted(value)}`;
}

/** "Change the status of the card “Fix login redirect” in the board “Launch Plan” to “done”." for each settable field. */
export function updateTasks(view: CollectionView, writes: ServedWrites): Generated {
  const out: Generated = { tasks: [], skipped: [] };
  if (updateRules(writes).length === 0) return out;
  if (!view.key) return noKey(view, "update");
  const scope = scopeOf(view);
  const entity = scope.entities[Math.floor(scope.entities.length / 2)];
  if (!entity) return none(view, "update", "no_entities", `the recording showed no ${view.plural} to change`);
  const fields = settable(view, writes);
  if (fields.length === 0)
    out.skipped.push(
      skip(
        view,
        "update",
        "no_settable_field",
        `no served update of ${view.collection.name} sets a readable field from the request`,
      ),
    );
  for (const field of fields) {
    const value = newValue(field, readPointer(entity, field.pointer), 1);
    const made =
      value === undefined
        ? "no value can be made for it"
        : updateOf(view, writes, scope, entity, field, value);
    if (typeof made === "string") {
      out.skipped.push(skip(view, "update", "no_call", `${field.label}: ${made}`));
      continue;
    }
    const where = entityPhrase(view, scope, entity);
    const prompt =
      field.kind === "boolean"
        ? `${capitalised(flagWords(field.label).set(where, Boolean(value)))}.`
        : `Change the ${field.label} of ${where} to ${quoted(value)}.`;
    out.tasks.push(
      write(
        taskId("update", view.collection.name, fieldIdPart(field)),
        "update",
        prompt,
        [made.change],
        made.calls,
        `Sets the ${field.label} of one ${view.singular}, found by its ${view.key.label}, through a served update.`,
      ),
    );
  }
  return out;
}

/** The body schema of a tool: its required names and property schemas. */
function bodySchema(tool: EvalTool): { required: string[]; properties: Record<string, { type?: unknown }> } {
  const body = (tool.input_schema.properties as Record<string, Record<string, unknown>> | undefined)?.body;
  return {
    required: Array.isArray(body?.required) ? (body.required as string[]) : [],
    properties: (body?.properties as Record<string, { type?: unknown }> | undefined) ?? {},
  };
}

/** A value for a request field no seed entity shows (always blank, say), from its schema type. */
function valueOfType(schema: { type?: unknown } | undefined, offset: number): unknown {
  if (schema?.type === "string") return NEW_PHRASES[(offset + 4) % NEW_PHRASES.length];
  if (schema?.type === "boolean") return true;
  return schema?.type === "integer" || schema?.type === "number" ? 1 : undefined;
}

/**
 * What a create sends: the fields the tool requires (every recorded create sent them), or, when the tool says
 * none, those the entity has only when sent; each with a new value, as `{pointer, value, label}`.
 */
function createSets(
  view: CollectionView,
  rule: WriteRule,
  tool: EvalTool,
): { sets: (ExpectedField & { label: string })[]; missing: string[] } {
  const schema = bodySchema(tool);
  const sets: (ExpectedField & { label: string })[] = [];
  const missing: string[] = [];
  for (const f of rule.fields) {
    const pointer = requestField(f);
    if (pointer === null || sets.some((x) => x.pointer === pointer)) continue;
    const name = keyOfPointer(pointer);
    const otherwise = (f.rule as { otherwise?: { kind: string } }).otherwise?.kind;
    if (schema.required.length > 0 ? !schema.required.includes(name) : otherwise !== "omit") continue;
    const info = view.fields.find((x) => x.pointer === pointerOf(f.field));
    const value = info ? newValue(info, undefined, 0) : valueOfType(schema.properties[name], sets.length);
    if (value === undefined) missing.push(f.field);
    else {
      const label =
        info?.kind === "boolean"
          ? flagWords(info.label).given(Boolean(value))
          : `the ${info?.label ?? words(name)} ${quoted(value)}`;
      sets.push({ pointer, value, label });
    }
  }
  return { sets, missing };
}

/** "Add an item with the title “Quarterly review”." for each served create. */
export function createTasks(view: CollectionView, writes: ServedWrites): Generated {
  const out: Generated = { tasks: [], skipped: [] };
  const scope = scopeOf(view);
  for (const { rule, tool } of writes.rules.filter((r) => r.rule.kind === "create")) {
    const { sets, missing } = createSets(view, rule, tool);
    const args = entityArgs(view, scope, tool.binding.path_params, null, null);
    const body = bodyFor(
      rule,
      tool,
      sets.map(({ pointer, value }) => ({ pointer, value })),
      null,
    );
    if (missing.length > 0 || sets.length === 0 || !args || !body) {
      const why =
        missing.length > 0
          ? `the create needs ${missing.join(", ")}, for which no value can be made from the seed`
          : `the create ${tool.binding.method} ${tool.binding.template} cannot be called with what the seed state gives`;
      out.skipped.push(skip(view, "create", "no_value", why));
      continue;
    }
    // Every entity field taken from a sent pointer, and the parent field a nested create takes from the path.
    const expected: ExpectedField[] = [];
    for (const f of rule.fields) {
      const sent = sets.find((x) => x.pointer === requestField(f));
      const r = f.rule as { kind: string; name?: string };
      if (sent) expected.push({ pointer: pointerOf(f.field), value: sent.value });
      else if (r.kind === "path_param" && view.parent && r.name === view.parent.param && scope.parent)
        expected.push({ pointer: pointerOf(f.field), value: scope.parent.id });
    }
    const labels = sets.map((x) => x.label);
    const phrase =
      labels.length === 1 ? labels[0] : `${labels.slice(0, -1).join(", ")} and ${labels[labels.length - 1]}`;
    const parent = view.parent && scope.parent ? view.parent.view : null;
    const calls = [
      ...(parent ? discoveryCalls(parent, scopeContaining(parent, scope.parent!.entity)) : []),
      { tool: tool.name, arguments: { ...args, ...recordedQuery(rule), body } },
    ];
    out.tasks.push(
      write(
        taskId("create", view.collection.name),
        "create",
        `Add ${article(view.singular)} ${view.singular}${scopePhrase(view, scope, "to")} with ${phrase}.`,
        [{ kind: "created", collection: view.collection.name, fields: expected }],
        calls,
        `Creates one ${view.singular} through the served ${tool.binding.method} ${tool.binding.template}.`,
      ),
    );
  }
  return out;
}

/** "Delete the item “Book dentist appointment”." for each served delete. */
export function deleteTasks(view: CollectionView, writes: ServedWrites): Generated {
  if (!writes.rules.some((r) => r.rule.kind === "delete")) return { tasks: [], skipped: [] };
  if (!view.key) return noKey(view, "delete");
  const scope = scopeOf(view);
  const entity = scope.entities[scope.entities.length - 1];
  if (!entity) return none(view, "delete", "no_entities", `the recording showed no ${view.plural} to delete`);
  return deletesOf(
    view,
    writes,
    scope,
    entity,
    "delete",
    `Delete ${entityPhrase(view, scope, entity)}.`,
    (how) => `Deletes one ${view.singular}, found by its ${view.key!.label}, through the served ${how}.`,
  );
}

/** A task per served delete of the entity: its oracle finds the entity (list the parent, then the collection), then deletes it. */
function deletesOf(
  view: CollectionView,
  writes: ServedWrites,
  scope: Scope,
  entity: Entity,
  kind: "delete" | "find_then_delete",
  prompt: string,
  explain: (how: string) => string,
): Generated {
  const out: Generated = { tasks: [], skipped: [] };
  for (const { rule, tool } of writes.rules.filter((r) => r.rule.kind === "delete")) {
    const how = `${tool.binding.method} ${tool.binding.template}`;
    const args = entityArgs(view, scope, tool.binding.path_params, rule.id_param, entity);
    if (!args) {
      out.skipped.push(
        skip(view, kind, "no_call", `${how} needs a path parameter the seed state does not give`),
      );
      continue;
    }
    out.tasks.push(
      write(
        taskId(kind, view.collection.name),
        kind,
        prompt,
        [{ kind: "deleted", collection: view.collection.name, id: queryForm(idOf(view, entity)) }],
        [...discoveryCalls(view, scope), { tool: tool.name, arguments: { ...args, ...recordedQuery(rule) } }],
        explain(how),
      ),
    );
  }
  return out;
}

/**
 * The query arguments a write's call sends: the first recorded value of each parameter every recorded write sent
 * (`force: "true"`), since the twin serves a write only with a query it was recorded with (`WriteRule.query`).
 */
function recordedQuery(rule: WriteRule): Record<string, string> {
  return Object.fromEntries(
    (rule.query ?? []).flatMap((q) =>
      q.absent || q.redacted || q.values.length === 0 ? [] : [[q.param, q.values[0]!]],
    ),
  );
}

/**
 * "Delete the item that was created most recently.": the entity is found by a property only it has in the scope
 * (a value, else being the latest), never by its key; deleting any other entity as well is collateral damage.
 */
export function findThenDeleteTask(view: CollectionView, writes: ServedWrites): Generated {
  if (!writes.rules.some((r) => r.rule.kind === "delete")) return { tasks: [], skipped: [] };
  if (!view.key) return noKey(view, "find_then_delete");
  const scope = scopeOf(view);
  // Another entity than the delete task's (the last) when the latest is that one: then the oldest.
  const latest = findCriterion(view, scope);
  const last = scope.entities[scope.entities.length - 1];
  const found = latest?.entity === last ? (findCriterion(view, scope, "min") ?? latest) : latest;
  if (!found)
    return none(
      view,
      "find_then_delete",
      "no_find_criterion",
      `no value or time singles out one ${view.singular}${scopePhrase(view, scope)}`,
    );
  return deletesOf(
    view,
    writes,
    scope,
    found.entity,
    "find_then_delete",
    `Delete the ${view.singular}${scopePhrase(view, scope)} ${found.phrase}.`,
    (how) =>
      `Two steps: find the one ${view.singular} ${found.phrase}, then delete it through the served ${how}.`,
  );
}

/** How a find-then-change task finds its entity: a value only it has in the scope, else the latest by time. */
function findCriterion(
  view: CollectionView,
  scope: Scope,
  pick: "max" | "min" = "max",
): { entity: Entity; phrase: string; field: FieldInfo } | null {
  for (const field of view.fields.filter(
    (f) => (f.kind === "choice" || f.kind === "boolean") && f !== view.key,
  )) {
    const values = valuesIn(scope, field).map(queryForm);
    const at = values.findIndex((v) => values.indexOf(v) === values.lastIndexOf(v));
    if (at < 0 || values.length < 2) continue;
    const value = readPointer(scope.entities[at]!, field.pointer);
    const phrase =
      field.kind === "boolean"
        ? flagWords(field.label).that(Boolean(value))
        : `whose ${field.label} is ${quoted(value)}`;
    return { entity: scope.entities[at]!, phrase, field };
  }
  const order = orderField(view);
  if (!order || scope.entities.length < 2) return null;
  const { field } = order;
  const ranks = valuesIn(scope, field).map(orderRank);
  const best = pick === "max" ? Math.max(...ranks) : Math.min(...ranks);
  if (Number.isNaN(best) || ranks.filter((r) => r === best).length !== 1) return null;
  return { entity: scope.entities[ranks.indexOf(best)]!, phrase: `that ${orderPhrase(field, pick)}`, field };
}

/** "Find the card in the board “Launch Plan” whose status is “done” and change its title to “…”.": find, then change. */
export function findThenUpdateTask(view: CollectionView, writes: ServedWrites): Generated {
  if (updateRules(writes).length === 0) return { tasks: [], skipped: [] };
  const no = (reason: string, explain: string) => none(view, "find_then_update", reason, explain);
  if (!view.key) return noKey(view, "find_then_update");
  const scope = scopeOf(view);
  const found = findCriterion(view, scope);
  if (!found)
    return no(
      "no_find_criterion",
      `no value or time singles out one ${view.singular}${scopePhrase(view, scope)}`,
    );
  const rank: FieldInfo["kind"][] = ["boolean", "choice", "text", "number"];
  const target = settable(view, writes)
    .filter((f) => f !== found.field)
    .sort((a, b) => rank.indexOf(a.kind) - rank.indexOf(b.kind))[0];
  if (!target)
    return no(
      "no_settable_field",
      `no served update of ${view.collection.name} sets a field other than the one it is found by`,
    );
  const value = newValue(target, readPointer(found.entity, target.pointer), 2);
  const made = value === undefined ? "no value" : updateOf(view, writes, scope, found.entity, target, value);
  if (typeof made === "string") return no("no_call", made);
  return {
    tasks: [
      write(
        taskId("find_then_update", view.collection.name, fieldIdPart(target)),
        "find_then_update",
        `Find the ${view.singular}${scopePhrase(view, scope)} ${found.phrase} and ${changeClause(target, value)}.`,
        [made.change],
        made.calls,
        `Two steps: find the one ${view.singular} ${found.phrase}, then set its ${target.label} through a served update.`,
      ),
    ],
    skipped: [],
  };
}

/** The served writes of each collection: a write rule whose endpoint is served from state and offered as a tool. */
export function servedWrites(model: Model, tools: EvalTool[]): Map<string, ServedWrites> {
  const toolByName = new Map(tools.map((t) => [t.name, t]));
  const out = new Map<string, ServedWrites>();
  for (const rule of model.write_rules) {
    const endpoint = model.endpoints.find((e) => e.tool_name === rule.tool_name);
    const tool = toolByName.get(rule.tool_name);
    if (!endpoint || !tool || endpoint.serving !== "state") continue;
    // A write by query names its entity by a filter no task call builds yet (open): no task is made of it.
    if (rule.by_query) continue;
    const slot = out.get(rule.collection) ?? { rules: [] };
    slot.rules.push({ rule, tool });
    out.set(rule.collection, slot);
  }
  return out;
}
