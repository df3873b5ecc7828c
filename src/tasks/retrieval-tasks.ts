/**
 * Questions about the seed state, each with an exact, numeric or
 * must-include answer: a field of an entity found by its key (inside its
 * parent for nested collections), a count and a list under each learned
 * filter (or under the parent), and the latest and oldest entity by a
 * learned sort or a time field. Nothing may change while answering.
 */
import type { Entity } from "../model/model-schema.js";
import { readPointer } from "../util/json-pointer.js";
import { queryForm } from "../util/query-form.js";
import {
  type CollectionView,
  type FieldInfo,
  idOf,
  type Scope,
  scopeContaining,
  scopeOf,
  valuesIn,
} from "./collection-view.js";
import { orderRank } from "./order-rank.js";
import {
  discoveryCalls,
  entityPhrase,
  fieldIdPart,
  findByKey,
  type Generated,
  keyValue,
  noKey,
  none,
  scopePhrase,
  skip,
  taskId,
} from "./task-parts.js";
import type { Answer, OracleCall, Task } from "./task-schema.js";
import { answerText, flagWords, quoted } from "./task-words.js";

const ASK_ORDER: FieldInfo["kind"][] = ["choice", "boolean", "text", "number"];

/** The answer that judges a value: yes/no for a boolean, the number, or the exact text. */
export function answerFor(value: unknown): Answer {
  if (typeof value === "boolean")
    return { kind: "exact", value: answerText(value), accept: [value ? "true" : "false"] };
  if (typeof value === "number") return { kind: "numeric", value };
  return { kind: "exact", value: answerText(value), accept: [] };
}

function replyHint(field: FieldInfo): string {
  if (field.kind === "boolean") return "Reply yes or no.";
  if (field.kind === "number") return "Reply with the number only.";
  return `Reply with the ${field.label} only.`;
}

function retrieval(
  id: string,
  kind: Task["kind"],
  prompt: string,
  answer: Answer,
  oracle: Task["oracle"],
  explain: string,
): Task {
  return { id, kind, category: "retrieval", prompt, answer, expected: { changes: [] }, oracle, explain };
}

/** A field of an entity found by its key: "What is the status of the card “Fix login redirect” in the board “Launch Plan”?" */
export function lookupTask(view: CollectionView): Generated {
  const kind = view.parent ? "nested_lookup" : "lookup";
  if (!view.key) return noKey(view, kind);
  // An address (`http://…`) is the last thing a person asks for; before it, a field every entity has the same
  // value in (WordPress's taxonomy "post_tag") tells least about the one asked.
  const url = (f: FieldInfo) => f.values.some((v) => /:\/\//.test(String(v)));
  const constant = (f: FieldInfo) => new Set(f.values.map(queryForm)).size < 2 && f.values.length > 1;
  // A reference's value is another entity's id, which a person would not ask for.
  const ranked = ASK_ORDER.flatMap((k) =>
    view.fields.filter((f) => f.kind === k && f !== view.key && !view.refs.has(f.pointer)),
  );
  // A number may be an id the recording does not confirm as a reference (a comment's author 0), so it comes
  // after a shared value, which at least reads as words.
  const tier = (f: FieldInfo) => (url(f) ? 3 : f.kind === "number" ? 2 : constant(f) ? 1 : 0);
  const asked = [...ranked].sort((a, b) => tier(a) - tier(b))[0];
  if (!asked)
    return none(
      view,
      kind,
      "no_readable_field",
      `${view.collection.name} has no readable field besides its ${view.key.label}`,
    );
  const scope = scopeOf(view);
  const entity = scope.entities[Math.floor(scope.entities.length / 2)];
  if (!entity)
    return {
      tasks: [],
      skipped: [skip(view, kind, "no_entities", `the recording showed no ${view.plural}`)],
    };
  const value = readPointer(entity, asked.pointer);
  const where = entityPhrase(view, scope, entity);
  const prompt =
    asked.kind === "boolean"
      ? `${flagWords(asked.label).question(where)} ${replyHint(asked)}`
      : `What is the ${asked.label} of ${where}? ${replyHint(asked)}`;
  const calls = discoveryCalls(view, scope);
  return {
    tasks: [
      retrieval(
        taskId(kind, view.collection.name, fieldIdPart(asked)),
        kind,
        prompt,
        answerFor(value),
        { calls, answer: { call: calls.length - 1, select: findByKey(view, entity, asked.pointer) } },
        `The ${asked.label} of one ${view.singular}${view.parent ? ` of a ${view.parent.view.singular}` : ""}, found by its ${view.key.label}, from the seed state.`,
      ),
    ],
    skipped: [],
  };
}

/** The entities of a scope whose field has the value (compared as query text). */
function matching(scope: Scope, field: string, value: unknown): Entity[] {
  return scope.entities.filter((e) => queryForm(e[field]) === queryForm(value));
}

/** Values of a field in a scope by how many entities have them (most first, then by text). */
function byFrequency(scope: Scope, field: string): { value: unknown; count: number }[] {
  const counts = new Map<string, { value: unknown; count: number }>();
  for (const e of scope.entities) {
    const k = queryForm(e[field]);
    const slot = counts.get(k) ?? { value: e[field], count: 0 };
    slot.count++;
    counts.set(k, slot);
  }
  return [...counts.entries()]
    .sort(([ka, a], [kb, b]) => b.count - a.count || (ka < kb ? -1 : ka > kb ? 1 : 0))
    .map(([, v]) => v);
}

/** The entity of another collection a reference field's value names, or null when the field is no reference. */
function referred(
  view: CollectionView,
  field: FieldInfo,
  value: unknown,
): { view: CollectionView; entity: Entity } | null {
  const target = view.refs.get(field.pointer);
  const entity = target?.entities.find((e) => queryForm(idOf(target, e)) === queryForm(value));
  return target && entity ? { view: target, entity } : null;
}

/** "are done", "have the status “open”"; a reference named by its key: "have the author “admin”", "belong to the post “Hello world!”". */
function condition(view: CollectionView, field: FieldInfo, value: unknown): string {
  if (field.kind === "boolean") return flagWords(field.label).are(Boolean(value));
  const ref = referred(view, field, value);
  if (!ref) return `have the ${field.label} ${quoted(value)}`;
  const label = field.label.replace(/ id$/, "");
  const named = quoted(keyValue(ref.view, ref.entity));
  // A field named after what it refers to is where the entity belongs (a comment's post); another names a role.
  return label === ref.view.singular ? `belong to the ${label} ${named}` : `have the ${label} ${named}`;
}

/** The calls that find a filter's value: for a reference, list the collection referred to (where its key is read). */
function referenceCalls(view: CollectionView, field: FieldInfo, value: unknown): OracleCall[] {
  const ref = referred(view, field, value);
  return ref ? discoveryCalls(ref.view, scopeContaining(ref.view, ref.entity)) : [];
}

/** A count and a list under each learned filter: "How many items are not done?", "Which items are done?" */
export function filterTasks(view: CollectionView): Generated {
  const out: Generated = { tasks: [], skipped: [] };
  const filters = view.collection.filters as { param: string; field: string; kind: string }[];
  if (filters.length === 0) {
    const why = `the recording confirmed no filter of ${view.collection.name}`;
    if (view.parent) out.tasks.push(scopeCountTask(view));
    else out.skipped.push(skip(view, "count", "no_learned_filter", why));
    out.skipped.push(skip(view, "list", "no_learned_filter", why));
    return out;
  }
  const scope = scopeOf(view);
  for (const f of filters) {
    const field = view.fields.find((x) => x.pointer === `/${f.field}`);
    if (f.kind !== "equals") {
      out.skipped.push(
        skip(view, "count", "unsupported_filter", `the ${f.kind} filter ${f.param} has no task phrasing yet`),
      );
      continue;
    }
    if (!field || field.kind === "time" || field.kind === "text") {
      out.skipped.push(
        skip(
          view,
          "count",
          "filter_unreadable",
          `the filter ${f.param} is on ${f.field}, whose values a person would not ask about`,
        ),
      );
      continue;
    }
    const freq = byFrequency(scope, f.field);
    if (freq.length < 2) {
      out.skipped.push(
        skip(
          view,
          "count",
          "filter_constant",
          `every ${view.singular} has the same ${field.label}, so the filter ${f.param} tells nothing apart`,
        ),
      );
      continue;
    }
    const where = scopePhrase(view, scope);
    const common = freq[0]!.value;
    const countCalls = [
      ...referenceCalls(view, field, common),
      ...discoveryCalls(view, scope, { [f.param]: queryForm(common) }),
    ];
    const total = totalPointer(view);
    out.tasks.push(
      retrieval(
        taskId("count", view.collection.name, f.field),
        "count",
        `How many ${view.plural}${where} ${condition(view, field, common)}? Reply with the number only.`,
        { kind: "numeric", value: matching(scope, f.field, common).length },
        {
          calls: countCalls,
          answer: {
            call: countCalls.length - 1,
            select: total ? { kind: "value", pointer: total } : { kind: "count", pointer: view.itemsPointer },
          },
        },
        `A count under the learned filter ${f.param} (${f.field} equals), from the seed state.`,
      ),
    );
    if (!view.key) {
      out.skipped.push(
        skip(
          view,
          "list",
          "no_key_field",
          `no readable field of ${view.collection.name} names the ${view.plural} a list would give`,
        ),
      );
      continue;
    }
    const rare = freq[freq.length - 1]!.value;
    const listCalls = [
      ...referenceCalls(view, field, rare),
      ...discoveryCalls(view, scope, { [f.param]: queryForm(rare) }),
    ];
    const hits = matching(scope, f.field, rare);
    out.tasks.push(
      retrieval(
        taskId("list", view.collection.name, f.field),
        "list",
        `Which ${view.plural}${where} ${condition(view, field, rare)}? Reply with the ${view.key.label} of each, one per line.`,
        {
          kind: "must_include",
          values: hits.map((e) => answerText(keyValue(view, e))),
          must_exclude: scope.entities
            .filter((e) => !hits.includes(e))
            .map((e) => answerText(keyValue(view, e))),
        },
        {
          calls: listCalls,
          answer: {
            call: listCalls.length - 1,
            select: { kind: "all", items: view.itemsPointer, take: view.key.pointer },
          },
        },
        `The ${view.plural} under the learned filter ${f.param} (${f.field} equals), named by their ${view.key.label}, from the seed state.`,
      ),
    );
  }
  return out;
}

function totalPointer(view: CollectionView): string | null {
  const env = view.collection.envelope as { kind: string; total_key?: string | null };
  return env.kind === "object" && typeof env.total_key === "string" ? `/body/${env.total_key}` : null;
}

/** "How many cards are in the board “Launch Plan”?": a count under the parent, for nested collections without filters. */
function scopeCountTask(view: CollectionView): Task {
  const scope = scopeOf(view);
  const calls = discoveryCalls(view, scope);
  return retrieval(
    taskId("count", view.collection.name),
    "count",
    `How many ${view.plural} are${scopePhrase(view, scope)}? Reply with the number only.`,
    { kind: "numeric", value: scope.entities.length },
    { calls, answer: { call: calls.length - 1, select: { kind: "count", pointer: view.itemsPointer } } },
    `A count of the ${view.plural} of one ${view.parent!.view.singular}, from the seed state.`,
  );
}

/** The field an order is judged by: the learned sort's when readable, else a creation time, else any time field. */
export function orderField(view: CollectionView): { field: FieldInfo; learned: boolean } | null {
  const order = view.collection.list_order as { kind: string; field?: string };
  const sorted =
    order.kind === "field" ? view.fields.find((f) => f.pointer === `/${order.field}`) : undefined;
  if (sorted && (sorted.kind === "time" || sorted.kind === "number")) return { field: sorted, learned: true };
  const times = view.fields.filter((f) => f.kind === "time");
  const field = times.find((f) => /creat/.test(f.label)) ?? times[0];
  return field ? { field, learned: false } : null;
}

/** How a latest or oldest task words its order: "was created most recently", "has the highest position". */
export function orderPhrase(field: FieldInfo, pick: "max" | "min"): string {
  if (field.kind === "time" && /creat/.test(field.label))
    return pick === "max" ? "was created most recently" : "was created first";
  if (field.kind === "time" && /updat|modif|chang/.test(field.label))
    return pick === "max" ? "was updated most recently" : "has gone longest without an update";
  if (field.kind === "time") return `has the ${pick === "max" ? "latest" : "earliest"} ${field.label}`;
  return `has the ${pick === "max" ? "highest" : "lowest"} ${field.label}`;
}

/** "Which item was created most recently?" and "... first?", when one entity holds the extreme. */
export function orderTasks(view: CollectionView): Generated {
  const out: Generated = { tasks: [], skipped: [] };
  const chosen = orderField(view);
  if (!view.key || !chosen) {
    for (const kind of ["latest", "oldest"] as const)
      out.skipped.push(
        skip(
          view,
          kind,
          view.key ? "no_order_field" : "no_key_field",
          view.key
            ? `${view.collection.name} has no learned sort and no time field`
            : `no readable field of ${view.collection.name} tells its entities apart`,
        ),
      );
    return out;
  }
  const { field, learned } = chosen;
  const scope = scopeOf(view);
  if (scope.entities.length < 2) {
    const why = `the recording showed one ${view.singular}${scopePhrase(view, scope)}, so none is the latest or oldest`;
    return {
      tasks: [],
      skipped: (["latest", "oldest"] as const).map((kind) => skip(view, kind, "too_few_entities", why)),
    };
  }
  const ranks = valuesIn(scope, field).map(orderRank);
  for (const [kind, pick] of [
    ["latest", "max"],
    ["oldest", "min"],
  ] as const) {
    const best = pick === "max" ? Math.max(...ranks) : Math.min(...ranks);
    const at = ranks.filter((r) => r === best).length === 1 ? ranks.indexOf(best) : -1;
    if (at < 0 || Number.isNaN(best)) {
      out.skipped.push(
        skip(
          view,
          kind,
          "tied_order",
          `two ${view.plural} share the ${pick === "max" ? "highest" : "lowest"} ${field.label}`,
        ),
      );
      continue;
    }
    const entity = scope.entities[at]!;
    const calls = discoveryCalls(view, scope);
    out.tasks.push(
      retrieval(
        taskId(kind, view.collection.name, fieldIdPart(field)),
        kind,
        `Which ${view.singular}${scopePhrase(view, scope)} ${orderPhrase(field, pick)}? Reply with its ${view.key.label} only.`,
        answerFor(keyValue(view, entity)),
        {
          calls,
          answer: {
            call: calls.length - 1,
            select: {
              kind: "extreme",
              items: view.itemsPointer,
              by: field.pointer,
              pick,
              take: view.key.pointer,
            },
          },
        },
        `The ${view.singular} with the ${pick === "max" ? "highest" : "lowest"} ${field.label} (${learned ? "the learned sort" : "a time field"}), named by its ${view.key.label}.`,
      ),
    );
  }
  return out;
}
