/**
 * State-backed reads: a list read applies the collection's confirmed
 * filters, parent scope, order, pagination and envelope; an item read finds
 * one entity by id and wraps it, or answers the recorded not-found. Answers
 * carry the state's own entities, not copies: they are deeply frozen, so the
 * answer is serialised once and nothing can change the state through it.
 */

import { listedView } from "../../model/collection-query.js";
import { countEntities } from "../../model/count-read.js";
import { unknownItemFields } from "../../model/item-knowledge.js";
import { renderLink } from "../../model/link-header.js";
import type { Collection, Entity } from "../../model/model-schema.js";
import { fitsIdKind, renameId } from "../../model/not-found.js";
import { pageCount } from "../../model/page-count.js";
import { type CursorCodec, encodeCursor, idText } from "../../model/query-cursor.js";
import { type DomainVerdict, domainVerdicts, pageVerdict } from "../../model/query-domain.js";
import { type QueryLeaf, queryLeaves } from "../../model/query-language.js";
import {
  envelopeValues,
  planQuery,
  type QueryPlan,
  runQueryPlan,
  shownByDefault,
} from "../../model/query-plan.js";
import { withoutPointers } from "../../util/entity-view.js";
import { pathOfPointer } from "../../util/json-pointer.js";
import type { CollectionState } from "./collection-state.js";
import {
  explainMalformedId,
  explainUnconfirmedOrder,
  explainUnknownFields,
  explainUnlisted,
} from "./explain-miss.js";
import { renderedView } from "./header-variant.js";
import { nonNegativeInt, queryForm } from "./json-text.js";
import { recordedAnswer } from "./recorded-answer.js";
import type { TwinResponse } from "./twin-types.js";

const JSON_HEADERS = { "content-type": "application/json" };

/** The first value of a query parameter, or undefined. */
export function queryValue(query: [string, string][], name: string): string | undefined {
  return query.find(([k]) => k === name)?.[1];
}

/** Orders two field values as list orders do: missing or null last, numbers as numbers, else as query text. */
export function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === undefined || a === null) return 1;
  if (b === undefined || b === null) return -1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  const sa = queryForm(a);
  const sb = queryForm(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/**
 * The entities a list read selects, in list order, in one pass over the collection: those under the parent the
 * path names that match every filter the query gives.
 */
function selected(
  list: CollectionState,
  c: Collection,
  params: Record<string, string>,
  query: [string, string][],
): Entity[] {
  const tests: [field: string, want: string][] = [];
  const parent = c.parent ? params[c.parent.param] : undefined;
  if (parent !== undefined) tests.push([c.parent!.field, parent]);
  for (const f of c.filters) {
    const want = queryValue(query, f.param);
    if (want !== undefined) tests.push([f.field, want]);
  }
  const out: Entity[] = [];
  // Ids that are paths: a list shows the top level.
  const sep = c.tree?.separator;
  for (const e of list.values())
    if (
      tests.every(([field, want]) => queryForm(e[field]) === want) &&
      (sep === undefined || !queryForm(e[c.id_field]).includes(sep))
    )
      out.push(e);
  return out;
}

/** The children of a parent whose id is a path (`projects` → `projects/a.ipynb`), in list order, as lists show them. */
function childrenOf(c: Collection, list: CollectionState, id: string): Entity[] {
  const prefix = `${id}${c.tree!.separator}`;
  const out: Entity[] = [];
  for (const e of list.values()) {
    const kid = queryForm(e[c.id_field]);
    if (kid.startsWith(prefix) && !kid.slice(prefix.length).includes(c.tree!.separator))
      out.push(c.list_view ? listedView(c, shown(c, e)) : shown(c, e));
  }
  return out;
}

/** The entities under the parent the path names (every entity when it names none), in list order. */
export function scoped(list: CollectionState, c: Collection, params: Record<string, string>): Entity[] {
  return selected(list, c, params, []);
}

/** True when the list read is the collection in its own order, whole: no parent scope, filter or sort applies. */
function wholeInOrder(c: Collection, params: Record<string, string>, query: [string, string][]): boolean {
  if (c.parent && params[c.parent.param] !== undefined) return false;
  if (c.list_order.kind !== "insertion" || c.tree) return false;
  return c.filters.every((f) => queryValue(query, f.param) === undefined);
}

/** The page of a list in its own order, read in place: total = size, rows = the requested slice. */
function pageInPlace(
  c: Collection,
  list: CollectionState,
  query: [string, string][],
): { rows: Entity[]; total: number } {
  const total = list.size;
  if (!c.pagination) return { rows: list.slice(0), total };
  const offset = nonNegativeInt(queryValue(query, c.pagination.offset_param)) ?? 0;
  const limit = nonNegativeInt(queryValue(query, c.pagination.limit_param));
  return { rows: list.slice(offset, limit === undefined ? undefined : offset + limit), total };
}

/** The page size a list read of an older model (`pagination`) asks for, or null. */
function legacyLimit(c: Collection, query: [string, string][]): number | null {
  return c.pagination ? (nonNegativeInt(queryValue(query, c.pagination.limit_param)) ?? null) : null;
}

/** Answers a list read from the collection's entities. */
export function listRead(
  c: Collection,
  list: CollectionState,
  params: Record<string, string>,
  query: [string, string][],
  rule: string,
  path = "",
): TwinResponse {
  if (wholeInOrder(c, params, query)) {
    const { rows, total } = pageInPlace(c, list, query);
    if (unknownOrder(c, null, total)) return explainUnconfirmedOrder(rule, c.name, total);
    // A collection the app pages by default answers its first page (query-cursor.ts).
    if (c.default_limit !== undefined && rows.length > c.default_limit)
      return listAnswer(c, rows.slice(0, c.default_limit), total, rule, query, c.default_limit, path, true);
    return listAnswer(c, rows, total, rule, query, legacyLimit(c, query), path);
  }
  let rows = selected(list, c, params, query);
  if (c.list_order.kind === "field") {
    const { field, direction } = c.list_order;
    const sign = direction === "asc" ? 1 : -1;
    // A fresh array of its own: sorted in place.
    rows.sort((a, b) => sign * compare(a[field], b[field]));
  }
  const total = rows.length;
  if (c.pagination) {
    const offset = nonNegativeInt(queryValue(query, c.pagination.offset_param)) ?? 0;
    const limit = nonNegativeInt(queryValue(query, c.pagination.limit_param));
    rows = rows.slice(offset, limit === undefined ? undefined : offset + limit);
  }
  if (unknownOrder(c, null, total)) return explainUnconfirmedOrder(rule, c.name, total);
  if (c.default_limit !== undefined && rows.length > c.default_limit)
    return listAnswer(c, rows.slice(0, c.default_limit), total, rule, query, c.default_limit, path, true);
  return listAnswer(c, rows, total, rule, query, legacyLimit(c, query), path);
}

/**
 * Answers a list read by the collection's confirmed query language (`c.query`), or says which query parameters
 * it cannot answer: those with a leaf no rule fits, or an answer the recording left open (`why`).
 */
export function queryRead(
  c: Collection,
  list: CollectionState,
  params: Record<string, string>,
  query: [string, string][],
  rule: string,
  /** The request's path, for a `Link` header (none without it). */
  path = "",
): TwinResponse | { unlearned: string[]; why: string | null; miss?: TwinResponse } {
  const unscoped = !c.tree && (!c.parent || params[c.parent.param] === undefined);
  // Only the parent scope applies here: the query is the plan's to read.
  let rows: Entity[] | null = unscoped ? null : scoped(list, c, params);
  const planned = plannedQuery(c, query, rows ? rows.slice(0, 50) : list.slice(0, 50));
  const domains = c.query!.domains ?? [];
  const leaves = domains.length > 0 ? queryLeaves(query) : [];
  // A value of a kind the app was recorded refusing gets that refusal, before any list is made of it.
  const verdicts = domains.length > 0 ? domainVerdicts(domains, leaves) : [];
  if (verdicts.length > 0)
    return refusedOrOpen(verdicts, "unlearned" in planned ? planned.unlearned : [], query, rule);
  if ("unlearned" in planned)
    return { unlearned: [...new Set(planned.unlearned.map((l) => query[l.pair]![0]))], why: null };
  // A read that sets no page size gets the app's default one, when it has one (a copy: plans are kept and shared).
  const plan =
    planned.plan.limit === null && c.default_limit !== undefined
      ? { ...planned.plan, limit: c.default_limit }
      : planned.plan;
  if (rows === null && pageOnly(plan) && plan.after === null) {
    // The collection in its own order, paged: the page is read in place, never the whole collection copied.
    const end = plan.limit === null ? undefined : plan.offset + plan.limit;
    const page = runQueryPlan({ ...plan, offset: 0, limit: null }, list.slice(plan.offset, end));
    const more = end !== undefined && end < list.size;
    const past = domains.length > 0 ? pageVerdict(domains, leaves, plan.offset, list.size) : null;
    if (past) return refusedOrOpen([past], [], query, rule);
    const cut =
      plan.limit !== null || plan.offset > 0 ? list.size : "ambiguous" in page ? 0 : page.rows.length;
    if (unknownOrder(c, plan.sort, cut)) return unorderedMiss(c, query, rule, cut);
    if (!("ambiguous" in page)) {
      const adds = addedLeaves(plan, query, {
        total: list.size,
        count: page.rows.length,
        scope_total: list.size,
      });
      if ("unlearned" in adds) return adds;
      return listAnswer(
        c,
        page.rows,
        list.size,
        rule,
        query,
        plan.limit,
        path,
        more,
        plan.offset,
        adds.values,
      );
    }
  }
  rows ??= [...list.values()];
  const ran = runQueryPlan(plan, rows, c.id_field);
  if ("ambiguous" in ran)
    return {
      unlearned: [...new Set(query.map(([k]) => k))],
      why: ran.ambiguous,
    };
  const past = domains.length > 0 ? pageVerdict(domains, leaves, plan.offset, ran.total) : null;
  if (past) return refusedOrOpen([past], [], query, rule);
  // The entities the order decides: those on the page, or the matches a page was cut from.
  const ordered = plan.limit !== null || plan.offset > 0 || plan.after !== null ? ran.total : ran.rows.length;
  if (unknownOrder(c, plan.sort, ordered)) return unorderedMiss(c, query, rule, ordered);
  const adds = addedLeaves(plan, query, () => ({
    total: ran.total,
    count: ran.rows.length,
    scope_total: shownByDefault(plan.defaultFilter, rows).length,
  }));
  if ("unlearned" in adds) return adds;
  return listAnswer(
    c,
    ran.rows,
    ran.total,
    rule,
    query,
    plan.limit,
    path,
    ran.more,
    plan.offset,
    adds.values,
  );
}

/**
 * True when the answer would show `count` entities in the app's own order, which no recorded read showed
 * (`order_unconfirmed`) and no requested sort decides.
 */
function unknownOrder(c: Collection, sort: readonly unknown[] | null, count: number): boolean {
  return c.order_unconfirmed === true && (sort === null || sort.length === 0) && count >= 2;
}

/** A query read left open by the unknown order: the recorded read is replayed if there is one, else the miss. */
function unorderedMiss(
  c: Collection,
  query: [string, string][],
  rule: string,
  count: number,
): { unlearned: string[]; why: string | null; miss: TwinResponse } {
  return {
    unlearned: [...new Set(query.map(([k]) => k))],
    why: null,
    miss: explainUnconfirmedOrder(rule, c.name, count),
  };
}

/**
 * The envelope leaves a parameter value adds (`meta=total_count`: an `envelope` rule), from the read's counts; the
 * parameter is unlearned, with why, when the counts the recording left a leaf to be differ on this read.
 */
function addedLeaves(
  plan: QueryPlan,
  query: [string, string][],
  measures: Parameters<typeof envelopeValues>[1] | (() => Parameters<typeof envelopeValues>[1]),
): { values: { pointer: string; value: number }[] } | { unlearned: string[]; why: string } {
  if (!plan.envelope || plan.envelope.length === 0) return { values: [] };
  const got = envelopeValues(plan.envelope, typeof measures === "function" ? measures() : measures);
  return "ambiguous" in got ? { unlearned: [query[got.pair]![0]], why: got.ambiguous } : got;
}

/**
 * The app's recorded refusal when one value alone is refused and nothing else is unknown; else the parameters the
 * answer is open on, with why (several refused at once: the app's answer would name them all, which no recorded
 * refusal shows).
 */
function refusedOrOpen(
  verdicts: DomainVerdict[],
  unlearned: QueryLeaf[],
  query: [string, string][],
  rule: string,
): TwinResponse | { unlearned: string[]; why: string | null } {
  const others = unlearned.filter((l) => !verdicts.some((v) => v.leaf.pair === l.pair));
  const only = verdicts[0]!;
  if (verdicts.length === 1 && "refused" in only && others.length === 0)
    return recordedAnswer(only.refused, "state", rule);
  const names = [...new Set([...verdicts.map((v) => v.leaf), ...others].map((l) => query[l.pair]![0]))];
  const open = verdicts.flatMap((v) => ("open" in v ? [v.open] : []));
  const refused = verdicts.filter((v) => "refused" in v).map((v) => query[v.leaf.pair]![0]);
  const why =
    open.length > 0
      ? open.join("; ")
      : refused.length > 1
        ? `the recording shows the app refusing ${refused.join(" and ")} one at a time, never together (its answer would name them all)`
        : `the app refuses ${refused.join(", ")} here, and the recording never confirmed what ${others.map((l) => query[l.pair]![0]).join(", ")} means`;
  return { unlearned: names, why };
}

/** A query's plan, kept with the sample entities it was made from. */
interface KeptPlan {
  sample: Entity[];
  planned: ReturnType<typeof planQuery>;
}

/** Per collection (of the model): the plans of the queries lately read, by the query's pairs. */
const keptPlans = new WeakMap<Collection, Map<string, KeptPlan>>();

/** Queries whose plans a collection keeps (past this many the kept ones are dropped). */
const KEPT_PLANS = 256;

/**
 * The plan of a query on the collection (`planQuery` over its leaves and a sample of the entities it reads). A plan
 * depends on nothing else, and entities are frozen: the plan made for the same query over the same sample (the very
 * same entities, so the same values) is the same plan, and is reused (it is only read, never changed).
 */
function plannedQuery(
  c: Collection,
  query: [string, string][],
  sample: Entity[],
): ReturnType<typeof planQuery> {
  let kept = keptPlans.get(c);
  if (!kept) {
    kept = new Map();
    keptPlans.set(c, kept);
  }
  // Each name and value after its length: no two queries share a key.
  let key = "";
  for (const [k, v] of query) key += `${k.length}:${k}${v.length}:${v}`;
  const hit = kept.get(key);
  if (hit && hit.sample.length === sample.length && hit.sample.every((e, i) => e === sample[i]))
    return hit.planned;
  const order =
    c.list_order.kind === "field" ? [{ field: c.list_order.field, direction: c.list_order.direction }] : null;
  const planned = planQuery(c.query!, queryLeaves(query), sample, order);
  if (kept.size >= KEPT_PLANS) kept.clear();
  kept.set(key, { sample, planned });
  return planned;
}

/** Answers a count read (`c.counts`) from the state: how many entities a plain list would show under the query. */
export function countRead(
  c: Collection,
  list: CollectionState,
  query: [string, string][],
  count: NonNullable<Collection["counts"]>[number],
  rule: string,
): TwinResponse | { unlearned: string[] } {
  const got = countEntities(c, scoped(list, c, {}), query, count.query_prefix);
  if ("unlearned" in got) return got;
  return {
    status: 200,
    headers: { ...JSON_HEADERS },
    body: { kind: "json", value: count.key === null ? got.n : { [count.key]: got.n } },
    served_by: "state",
    rule,
  };
}

/** True when a plan only pages (and perhaps projects): no default filter, filter, search or sort. */
function pageOnly(plan: QueryPlan): boolean {
  return (
    plan.defaultFilter.length === 0 &&
    plan.filters.length === 0 &&
    plan.searches.length === 0 &&
    plan.sort === null
  );
}

/** An entity as reads show it: itself (frozen, from the state), or a copy without what only writes show. */
function shown(c: Collection, entity: Entity): Entity {
  // A variant's view (header-variant.ts) renders the entity its own way, from what the primary reads show.
  return renderedView(c, c.hidden && c.hidden.length > 0 ? withoutPointers(entity, c.hidden) : entity);
}

/** A query parameter's value as an envelope repeats it: the default when not sent, a number when the default is one. */
function echoed(sent: string | undefined, fallback: unknown): unknown {
  if (sent === undefined) return fallback;
  return typeof fallback === "number" && /^-?\d+$/.test(sent) ? Number(sent) : sent;
}

/** The cursor of a page's last entity, or null when there is none or it is not to be given (no next page). */
function cursorOf(
  c: Collection,
  rows: Entity[],
  give: boolean,
  codec: CursorCodec | undefined,
): string | null {
  const last = rows.at(-1);
  const id = last === undefined ? null : idText(last, c.id_field);
  return give && id !== null && codec ? encodeCursor(codec, id) : null;
}

/** Sets the value at an RFC 6901 pointer, making the objects on the way. */
function setPointer(root: Record<string, unknown>, pointer: string, value: unknown): void {
  const path = pathOfPointer(pointer);
  let node = root;
  for (const seg of path.slice(0, -1)) {
    const next = node[seg];
    if (next === null || typeof next !== "object" || Array.isArray(next)) node[seg] = {};
    node = node[seg] as Record<string, unknown>;
  }
  node[path[path.length - 1]!] = value;
}

/** True when an object has no own enumerable keys. */
function isEmpty(o: object): boolean {
  for (const _ in o) return false;
  return true;
}

/** The list answer: the rows (frozen state entities in a fresh array), in the collection's envelope. */
function listAnswer(
  c: Collection,
  rows: Entity[],
  total: number,
  rule: string,
  query: [string, string][] = [],
  limit: number | null = null,
  path = "",
  /** More entities follow the page (for cursors and has-next leaves). */
  more = false,
  /** Where the page starts among the matches (for page-position leaves). */
  offset = 0,
  /** Leaves a parameter value adds to the envelope (`meta.total_count`), set last. */
  added: { pointer: string; value: number }[] = [],
): TwinResponse {
  // The list's own view of an entity (fields it leaves out, fields it shows as null), without what only writes show.
  const shownRows = rows.map((e) => (c.list_view ? listedView(c, shown(c, e)) : shown(c, e)));
  let value: unknown = shownRows;
  // A keyed map: each entity under its own id, in list order.
  if (c.envelope.kind === "keyed")
    value = Object.fromEntries(shownRows.map((e) => [String(e[c.id_field]), e]));
  if (c.envelope.kind === "object") {
    // A tree's root folder (`tree.root`): the list answer is that folder, its top level under the children key.
    const constants = c.tree?.root ?? c.envelope.constants;
    const env: Record<string, unknown> = isEmpty(constants) ? {} : { ...structuredClone(constants) };
    env[c.envelope.items_key] = shownRows;
    if (c.envelope.total_key !== null) env[c.envelope.total_key] = total;
    for (const [k, echo] of Object.entries(c.envelope.echoes ?? {}))
      env[k] = echoed(queryValue(query, echo.param), echo.default);
    const envelopeLeaf = (f: NonNullable<Collection["envelope_fields"]>[number]): unknown => {
      switch (f.of) {
        case "next_cursor":
        case "end_cursor":
          return cursorOf(c, rows, f.of === "end_cursor" || more, f.codec);
        case "has_next":
          return more;
        case "is_last":
          return !more;
        case "page":
          return limit ? Math.floor(offset / limit) + 1 : 1;
        case "is_first":
          return offset === 0;
        case "constant":
          return structuredClone(f.value);
        case "echo":
          return echoed(queryValue(query, f.param ?? ""), f.value);
        case "total":
          return total;
        case "pages":
          return pageCount(total, limit);
      }
    };
    for (const f of c.envelope_fields ?? []) setPointer(env, f.pointer, envelopeLeaf(f));
    for (const a of added) setPointer(env, a.pointer, a.value);
    value = env;
  }
  // Totals the app's list answers carry in headers, in step with the state.
  const headers: Record<string, string> = { ...JSON_HEADERS };
  const sends = (names: string[]) => query.some(([k]) => names.includes(k));
  for (const h of c.total_headers ?? [])
    if (!h.when_sent || sends(h.when_sent))
      headers[h.name] = String(h.of === "total" ? total : pageCount(total, limit));
  if (c.link_header && path !== "" && (!c.link_header.when_paged || sends([c.link_header.page_param])))
    headers[c.link_header.name] = renderLink(c.link_header, path, query, total, limit);
  return {
    status: 200,
    headers,
    body: { kind: "json", value },
    served_by: "state",
    rule,
  };
}

/**
 * The collection's recorded answer to an unknown id (naming the requested `id` where the recorded one named its
 * own, `not_found_id`), or a generic `404 {"error":"not_found"}`; for an id the episode deleted (`gone`), the
 * recorded answer to a deleted id where the app gives one of its own; for an id not of the collection's kind
 * (`abc` where every id is an integer), the app's recorded answer to one, or an explained 501 where the recording
 * never showed one (nor showed the app answering one as an unknown id).
 */
export function notFound(c: Collection, rule: string, id?: string, gone = false): TwinResponse {
  // An id that cannot be one of the collection's: the app's recorded answer to one, else explained unless the
  // recording showed the app answering one as an unknown id (a 400 refusing it is as likely as the 404).
  if (id !== undefined && !fitsIdKind(id, c.id_kind) && !c.alt_id_fields?.length) {
    if (c.malformed_id) return namingAnswer(c.malformed_id, c.malformed_id_id, id, rule);
    if (!c.malformed_id_not_found) return explainMalformedId(rule, c.name, c.id_kind, id);
  }
  if (gone && c.gone) return namingAnswer(c.gone, c.gone_id, id, rule);
  const nf = c.not_found;
  if (!nf) {
    return {
      status: 404,
      headers: { ...JSON_HEADERS },
      body: { kind: "json", value: { error: "not_found" } },
      served_by: "state",
      rule,
    };
  }
  return namingAnswer(nf, c.not_found_id, id, rule);
}

/** A recorded miss answered for `id`: the id it named (`named`) replaced by the requested one, when both are known. */
function namingAnswer(
  answer: NonNullable<Collection["not_found"]>,
  named: string | undefined,
  id: string | undefined,
  rule: string,
): TwinResponse {
  if (named === undefined || id === undefined) return recordedAnswer(answer, "state", rule);
  return recordedAnswer({ ...answer, body: renameId(answer.body, named, id) }, "state", rule);
}

/** The entity a path names (by id, inside its parent for nested collections), or undefined. */
export function locate(
  c: Collection,
  list: CollectionState,
  params: Record<string, string>,
  idParam: string,
): Entity | undefined {
  return locateNth(c, list, params, idParam)?.entity;
}

/**
 * The entity a path names and which of the entities sharing its id it is (`nth`, in list order: the one under the
 * path's parent where a nested collection holds one such id per parent, as a file's checkpoint `checkpoint`).
 */
export function locateNth(
  c: Collection,
  list: CollectionState,
  params: Record<string, string>,
  idParam: string,
): { entity: Entity; nth: number } | undefined {
  const id = params[idParam];
  if (id === undefined) return undefined;
  const parentValue = c.parent ? params[c.parent.param] : undefined;
  const inParent = (e: Entity) => parentValue === undefined || queryForm(e[c.parent!.field]) === parentValue;
  let nth = 0;
  for (const e of list.withId(id)) {
    if (inParent(e)) return { entity: e, nth };
    nth++;
  }
  if (nth > 0) return undefined;
  // The path may name the entity by another of its ids (`/projects/website` for `identifier`).
  const alt = c.alt_id_fields ?? [];
  const entity =
    alt.length === 0 ? undefined : [...list.values()].find((e) => alt.some((f) => queryForm(e[f]) === id));
  return entity && inParent(entity) ? { entity, nth: -1 } : undefined;
}

/** Wraps an entity (frozen, from the state) the way the collection's item answers do. */
export function wrapItem(c: Collection, entity: Entity): unknown {
  const defaults = c.list_view?.defaults;
  const missing = defaults ? Object.keys(defaults).filter((k) => !(k in entity)) : [];
  // An entity only a list showed lacks the fields lists leave out: those with one value in every item read get it.
  const full =
    missing.length === 0
      ? entity
      : { ...entity, ...Object.fromEntries(missing.map((k) => [k, defaults![k]])) };
  const e = shown(c, full);
  if (c.item_envelope.kind === "bare") return e;
  return { [c.item_envelope.item_key]: e, ...structuredClone(c.item_envelope.constants ?? {}) };
}

/** Answers a list read of a tree's root folder with a confirmed item projection (`?content=0`): the root, those fields null. */
export function rootProjection(c: Collection, nulls: readonly string[], rule: string): TwinResponse {
  const root = c.tree!.root!;
  const value = { ...root, ...Object.fromEntries(nulls.filter((k) => k in root).map((k) => [k, null])) };
  return {
    status: 200,
    headers: { ...JSON_HEADERS },
    body: { kind: "json", value },
    served_by: "state",
    rule,
  };
}

const goneSets = new WeakMap<Collection, ReadonlySet<string>>();

/** True when the recording showed this id and then no longer held it (`gone_ids`). */
function goneInRecording(c: Collection, id: string): boolean {
  if (!c.gone_ids) return false;
  let set = goneSets.get(c);
  if (!set) {
    set = new Set(c.gone_ids);
    goneSets.set(c, set);
  }
  return set.has(id);
}

const missingSets = new WeakMap<object, ReadonlySet<string>>();

/** True when the recording itself showed this id absent from an unlisted collection (`unlisted.missing`). */
function missingInRecording(u: NonNullable<Collection["unlisted"]>, id: string): boolean {
  let set = missingSets.get(u);
  if (!set) {
    set = new Set(u.missing);
    missingSets.set(u, set);
  }
  return set.has(id);
}

/**
 * The answer to a path id the state does not hold, for a read and a write alike: the recorded answer to an id that
 * cannot be one (`malformed_id`, `/todos/abc` where ids are integers), else to an id the episode or the recording
 * deleted (`gone`), else the not-found answer (each naming the requested id where the recorded one named its own).
 */
export function missAnswer(
  c: Collection,
  list: CollectionState,
  id: string | undefined,
  rule: string,
  /** True for a write: the recorded answer to a write of an unknown id (`write_not_found`) where there is one. */
  write = false,
): TwinResponse {
  if (id !== undefined && c.malformed_id && !fitsIdKind(id, c.id_kind))
    return namingAnswer(c.malformed_id, c.malformed_id_id, id, rule);
  // No read listed the collection whole: an id the recording never showed absent may exist in the app.
  // An id the episode deleted or moved to another (a rename) is known absent.
  const left = id !== undefined && (list.wasDeleted(id) || list.wasMovedAway(id));
  if (id !== undefined && c.unlisted && !left && !missingInRecording(c.unlisted, id))
    return explainUnlisted(rule, c.name, id);
  // A path under a folder no read listed whole (and the episode did not make): it may exist in the app.
  if (id !== undefined && c.tree?.listed && !left && !folderKnown(c.tree, list, id))
    return explainUnlisted(rule, c.name, id);
  const gone = id !== undefined && (list.wasDeleted(id) || goneInRecording(c, id));
  if (write && !gone && c.write_not_found)
    return namingAnswer(c.write_not_found, c.write_not_found_id, id, rule);
  return notFound(c, rule, id, gone);
}

/**
 * True when the twin knows every child of the folder holding `id`: a read listed it whole (`tree.listed`), or the
 * episode made it (the seed holds no such folder), or the recording showed `id` itself absent.
 */
function folderKnown(tree: NonNullable<Collection["tree"]>, list: CollectionState, id: string): boolean {
  const listed = tree.listed!;
  if (listed.missing.includes(id)) return true;
  const at = id.lastIndexOf(tree.separator);
  const folder = at < 0 ? "" : id.slice(0, at);
  if (listed.folders.includes(folder)) return true;
  return folder !== "" && list.has(folder) && !list.inSeed(folder);
}

/** Answers an item read: the wrapped entity, or the not-found answer. */
export function itemRead(
  c: Collection,
  list: CollectionState,
  params: Record<string, string>,
  idParam: string,
  rule: string,
  nulls: readonly string[] = [],
): TwinResponse {
  const found = locate(c, list, params, idParam);
  if (!found) return missAnswer(c, list, params[idParam], rule);
  const unknown = unknownItemFields(c, found).filter((k) => !nulls.includes(k));
  if (unknown.length > 0) return explainUnknownFields(rule, queryForm(found[c.id_field]), unknown);
  // A parent (stored with an array of children) shows the children the state holds now.
  const key = c.tree?.children_key;
  const shownFound =
    key !== undefined && Array.isArray(found[key])
      ? { ...found, [key]: childrenOf(c, list, queryForm(found[c.id_field])) }
      : found;
  // A confirmed projection (`?content=0`) nulls its fields.
  const entity =
    nulls.length === 0
      ? shownFound
      : { ...shownFound, ...Object.fromEntries(nulls.filter((k) => k in shownFound).map((k) => [k, null])) };
  // The entity tag every recorded item read sent (src/learn/etag-rules.ts), from the entity the state holds.
  const v = c.etag ? found[c.etag.field] : undefined;
  const tag =
    c.etag && (typeof v === "string" || typeof v === "number")
      ? { [c.etag.header]: `${c.etag.prefix}${v}${c.etag.suffix}` }
      : {};
  return {
    status: 200,
    headers: { ...JSON_HEADERS, ...tag },
    body: { kind: "json", value: wrapItem(c, entity) },
    served_by: "state",
    rule,
  };
}
