/**
 * Walks the API observations once, in time order, simulating each
 * collection's state: reads update it, writes wait for a later read that
 * confirms (or contradicts) their effect (judged in read-back.ts), and query
 * reads are checked against the state of that moment. One forward pass,
 * indexed by id: no rescans.
 */
import { countOf } from "../model/count-read.js";
import type { Entity } from "../model/model-schema.js";
import { queryLeaves } from "../model/query-language.js";
import { appendTo } from "../util/append-to.js";
import { unionView } from "../util/entity-view.js";
import { escapePointerToken } from "../util/json-pointer.js";
import { CollectionState } from "./collection-state.js";
import { type FoundCollection, itemEntity, listEntities } from "./collections.js";
import { type DescendantMove, DescendantWatch, greedySeparator } from "./descendant-moves.js";
import { type EmbedSource, type FoundEmbed, findEmbeds } from "./embedded-reads.js";
import type { Observation } from "./endpoint-index.js";
import { type AssertedParams, answersAsPlainRead } from "./item-assertions.js";
import { namesItsFields } from "./projected-reads.js";
import { cursorValue, saysMore } from "./query-cursor.js";
import type { QueryRead } from "./query-hypotheses.js";
import { judgeReadBack, sentFields, writeExpectations } from "./read-back.js";
import { isRedirect, redirectedId } from "./redirect-location.js";
import { oneRow } from "./response-shape.js";
import { headersSayCut, orderingOnly } from "./sorted-whole-reads.js";
import { embeddedChildren } from "./tree-collection.js";
import { isObject } from "./value-kinds.js";
import { type OrderingQuery, sortsOnlyByRule } from "./whole-reads.js";
import type { WriteTarget } from "./write-targets.js";

/** One successful write and what the recording showed of its effect. */
export interface WriteObservation {
  obs: Observation;
  target: WriteTarget;
  id: string | null;
  /**
   * The path parameters as the collection keeps them, where that differs from the path: a parent named by another of
   * its ids (`/projects/docs/memberships.json`) is its id (`3`), as the twin's scope and field rules see it.
   */
  params?: Record<string, string>;
  /** The entity before the write (null when never read before). */
  pre: Entity | null;
  /** The entity the write answered with (null when the answer carried none). */
  answered: Entity | null;
  maxIntBefore: number | null;
  /** For creates: the highest integer id among the entities present before it (an id freed by a delete is not). */
  maxPresentBefore: number | null;
  /** For creates: the highest integer id each other collection had shown before it (a sequence they may share). */
  otherMaxBefore: ReadonlyMap<string, number> | null;
  /**
   * Entities of other collections as they were at the write, whose ids its request or answer held, by
   * `collection \u0000 id`: what a field may be looked up from (the name of the project an issue names).
   */
  refs: ReadonlyMap<string, Entity>;
  /** For creates: the highest integer value of each field seen in the new entity's scope before it. */
  scopeMaxBefore: ReadonlyMap<string, number> | null;
  idSeenBefore: boolean;
  /**
   * For creates of an endpoint the recording also shows refusing (409, 422): the entities of its scope before it,
   * so a refusal of a value one of them held (uniqueness) can be told from the successes. Absent otherwise.
   */
  scopeBefore?: Entity[];
  result: "confirmed" | "disagrees" | "unconfirmed";
  /** The first later read of the entity (null for deletes and unconfirmed writes). */
  readBack: Entity | null;
  /**
   * True when that read was a projection (`?_fields=id,title,tags`, see projected-reads.ts): the fields it lacks are
   * the projection's doing, so it says nothing of what reads leave out (hidden-fields.ts).
   */
  readBackProjected?: true;
  /** For creates: the index of the first full list of its scope after it that did not show it (null when none). */
  unseenIn?: number;
  /** For `disagrees`: the field the read-back contradicted. */
  mismatch: string | null;
  /**
   * For an update still unconfirmed: the first later read of its entity, which showed it with none of what the write
   * sent changed (a hint then says the recording holds the read-back).
   */
  shownAfter?: number;
  /** For `disagrees` on a field no later write set: the record index of that read-back. */
  mismatchAt?: number;
  /**
   * For a delete the read after it still showed (`disagrees` as a delete): the entity that read showed. The app kept
   * it (a trash, a status): write-rules.ts may learn the delete as an update of what changed there.
   */
  keptAs?: Entity;
  expect: Map<string, { value: unknown; loose: boolean }>;
  /**
   * For a write by query whose entities the walk could not tell: its scope was never listed whole before it
   * (`unlisted`), or the reads' confirmed rules do not select by its query (`unlearned`, with why). Absent otherwise.
   */
  unresolved?: { why: "unlisted" | "unlearned" | "not_a_filter" | "ambiguous"; detail?: string };
  /** For a write by query that disagrees: an entity its query did not select that the list after it showed changed. */
  bystander?: string;
  /** For a write by query: the path its query was read under in the collection's query language (none: as it is). */
  queryPrefix?: string[];
  /** For a rename of an entity with descendants (hierarchical ids): where they moved, and what reads showed of it. */
  descendants?: DescendantMove;
}

/**
 * The ids of the entities a write by query selects among its scope's (in list order), or why the walk cannot tell;
 * given by learning once the collection's query rules are learned (learn.ts), absent in the first pass.
 */
export type QueryResolver = (
  col: FoundCollection,
  rows: Entity[],
  query: [string, string][],
) =>
  | { ids: string[]; prefix: string[] }
  | { why: "unlearned" | "not_a_filter" | "ambiguous"; detail: string };

/** A write by query waiting for its scope's next full list: the entities it did not select must show unchanged. */
interface BystanderCheck {
  obs: Observation;
  /** The walk's writes of that one request (one per selected entity, or one marker when it selected none). */
  ws: WriteObservation[];
  /** The scope's entities it did not select, as they were before it. */
  untouched: Map<string, Entity>;
  /** The fields its body sets (none for a delete: a bystander must only stay). */
  fields: string[];
  /** How many writes the walk had noted before it: a later write to a bystander excuses its change. */
  since: number;
}

/** A refused write of a collection (4xx) and the state it met: its entity (item writes), its scope (creates). */
export interface RefusedWrite {
  pre: Entity | null;
  scope: Entity[] | null;
}

/** Everything the walk learned. */
export interface WalkResult {
  states: Map<string, CollectionState>;
  writes: WriteObservation[];
  /** The refused writes of endpoints that also succeeded, with the state each met (for validation-rules.ts). */
  refused: Map<Observation, RefusedWrite>;
  /** Per list observation with a query: the outcome of checking it. */
  queries: Map<Observation, QueryRead>;
  /** Per read answered with one number (a count?): each whole-listed collection's entities at that moment. */
  countReads: Map<Observation, Map<string, Entity[]>>;
  /** Per read no collection serves as a plain list or item read: the entities its answer embeds (embedded-reads.ts). */
  embeds: Map<Observation, FoundEmbed[]>;
  /** Per successful item read with a query: the entity the state held at that moment (null when none). */
  itemQueries: Map<Observation, Entity | null>;
  /** Per refused (4xx) list read with a query: its scope's entities at that moment (null when never listed whole). */
  refusedQueries: Map<Observation, Entity[] | null>;
}

const ok = (o: Observation) => o.status >= 200 && o.status < 300;
/** Methods that change nothing: every other request may be a write. */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** How many scalars of one write are looked up as ids of other collections. */
const MAX_REF_VALUES = 200;

/**
 * True when `read` started after `write`'s answer ended (`started_at + duration_ms`), or either is untimed (record
 * order decides), or both are request steps and the read's is a later step: request steps run one after another,
 * each awaiting its answer, so that order is proof even when the browser's timing ends the write's record late.
 */
function readsAfter(write: Observation, read: Observation): boolean {
  if (write.time === null || read.time === null) return true;
  const [w, r] = [write.record, read.record];
  if (
    w.initiator === "request-step" &&
    r.initiator === "request-step" &&
    w.step_id !== null &&
    r.step_id !== null &&
    w.step_id !== r.step_id &&
    read.index > write.index
  )
    return true;
  return read.time >= write.time + (write.record.duration_ms ?? 0);
}

/** Takes out of `waiting[key]` the writes whose answer ended before `read` started (only those can show their effect), and returns them. */
function takeReady(
  waiting: Map<string, WriteObservation[]>,
  key: string,
  read: Observation,
): WriteObservation[] {
  const list = waiting.get(key);
  if (!list) return [];
  // An overlapping read may still show the old state: its writes keep waiting.
  const ready = list.filter((w) => readsAfter(w.obs, read));
  const later = list.filter((w) => !readsAfter(w.obs, read));
  if (later.length > 0) waiting.set(key, later);
  else waiting.delete(key);
  return ready;
}

/**
 * The fields a list answer shows on some of its entities and not on others: the app leaves them out per entity (a
 * null `assigned_to`), so an entity lacking one is still whole. None when the answer shows one entity.
 */
export function unevenKeys(entities: Entity[]): Set<string> {
  const all = new Set(entities.flatMap((e) => Object.keys(e)));
  return new Set([...all].filter((k) => !entities.every((e) => k in e)));
}

/** The scope a create writes into: its parent path param (nested), else the answer's parent field, else "". */
function createScope(st: CollectionState, o: Observation, answered: Entity | null): string {
  const parent = st.col.parent;
  if (!parent) return "";
  const raw = o.pathParams[parent.param];
  return raw !== undefined ? st.scopeValue(raw) : answered ? String(answered[parent.field]) : "";
}

/**
 * An entity of a collection whose entities name no parent (`parent.implied`), with its scope, the path parameter's
 * value, under the key the collection keeps it (every read and write of the walk sees it so); others as they are.
 */
function withScope(st: CollectionState, o: Observation, e: Entity): Entity {
  const parent = st.col.parent;
  if (!parent?.implied) return e;
  const scope = o.pathParams[parent.param];
  if (scope !== undefined) return { ...e, [parent.field]: st.scopeValue(scope) };
  // A read or write at a flat item path (`/memberships/3.json`) names no parent: an entity naming it by a reference
  // (`project.id`) holds its scope, the parent's id.
  const named = parent.reference ? referenceValue(e, parent.reference) : undefined;
  return named === undefined ? e : { ...e, [parent.field]: named };
}

/**
 * The entity a write's answer holds under one key (`{time_entry: {id, …}}`) where no item read showed the envelope:
 * the one value of the answer's keys that is an object holding the id field, when the answer itself holds none.
 */
function wrappedEntity(body: Entity, idField: string): Entity {
  if (Object.hasOwn(body, idField)) return body;
  const inner = Object.values(body).filter((v): v is Entity => isObject(v) && Object.hasOwn(v, idField));
  return inner.length === 1 ? inner[0]! : body;
}

/** The value of a reference inside an object field (`project.id` of `project: {id, name}`) as text, if any. */
function referenceValue(e: Entity, reference: string): string | undefined {
  const [k, sub] = reference.split(".") as [string, string];
  const v = e[k];
  const id = isObject(v) ? v[sub] : undefined;
  return typeof id === "string" || typeof id === "number" ? String(id) : undefined;
}

/**
 * A query read with the state of its moment: the scope's entities in list order, each answered one as answered
 * (fresher than the state), entities the state did not hold appended (a filter may show what the plain list hides).
 * The default filter is filled in once the whole recording has shown it.
 */
function queryRead(
  st: CollectionState,
  scope: string,
  o: Observation,
  answer: Entity[],
  total: number | null,
  partial = false,
): QueryRead {
  const byId = new Map<string, Entity>();
  for (const e of answer) {
    const id = st.idOf(e);
    if (id !== null) byId.set(id, e);
  }
  const base = st.list(scope).map((e) => {
    const id = st.idOf(e);
    const fresh = id === null ? undefined : byId.get(id);
    // A projected answer (fewer keys) is no fresher entity: keep the state's.
    return fresh && Object.keys(e).every((k) => k in fresh) ? fresh : e;
  });
  const held = new Set(base.map((e) => st.idOf(e)));
  // A projected answer shows part of an entity the state may not hold yet (a created one no whole read showed): the
  // rest is what the walk last knew of it (the create's answer), so a projection is judged against the whole.
  const projected = namesItsFields(o.query, answer);
  for (const e of answer) {
    const id = st.idOf(e);
    if (held.has(id) || id === null) continue;
    const last = projected ? st.lastKnown.get(id) : undefined;
    base.push(last ? { ...last, ...e } : e);
  }
  return {
    leaves: queryLeaves(o.query),
    base,
    answer,
    total,
    idField: st.col.idField,
    defaultFilter: [],
    ...(partial ? { partial: true } : {}),
    ...(st.col.listView && st.col.listView.omit.length > 0 ? { viewOmits: st.col.listView.omit } : {}),
    ...(st.col.cursor ? { cursor: st.col.cursor.codec } : {}),
    ...(st.col.defaultLimit !== undefined ? { defaultLimit: st.col.defaultLimit } : {}),
  };
}

/**
 * The entity as known before a write: its last read (or answer), with what only its last write answer showed
 * (the fields reads leave out).
 */
function before(st: CollectionState, id: string): Entity | null {
  const known = st.entities.get(id) ?? st.lastKnown.get(id) ?? null;
  const answer = st.lastAnswer.get(id);
  return known && answer && known !== answer ? unionView(known, answer) : known;
}

/**
 * The id a write moves its entity to (a rename, a move into a folder): the request sets the id field to another
 * value than the path names, and the answer, when it shows the entity, holds that value. Null otherwise.
 */
function movedTo(
  st: CollectionState,
  o: Observation,
  answered: Entity | null,
  id: string | null,
): string | null {
  if (id === null || o.request.kind !== "json" || !isObject(o.request.value)) return null;
  const sent = sentFields(o.request.value, st.col.itemEnvelope)[st.col.idField];
  if (typeof sent !== "string" && typeof sent !== "number") return null;
  const to = String(sent);
  if (to === id || (answered !== null && String(answered[st.col.idField]) !== to)) return null;
  return to;
}

/** The write's path parameters with its parent scope as the collection keeps it, when that differs (`params`). */
function scopedParams(st: CollectionState, o: Observation): { params?: Record<string, string> } {
  const param = st.col.parent?.param;
  const raw = param === undefined ? undefined : o.pathParams[param];
  if (raw === undefined || st.scopeValue(raw) === raw) return {};
  return { params: { ...o.pathParams, [param!]: st.scopeValue(raw) } };
}

/** The id of the parent entity a path names by its id or another of its ids (`website`), else the value as given. */
function parentIdOf(parent: CollectionState, raw: string): string {
  if (parent.lastKnown.has(raw)) return raw;
  const alt = parent.col.altIdFields ?? [];
  for (const [id, e] of parent.lastKnown) if (alt.some((f) => String(e[f]) === raw)) return id;
  return raw;
}

/** The walk's state between observations: the collections, the writes waiting for a read, what was learned. */
class Walk {
  readonly states: Map<string, CollectionState>;
  private readonly byList: Map<string, CollectionState>;
  private readonly byItem: Map<string, CollectionState>;
  /** Writes waiting for a read of their entity, by collection and id. */
  private readonly pending = new Map<string, WriteObservation[]>();
  /** Writes a list's view confirmed, waiting in `pending` for an item read that shows the fields it nulls. */
  private readonly partlyShown = new Set<WriteObservation>();
  /** Writes of a whole collection waiting for its next full list, by collection. */
  private readonly replacing = new Map<string, WriteObservation[]>();
  /** Creates that named their entity and still wait for a read of it, by collection and scope. */
  private readonly namedCreates = new Map<string, WriteObservation[]>();
  /** Creates whose answer named no entity (a redirect, an empty 201), by collection and scope: the next full list tells. */
  private readonly anonymous = new Map<string, WriteObservation[]>();
  /** Writes by query waiting for the next full list of their scope, by collection and scope. */
  private readonly bystanders = new Map<string, BystanderCheck[]>();
  /** Descendants a rename moved, waiting for their reads (descendant-moves.ts). */
  private readonly descendantWatch = new DescendantWatch(readsAfter);
  readonly writes: WriteObservation[] = [];
  readonly queries = new Map<Observation, QueryRead>();
  readonly countReads = new Map<Observation, Map<string, Entity[]>>();
  readonly embeds = new Map<Observation, FoundEmbed[]>();
  readonly itemQueries = new Map<Observation, Entity | null>();
  readonly refusedQueries = new Map<Observation, Entity[] | null>();
  readonly refused = new Map<Observation, RefusedWrite>();
  /**
   * Query reads of a scope the recording had not listed whole yet, since the last write, by collection and scope:
   * reads change nothing, so a whole list later in the same run of reads shows the state they saw, and judges them.
   */
  private readonly unjudged = new Map<
    string,
    { o: Observation; entities: Entity[]; total: number | null }[]
  >();
  /** The last write (any method but GET, HEAD, OPTIONS) taken so far. */
  private lastWrite: Observation | null = null;
  /** Endpoints with both a success and a refusal (4xx): only their writes keep the state they met. */
  private readonly refusing = new Set<string>();
  /**
   * Cursor chains being followed, by collection and scope: a plain list the app cut (it said more follows), then
   * each read whose only parameter is the cursor the last page gave, the pages' entities in turn. A chain followed
   * until a page says nothing follows, with no write between, is the whole list of that moment.
   */
  private readonly chains = new Map<
    string,
    { entities: Entity[]; cursor: string; start: [string, string][] }
  >();

  constructor(
    collections: FoundCollection[],
    private readonly targets: Map<string, WriteTarget>,
    ordered: Observation[],
    /** Per collection, the parameters a first walk's rules confirmed as a page size only (`limit`): see `pageSized`. */
    private readonly pageSizes: ReadonlyMap<string, ReadonlySet<string>> = new Map(),
    private readonly resolve: QueryResolver | null = null,
    /** Per collection, the sort rules a first walk's rules confirmed (`whole-reads.ts`): a read sorting only is whole. */
    private readonly orderings: ReadonlyMap<string, OrderingQuery> = new Map(),
    /** Per collection, the item-read parameters a walk before confirmed as assertions: see `readItem`. */
    private readonly asserted: AssertedParams = new Map(),
  ) {
    const [good, bad] = [new Set<string>(), new Set<string>()];
    for (const o of ordered)
      if (targets.has(o.endpoint.key)) (o.status >= 400 && o.status < 500 ? bad : good).add(o.endpoint.key);
    for (const k of bad) if (good.has(k)) this.refusing.add(k);
    this.states = new Map(collections.map((c) => [c.name, new CollectionState(c)]));
    for (const st of this.states.values()) {
      const parent = st.col.parent?.reference ? this.states.get(st.col.parent.collection ?? "") : undefined;
      if (parent) st.scopeValue = (raw) => parentIdOf(parent, raw);
    }
    this.byList = new Map(collections.map((c) => [c.list.key, this.states.get(c.name)!]));
    this.byItem = new Map(
      collections.filter((c) => c.item).map((c) => [c.item!.key, this.states.get(c.name)!]),
    );
  }

  /** Takes one observation into the walk: a list read, an item read, or a write. */
  observe(o: Observation): void {
    if (!SAFE_METHODS.has(o.method)) {
      this.judgeKnown();
      this.lastWrite = o;
    }
    const listState = o.method === "GET" ? this.byList.get(o.endpoint.key) : undefined;
    const itemState = o.method === "GET" ? this.byItem.get(o.endpoint.key) : undefined;
    const body = o.response.kind === "json" ? o.response.value : undefined;
    if (o.method === "GET" && !listState && !itemState && ok(o) && countOf(body) !== null) this.snapshot(o);
    const embeds =
      o.method === "GET" && ok(o) && body !== undefined && ((!listState && !itemState) || o.query.length > 0);
    // A read of a collection's own list or item route takes in its entities first, so its answer's embeds name
    // them (a replayed `?post=5&order=asc` lists comments only it showed: stale once the episode changes them).
    if (embeds && !listState && !itemState)
      this.embeds.set(o, findEmbeds(body, this.embedSources(), o.query.length > 0));
    // A write may change what a cursor chain's later pages hold: no chain is whole across one.
    if (o.method !== "GET" && (ok(o) || isRedirect(o.status))) this.chains.clear();
    if (listState && ok(o) && body !== undefined) this.readList(listState, o, body);
    else if (listState && o.query.length > 0 && o.status >= 400 && o.status < 500)
      this.refusedQueries.set(o, this.scopeNow(listState, o));
    else if (itemState && o.pathParams["id"] !== undefined)
      this.readItem(itemState, o, o.pathParams["id"], body);
    else if (ok(o) || isRedirect(o.status)) this.write(o, body);
    else if (o.status >= 400 && o.status < 500 && this.refusing.has(o.endpoint.key)) this.refusal(o);
    if (embeds && (listState || itemState))
      this.embeds.set(o, withOwnList(findEmbeds(body, this.embedSources(), o.query.length > 0), listState));
  }

  /** The entities of a list read's scope now, in list order, when the recording listed it whole; else null. */
  private scopeNow(st: CollectionState, o: Observation): Entity[] | null {
    const raw = st.col.parent ? o.pathParams[st.col.parent.param] : undefined;
    const scope = raw === undefined ? "" : st.scopeValue(raw);
    return st.listedScopes.has(scope) ? st.list(scope) : null;
  }

  /** A refused write of an endpoint that also succeeded: the state it met, kept for its validation rules. */
  private refusal(o: Observation): void {
    const target = this.targets.get(o.endpoint.key)!;
    const st = this.states.get(target.collection.name)!;
    const id = target.idParam ? (o.pathParams[target.idParam] ?? null) : null;
    this.refused.set(o, {
      pre: id === null ? null : before(st, id),
      scope: target.kind === "create" ? st.list(createScope(st, o, null)) : null,
    });
  }

  /** What the walk knows of each collection now, for finding the entities an answer embeds. */
  private embedSources(): EmbedSource[] {
    return [...this.states.values()].map((st) => ({
      name: st.col.name,
      idField: st.col.idField,
      entities: st.entities,
      full: () => (!st.col.parent && st.listedScopes.has("") ? st.list("") : null),
    }));
  }

  /** A read answered with one number: what each top-level collection whose whole list was seen held then. */
  private snapshot(o: Observation): void {
    const held = new Map<string, Entity[]>();
    // A scope a sorted read showed whole holds known entities too (its order is not the list's; a count needs none).
    for (const st of this.states.values())
      if (!st.col.parent && (st.listedScopes.has("") || st.sortedScopes.has("")))
        held.set(st.col.name, st.list(""));
    this.countReads.set(o, held);
  }

  /**
   * A read showed entity `id` (null: showed it gone): the writes waiting for it are judged. `listed` when the read
   * showed it in the list's view, whose `list_view.nulls` say nothing of the entity.
   */
  private sighting(
    st: CollectionState,
    id: string,
    e: Entity | null,
    read: Observation,
    listed = false,
  ): void {
    this.descendantWatch.sighting(st, id, e, read, listed ? (st.col.listView?.nulls ?? []) : []);
    const taken = takeReady(this.pending, `${st.col.name}\u0000${id}`, read);
    // A write a list already confirmed keeps that when its entity later goes (a rename, a delete): it only waits
    // for a read showing what the list's view left out.
    const list = e === null ? taken.filter((w) => !this.partlyShown.delete(w)) : taken;
    if (list.length === 0) return;
    const unshown = listed ? (st.col.listView?.nulls ?? []) : [];
    judgeReadBack(list, e, st.col.idField, read.index, unshown);
    if (e !== null && namesItsFields(read.query, [e]))
      for (const w of list) if (w.result === "confirmed") w.readBackProjected = true;
    for (const w of list) this.partlyShown.delete(w);
    if (e === null || unshown.length === 0) return;
    // Confirmed by a list that gave null where it always does (a file's `content` in its folder's listing): its
    // read-back lacks what the write set there, so a later item read of the entity judges it again, whole.
    for (const w of list)
      if (
        w.result === "confirmed" &&
        [...w.expect.keys()].some((k) => unshown.includes(k) && e[k] === null)
      ) {
        this.partlyShown.add(w);
        this.wait(st, id, w);
      }
  }

  private wait(st: CollectionState, id: string, w: WriteObservation): void {
    const key = `${st.col.name}\u0000${id}`;
    const list = this.pending.get(key);
    if (list) list.push(w);
    else this.pending.set(key, [w]);
  }

  /** Names the entity of a redirected create from the first full list after it, when that pairs up with certainty. */
  private identifyCreate(st: CollectionState, scope: string, listed: Entity[], read: Observation): void {
    const ready = takeReady(this.anonymous, `${st.col.name}\u0000${scope}`, read);
    const fresh = listed
      .map((e) => st.idOf(e))
      .filter((id): id is string => id !== null && !st.everSeen.has(id));
    // Only one create and one new id pair up with certainty; anything else stays unconfirmed.
    if (ready.length !== 1 || fresh.length !== 1) return;
    ready[0]!.id = fresh[0]!;
    this.wait(st, fresh[0]!, ready[0]!);
  }

  /**
   * Judges the writes of the whole collection waiting for this full list: confirmed when it shows exactly the
   * entities the request sent (the same ids, each entity as sent), else it disagrees, naming the first difference.
   */
  private judgeReplaceAll(st: CollectionState, listed: Entity[], read: Observation): void {
    const ready = takeReady(this.replacing, st.col.name, read);
    const byId = new Map(listed.map((e) => [st.idOf(e), e]));
    for (const w of ready) {
      const sent = (w.obs.request.kind === "json" ? w.obs.request.value : []) as Entity[];
      const bad =
        sent.length !== listed.length
          ? st.col.idField
          : sent
              .map((e) => {
                const shown = byId.get(st.idOf(e));
                if (!shown) return st.col.idField;
                return JSON.stringify(shown) === JSON.stringify(e)
                  ? null
                  : ([...new Set([...Object.keys(e), ...Object.keys(shown)])].find(
                      (k) => JSON.stringify(e[k]) !== JSON.stringify(shown[k]),
                    ) ?? st.col.idField);
              })
              .find((x) => x !== null);
      w.result = bad === undefined ? "confirmed" : "disagrees";
      w.mismatch = bad ?? null;
      if (bad !== undefined) w.mismatchAt = read.index;
    }
  }

  /**
   * Notes, on each waiting create of the scope that a full list after it does not show, that list: the recording
   * then holds the read a hint would ask for, and it did not show the entity.
   */
  private unseenCreates(st: CollectionState, scope: string, listed: Entity[], read: Observation): void {
    const key = `${st.col.name}\u0000${scope}`;
    const waiting = this.namedCreates.get(key);
    if (!waiting) return;
    const shown = new Set(listed.map((e) => st.idOf(e)));
    const still = waiting.filter((w) => w.result === "unconfirmed" && w.unseenIn === undefined);
    for (const w of still) if (readsAfter(w.obs, read) && !shown.has(w.id)) w.unseenIn = read.index;
    const left = still.filter((w) => w.unseenIn === undefined);
    if (left.length > 0) this.namedCreates.set(key, left);
    else this.namedCreates.delete(key);
  }

  /** A list read: a full list replaces the scope's state; a query read is checked against it. */
  private readList(st: CollectionState, o: Observation, body: unknown): void {
    const col = st.col;
    const listed = listEntities(body, col.envelope.kind === "object" ? col.envelope.items_key : null);
    if (!listed) return;
    const got = col.parent?.implied
      ? { ...listed, entities: listed.entities.map((e) => withScope(st, o, e)) }
      : listed;
    const raw = col.parent ? o.pathParams[col.parent.param] : undefined;
    const scope = raw === undefined ? "" : st.scopeValue(raw);
    // A plain list the app cut at its default page size (it says more follows) is no full list.
    const cut = col.cursor !== undefined && saysMore(col.cursor, body);
    const chainKey = `${col.name}\u0000${scope}`;
    if (o.query.length === 0 && !cut) {
      this.chains.delete(chainKey);
      this.fullList(st, scope, got.entities, o);
      return;
    }
    // A read that only sorts (by a sort a first walk's rules confirmed) lists what the plain list lists; before any
    // plain list of the scope (after one, it is judged as any query read: its order is not the list's).
    if (!cut && !st.listedScopes.has(scope) && this.sortsOnly(col, o.query, got.entities)) {
      if (st.sortedScopes.has(scope)) this.queryList(st, scope, o, body, got.entities);
      this.chains.delete(chainKey);
      this.fullList(st, scope, got.entities, o, true);
      return;
    }
    // A read that only sets a page size (as a first walk's rules confirmed) lists every entity, page by page.
    const sized = o.query.length > 0 && this.pageSized(col, o.query);
    if (o.query.length === 0 || sized) {
      this.queryList(st, scope, o, body, got.entities);
      if (sized && !cut) {
        this.chains.delete(chainKey);
        this.fullList(st, scope, got.entities, o);
        return;
      }
      // The first page of a chain a client may follow to its end (`cursorValue`: the cursor it gave).
      const cursor = cursorValue(col.cursor!, body);
      if (cursor === null) this.chains.delete(chainKey);
      else this.chains.set(chainKey, { entities: [...got.entities], cursor, start: o.query });
      return;
    }
    const chain = this.chains.get(chainKey);
    if (chain && this.nextInChain(o.query, chain)) {
      // Judged first against the state before the chain (its own pages are no evidence of what a cursor means).
      this.queryList(st, scope, o, body, got.entities);
      const all = [...chain.entities, ...got.entities];
      const ids = all.map((e) => st.idOf(e));
      const next = saysMore(col.cursor!, body) ? cursorValue(col.cursor!, body) : null;
      if (ids.some((id) => id === null) || new Set(ids).size !== ids.length) this.chains.delete(chainKey);
      else if (next !== null) this.chains.set(chainKey, { ...chain, entities: all, cursor: next });
      else {
        this.chains.delete(chainKey);
        this.fullList(st, scope, all, o);
      }
      return;
    }
    // A read that only orders its scope (`sort=name:desc`) shows it whole: the state of that moment is known; not
    // when its envelope counts more matches than it shows (the app cut it at its default page size).
    const totalKey = col.envelope.kind === "object" ? col.envelope.total_key : null;
    const counted = totalKey && isObject(body) ? body[totalKey] : undefined;
    if (
      !st.listedScopes.has(scope) &&
      !cut &&
      !(typeof counted === "number" && counted > got.entities.length) &&
      !headersSayCut(o.record.response?.headers ?? [], got.entities.length) &&
      orderingOnly(o.query, got.entities, st.list(scope), (e) => st.idOf(e))
    ) {
      if (st.sortedScopes.has(scope)) this.queryList(st, scope, o, body, got.entities);
      const gone = st.applyFullList(scope, got.entities, true);
      for (const id of gone) this.sighting(st, id, null, o);
      for (const e of got.entities) {
        const id = st.idOf(e);
        if (id !== null) this.sighting(st, id, e, o, true);
      }
      this.judgeUnjudged(st, scope);
      return;
    }
    this.queryList(st, scope, o, body, got.entities);
  }

  /**
   * True when every parameter of the query is one a first walk's rules confirmed as a page size, and the collection
   * answers with cursors (a cut page then says so): the read lists every entity up to that size.
   */
  private pageSized(col: FoundCollection, query: [string, string][]): boolean {
    const names = this.pageSizes.get(col.name);
    return (
      col.cursor !== undefined &&
      names !== undefined &&
      query.every(([k, v]) => names.has(k) && /^[1-9]\d*$/.test(v)) &&
      new Set(query.map(([k]) => k)).size === query.length
    );
  }

  /** True when every parameter of the query is a sort (or its direction) a first walk's rules confirmed. */
  private sortsOnly(col: FoundCollection, query: [string, string][], answered: Entity[]): boolean {
    const ordering = this.orderings.get(col.name);
    return ordering !== undefined && sortsOnlyByRule(ordering, query, answered);
  }

  /** True when the read is the chain's next page: its first read's parameters and the cursor the last page gave. */
  private nextInChain(
    query: [string, string][],
    chain: { cursor: string; start: [string, string][] },
  ): boolean {
    if (query.length !== chain.start.length + 1) return false;
    const rest = [...query];
    for (const [k, v] of chain.start) {
      const at = rest.findIndex(([a, b]) => a === k && b === v);
      if (at < 0) return false;
      rest.splice(at, 1);
    }
    return rest[0]![1] === chain.cursor;
  }

  /** A full list of a scope (a plain read, or a cursor chain followed to its end): the scope's state is now it. */
  private fullList(
    st: CollectionState,
    scope: string,
    entities: Entity[],
    o: Observation,
    sorted = false,
  ): void {
    if (scope === "" && !sorted) this.judgeReplaceAll(st, entities, o);
    this.identifyCreate(st, scope, entities, o);
    this.unseenCreates(st, scope, entities, o);
    const gone = st.applyFullList(scope, entities, sorted);
    for (const id of gone) this.sighting(st, id, null, o);
    for (const e of entities) {
      const id = st.idOf(e);
      if (id !== null) this.sighting(st, id, e, o, true);
    }
    this.checkBystanders(st, scope, entities, o);
    this.judgeUnjudged(st, scope);
  }

  /** The query reads of the scope made since the last write before its first whole list: judged against it now. */
  private judgeUnjudged(st: CollectionState, scope: string): void {
    const key = `${st.col.name}\u0000${scope}`;
    for (const r of this.unjudged.get(key) ?? [])
      this.queries.set(r.o, queryRead(st, scope, r.o, r.entities, r.total));
    this.unjudged.delete(key);
  }

  /**
   * The query reads of scopes no whole list showed in their run of reads (since the last write): judged against the
   * entities the walk knows of the scope at the end of that run (`partial`). Reads change nothing, so every entity
   * the run's reads showed, or the walk knew before and no read showed gone, was there at each of them, as the
   * run's last reads showed it (issue 3 first listed by the run's fourth read was there at its first). Entities no
   * read showed may be missing: such a read is judged as a sample of the scope (`QueryRead.partial`). Called at a
   * write and at the walk's end.
   */
  judgeKnown(): void {
    for (const [key, reads] of this.unjudged) {
      const st = this.states.get(key.split("\u0000")[0]!)!;
      const scope = key.slice(key.indexOf("\u0000") + 1);
      if (st.listedScopes.has(scope) || st.sortedScopes.has(scope)) continue;
      for (const r of reads) this.queries.set(r.o, queryRead(st, scope, r.o, r.entities, r.total, true));
    }
    this.unjudged.clear();
  }

  /** A query read of a scope: judged against the scope's state when the recording listed it whole before. */
  private queryList(
    st: CollectionState,
    scope: string,
    o: Observation,
    body: unknown,
    entities: Entity[],
  ): void {
    const col = st.col;
    const got = { entities };
    const totalKey = col.envelope.kind === "object" ? col.envelope.total_key : null;
    const total =
      totalKey && isObject(body) && typeof body[totalKey] === "number" ? (body[totalKey] as number) : null;
    // A query is judged only against a scope whose whole list the recording showed before it, or shows later with
    // nothing written between (it saw that state: `judgeUnjudged`).
    if (st.listedScopes.has(scope) || st.sortedScopes.has(scope))
      this.queries.set(o, queryRead(st, scope, o, got.entities, total));
    else if (this.lastWrite === null || readsAfter(this.lastWrite, o))
      appendTo(this.unjudged, `${col.name}\u0000${scope}`, { o, entities: got.entities, total });
    const optional = unevenKeys(got.entities);
    const projected = namesItsFields(o.query, got.entities);
    for (const e of got.entities) {
      const id = st.idOf(e);
      if (id !== null) st.noteFromQuery(scope, e, optional, projected);
      if (id !== null) this.sighting(st, id, e, o, true);
    }
  }

  /** An item read: a 404 or 410 (or a 403 confirmed to mean the same) shows the entity gone, a success shows it as it is. */
  private readItem(st: CollectionState, o: Observation, id: string, body: unknown): void {
    if (o.status === 404 || o.status === 410 || st.col.missStatuses?.includes(o.status)) {
      // A miss of a path naming the entity by another of its ids (`/projects/docs.json`) shows that entity gone.
      id = st.resolveId(id);
      if (st.everSeen.has(id)) st.goneMisses.add(o);
      st.remove(id);
      this.sighting(st, id, null, o);
    } else if (ok(o) && o.query.length > 0) {
      const held = st.entities.get(id) ?? null;
      this.itemQueries.set(o, held);
      // A read whose every parameter a walk before confirmed as an assertion that held here (`?type=directory` of a
      // folder) answered as the plain item read: it is taken in as one (its children the folder's whole list).
      const asserted = this.asserted.get(st.col.name);
      if (answersAsPlainRead(asserted, o.query, itemEntity(body, st.col.itemEnvelope), held)) {
        this.plainItem(st, o, id, body);
        return;
      }
      // An entity no read before showed exists: it joins with the fields every whole entity holds that it shows
      // (never a projected or expanded shape written into a known one).
      const shown = st.entities.has(id) ? null : itemEntity(body, st.col.itemEnvelope);
      if (shown) {
        const e = withScope(st, o, shown);
        if (st.noteFromItemQuery(st.scopeOf(e), e)) this.sighting(st, st.idOf(e) ?? id, e, o);
      }
    } else if (ok(o) && o.query.length === 0) this.plainItem(st, o, id, body);
  }

  /**
   * A successful item read as the plain read answers it: the entity as it is now (an item read with a query of
   * another meaning, a format, a projection, an expansion, may show another shape: it is replayed, and never
   * written back into the state).
   */
  private plainItem(st: CollectionState, o: Observation, id: string, body: unknown): void {
    const shown = itemEntity(body, st.col.itemEnvelope);
    const read = shown && withScope(st, o, shown);
    const e = read && st.col.tree ? this.readChildren(st, o, read, st.col.tree.childrenKey) : read;
    if (e) {
      st.upsert(e);
      // The path may name the entity by another of its ids (`/projects/website`): its writes wait under its id.
      this.sighting(st, st.idOf(e) ?? id, e, o);
    }
  }

  /**
   * The children a parent's item read embeds are the full list of its scope (ids that are paths); the parent is
   * kept with an empty list there, which serve fills from the state.
   */
  private readChildren(st: CollectionState, o: Observation, e: Entity, key: string): Entity {
    const kids = embeddedChildren(e, key);
    const id = st.idOf(e);
    if (kids === null || id === null) return e;
    const gone = st.applyFullList(id, kids);
    for (const g of gone) this.sighting(st, g, null, o);
    for (const k of kids) {
      const kid = st.idOf(k);
      if (kid !== null) this.sighting(st, kid, k, o, true);
    }
    return { ...e, [key]: [] };
  }

  /** Entities of the other collections whose ids a scalar of the write's request or answer holds. */
  private referenced(
    own: CollectionState,
    o: Observation,
    answered: Entity | null,
    pre: Entity | null = null,
  ): Map<string, Entity> {
    const values = new Set<string>();
    const collect = (v: unknown, depth: number) => {
      if (values.size >= MAX_REF_VALUES) return;
      if (typeof v === "string" || (typeof v === "number" && Number.isInteger(v))) values.add(String(v));
      else if (v !== null && typeof v === "object" && depth < 4)
        for (const x of Array.isArray(v) ? v : Object.values(v)) collect(x, depth + 1);
    };
    if (o.request.kind === "json" || o.request.kind === "form") collect(o.request.value, 0);
    collect(answered, 0);
    // What the entity named before (its status, its project): an update the app answers with no body keeps them.
    collect(pre, 0);
    const out = new Map<string, Entity>();
    for (const [name, st] of this.states) {
      if (st === own) continue;
      for (const v of values) {
        const e = st.entities.get(v);
        if (e) out.set(`${name}\u0000${v}`, e);
      }
    }
    return out;
  }

  /** The highest integer id of every other collection with integer ids, by name. */
  private otherMax(own: CollectionState): Map<string, number> {
    const out = new Map<string, number>();
    for (const [name, st] of this.states) if (st !== own && st.maxInt !== null) out.set(name, st.maxInt);
    return out;
  }

  /**
   * A batch update: one write per entity its request names, each expecting the request's fields (or what the
   * answer shows of that entity) and waiting for its own read-back.
   */
  private batchWrite(
    o: Observation,
    body: unknown,
    target: WriteTarget,
    batch: { keys: string; data: string },
  ): void {
    const st = this.states.get(target.collection.name)!;
    const req = o.request.kind === "json" && isObject(o.request.value) ? o.request.value : {};
    const keys = Array.isArray(req[batch.keys]) ? (req[batch.keys] as unknown[]) : [];
    const data = isObject(req[batch.data]) ? (req[batch.data] as Entity) : {};
    const shown = isObject(body)
      ? Object.values(body).find(Array.isArray)
      : Array.isArray(body)
        ? body
        : undefined;
    for (const key of keys) {
      const id = String(key);
      const answered =
        (shown as unknown[] | undefined)?.find(
          (e): e is Entity => isObject(e) && String(e[st.col.idField]) === id,
        ) ?? null;
      const expect = new Map<string, { value: unknown; loose: boolean }>();
      for (const [k, v] of Object.entries(answered ?? data)) expect.set(k, { value: v, loose: false });
      const w: WriteObservation = {
        obs: o,
        target,
        id,
        pre: before(st, id),
        answered,
        maxIntBefore: st.maxInt,
        maxPresentBefore: null,
        otherMaxBefore: null,
        refs: new Map(),
        scopeMaxBefore: null,
        idSeenBefore: st.everSeen.has(id),
        result: "unconfirmed",
        readBack: null,
        mismatch: null,
        expect,
      };
      if (answered) {
        st.lastKnown.set(id, answered);
        st.lastAnswer.set(id, answered);
      }
      this.writes.push(w);
      this.wait(st, id, w);
    }
  }

  /**
   * A write by query: one write per entity its query selects among the scope's (the entity's read-back judges each,
   * as for a batch), and a check that the next full list shows every other entity of the scope unchanged. Without
   * a resolver (the first pass), a scope never listed whole, or a query the reads' rules do not select by, it is
   * one unresolved write that confirms nothing.
   */
  private queryWrite(o: Observation, body: unknown, target: WriteTarget): void {
    const st = this.states.get(target.collection.name)!;
    const raw = st.col.parent ? o.pathParams[st.col.parent.param] : undefined;
    const scope = raw === undefined ? "" : st.scopeValue(raw);
    // A read that only ordered the scope showed it whole too (sorted-whole-reads.ts): its rows are the ones to select.
    const rows = st.listedScopes.has(scope) || st.sortedScopes.has(scope) ? st.list(scope) : null;
    const found =
      rows === null
        ? { why: "unlisted" as const }
        : this.resolve
          ? this.resolve(st.col, rows, o.query)
          : { why: "unlearned" as const, detail: "its query rules are not learned yet" };
    const note = (id: string | null, answered: Entity | null): WriteObservation => ({
      obs: o,
      target,
      id,
      pre: id === null ? null : before(st, id),
      answered,
      maxIntBefore: st.maxInt,
      maxPresentBefore: null,
      otherMaxBefore: null,
      refs: new Map(),
      scopeMaxBefore: null,
      idSeenBefore: id !== null && st.everSeen.has(id),
      result: "unconfirmed",
      readBack: null,
      mismatch: null,
      expect:
        id === null || target.kind === "delete"
          ? new Map()
          : writeExpectations(o, answered, st.col.itemEnvelope, st.col.listView?.nulls),
    });
    if ("why" in found) {
      const w = note(null, null);
      w.unresolved =
        found.why === "unlisted" ? { why: "unlisted" } : { why: found.why, detail: found.detail };
      this.writes.push(w);
      return;
    }
    const answer = Array.isArray(body) ? body.filter(isObject) : [];
    const since = this.writes.length;
    const ws: WriteObservation[] = [];
    for (const id of found.ids) {
      const answered = answer.find((e) => st.idOf(e) === id) ?? null;
      const w = note(id, answered);
      if (found.prefix.length > 0) w.queryPrefix = found.prefix;
      if (answered && target.kind !== "delete") {
        st.lastKnown.set(id, answered);
        st.lastAnswer.set(id, answered);
      }
      ws.push(w);
      this.writes.push(w);
      this.wait(st, id, w);
    }
    // Selecting nothing is an observation too: the list after it must show nothing changed.
    if (ws.length === 0) {
      const w = note(null, null);
      if (found.prefix.length > 0) w.queryPrefix = found.prefix;
      ws.push(w);
      this.writes.push(w);
    }
    const selected = new Set(found.ids);
    const untouched = new Map<string, Entity>();
    for (const e of rows!) {
      const id = st.idOf(e);
      // An entity another write still waits on may change for that write's sake: it proves nothing of this one.
      if (id !== null && !selected.has(id) && !this.pending.has(`${st.col.name}\u0000${id}`))
        untouched.set(id, e);
    }
    const sent = o.request.kind === "json" && isObject(o.request.value) ? o.request.value : {};
    const fields = target.kind === "delete" ? [] : Object.keys(sentFields(sent, st.col.itemEnvelope));
    appendTo(this.bystanders, `${st.col.name}\u0000${scope}`, { obs: o, ws, untouched, fields, since });
  }

  /**
   * Judges the writes by query waiting for this full list of their scope: each entity they did not select must be
   * listed, holding what it held before in every field they set, unless a later write touched it; else the write
   * disagrees (it wrote more than its query selects by the reads' rules).
   */
  private checkBystanders(st: CollectionState, scope: string, listed: Entity[], read: Observation): void {
    const key = `${st.col.name}\u0000${scope}`;
    const waiting = this.bystanders.get(key);
    if (!waiting) return;
    const ready = waiting.filter((c) => readsAfter(c.obs, read));
    const later = waiting.filter((c) => !readsAfter(c.obs, read));
    if (later.length > 0) this.bystanders.set(key, later);
    else this.bystanders.delete(key);
    const shown = new Map(listed.map((e) => [st.idOf(e), e]));
    for (const c of ready) {
      const touched = new Set(
        this.writes
          .slice(c.since)
          .flatMap((w) => (w.obs !== c.obs && w.target.collection === st.col ? [w.id] : [])),
      );
      const changed = [...c.untouched].find(([id, pre]) => {
        if (touched.has(id)) return false;
        const now = shown.get(id);
        return (
          now === undefined ||
          c.fields.some((k) => Object.hasOwn(pre, k) && JSON.stringify(pre[k]) !== JSON.stringify(now[k]))
        );
      });
      if (!changed) continue;
      for (const w of c.ws) {
        w.result = "disagrees";
        w.mismatch = st.col.idField;
        w.mismatchAt = read.index;
        w.bystander = changed[0];
      }
    }
  }

  /** A write of the whole collection: it waits for the next full list. */
  private replaceAllWrite(o: Observation, target: WriteTarget): void {
    const st = this.states.get(target.collection.name)!;
    const w: WriteObservation = {
      obs: o,
      target,
      id: null,
      pre: null,
      answered: null,
      maxIntBefore: st.maxInt,
      maxPresentBefore: null,
      otherMaxBefore: null,
      refs: new Map(),
      scopeMaxBefore: null,
      idSeenBefore: false,
      result: "unconfirmed",
      readBack: null,
      mismatch: null,
      expect: new Map(),
    };
    this.writes.push(w);
    appendTo(this.replacing, st.col.name, w);
  }

  /** A successful write of a target: noted with what was known before it, then waiting for its read-back. */
  private write(o: Observation, body: unknown): void {
    const target = this.targets.get(o.endpoint.key);
    if (!target) return;
    if (target.batch) {
      this.batchWrite(o, body, target, target.batch);
      return;
    }
    if (target.replaceAll) {
      this.replaceAllWrite(o, target);
      return;
    }
    if (target.filter) {
      this.queryWrite(o, body, target);
      return;
    }
    const st = this.states.get(target.collection.name)!;
    // An answer of one row in an array (`[row]`, a database over HTTP) shows that row, as the bare row would.
    const one = oneRow(body) ? body[0] : body;
    const shown = isObject(one) ? (itemEntity(one, st.col.itemEnvelope) ?? one) : null;
    // A create names its entity by the id its answer holds, under one key where no item read showed the envelope.
    const entity = shown && target.kind === "create" ? wrappedEntity(shown, st.col.idField) : shown;
    const answered = entity && withScope(st, o, entity);
    // A create answered with a redirect (post-redirect-get), or with no entity (`201` and a Location), names its
    // entity in the Location, if anywhere.
    // A path naming the entity by another of its ids (`PUT /projects/docs.json`) writes the entity of that id.
    const pathId = target.idParam ? o.pathParams[target.idParam] : undefined;
    const rawId = target.idParam
      ? pathId === undefined
        ? undefined
        : st.resolveId(pathId)
      : (answered?.[st.col.idField] ?? (isRedirect(o.status) || answered === null ? redirectedId(o) : null));
    const id = typeof rawId === "string" || typeof rawId === "number" ? String(rawId) : null;
    const pre = id === null ? null : before(st, id);
    const w: WriteObservation = {
      obs: o,
      target,
      id,
      ...scopedParams(st, o),
      pre,
      answered,
      maxIntBefore: st.maxInt,
      maxPresentBefore: target.kind === "create" ? st.maxPresent() : null,
      otherMaxBefore: target.kind === "create" ? this.otherMax(st) : null,
      refs: this.referenced(st, o, answered, pre),
      scopeMaxBefore:
        target.kind === "create" ? new Map(st.scopeMax.get(createScope(st, o, answered)) ?? []) : null,
      idSeenBefore: id !== null && st.everSeen.has(id),
      ...(target.kind === "create" && this.refusing.has(o.endpoint.key)
        ? { scopeBefore: st.list(createScope(st, o, answered)) }
        : {}),
      result: "unconfirmed",
      readBack: null,
      mismatch: null,
      expect:
        target.kind === "delete"
          ? new Map()
          : writeExpectations(o, answered, st.col.itemEnvelope, st.col.listView?.nulls),
    };
    if (id !== null && target.kind === "create") st.noteId(answered?.[st.col.idField]);
    if (id !== null && target.kind === "create" && o.status >= 200 && o.status < 300)
      st.noteCreated(createScope(st, o, answered), id);
    if (id !== null && answered && st.col.idField in answered) {
      st.lastKnown.set(id, answered);
      st.lastAnswer.set(id, answered);
      // The answer shows the entity as it now is: its integers count for "highest + 1" in its scope, so a later
      // create repeating a value (every comment's author 1) is not taken for a counter of a stale highest.
      if (target.kind === "create") st.noteInts(createScope(st, o, answered), answered);
    }
    this.writes.push(w);
    // A rename: its read-back is a read of the entity under the id it moved to.
    const moved = target.kind === "merge" || target.kind === "replace" ? movedTo(st, o, answered, id) : null;
    if (id !== null) this.wait(st, moved ?? id, w);
    if (id !== null) this.descendantWatch.written(st, id);
    // The entities under a renamed one (hierarchical ids) move with it in the walk's state, until a read says not.
    const separator = greedySeparator(o.endpoint, target.idParam);
    if (id !== null && moved !== null && separator !== null)
      this.descendantWatch.rename(st, w, id, moved, separator);
    if (id !== null && target.kind === "create") {
      const key = `${st.col.name}\u0000${createScope(st, o, answered)}`;
      appendTo(this.namedCreates, key, w);
    } else if (target.kind === "create" && (isRedirect(o.status) || answered === null)) {
      const key = `${st.col.name}\u0000${createScope(st, o, null)}`;
      appendTo(this.anonymous, key, w);
    }
  }
}

/** Runs the walk over observations sorted in time order. */
export function walkState(
  ordered: Observation[],
  collections: FoundCollection[],
  targets: Map<string, WriteTarget>,
  /** Per collection, the parameters confirmed as a page size only (a second walk: see `Walk.pageSized`). */
  pageSizes: ReadonlyMap<string, ReadonlySet<string>> = new Map(),
  resolve: QueryResolver | null = null,
  /** Per collection, its confirmed sort rules (a further walk: see `Walk.sortsOnly`). */
  orderings: ReadonlyMap<string, OrderingQuery> = new Map(),
  /** Per collection, its confirmed item-read assertions (a further walk: see `Walk.readItem`). */
  asserted: AssertedParams = new Map(),
): WalkResult {
  const walk = new Walk(collections, targets, ordered, pageSizes, resolve, orderings, asserted);
  for (const o of ordered) walk.observe(o);
  walk.judgeKnown();
  return {
    states: walk.states,
    writes: walk.writes,
    refused: walk.refused,
    queries: walk.queries,
    countReads: walk.countReads,
    embeds: walk.embeds,
    itemQueries: walk.itemQueries,
    refusedQueries: walk.refusedQueries,
  };
}

/**
 * The embeds of a query read of a collection's own list route, with the list itself among them: a replay of it
 * (a query no rule explains) answers which of the collection's entities the query picks, and any write of the
 * episode to the collection may change that — a create may join it, though the recorded answer was empty or showed
 * entities the walk did not know (a projection of a collection seen only in part) — so it is stale after any.
 * Unconfirmed, never rebuilt. Item reads and reads that already embed the list are left as found.
 */
function withOwnList(found: FoundEmbed[], listState: CollectionState | undefined): FoundEmbed[] {
  if (!listState) return found;
  const name = listState.col.name;
  if (found.some((f) => f.collection === name && f.kind === "list")) return found;
  const env = listState.col.envelope;
  const pointer = env.kind === "object" ? `/${escapePointerToken(env.items_key)}` : "";
  return [...found, { collection: name, pointer, kind: "list", ids: [], keys: [], exact: false }];
}
