/**
 * The top-level pure entry of learning: Evidence in, the Model, the seed
 * state and the facts coverage reports on out. No I/O, no clock, no
 * randomness: the same evidence always gives the same model.
 */

import type { Evidence } from "../evidence/evidence-schema.js";
import { queryPrefixes } from "../model/count-read.js";
import {
  type Acknowledged,
  type Collection,
  type Endpoint,
  type Entity,
  MODEL_SCHEMA_VERSION,
  type Model,
  type Replay,
  type SeedState,
  type Withheld,
  type WriteRule,
} from "../model/model-schema.js";
import { queryTargets } from "../model/query-targets.js";
import { appendTo } from "../util/append-to.js";
import { acknowledge } from "./acknowledged.js";
import { type LearnWarning, selectApiRecords } from "./api-records.js";
import { learnAuth } from "./auth-schemes.js";
import { splitBySentField } from "./case-splits.js";
import type { CollectionState } from "./collection-state.js";
import { type FoundCollection, findCollections } from "./collections.js";
import { type LearnedCount, learnCountReads } from "./count-reads.js";
import { derivedFields, sightings } from "./derived-fields.js";
import { type FoundEmbed, replayEmbeds } from "./embedded-reads.js";
import { plainFromEncodedReads } from "./encoded-reads.js";
import { type EndpointGroup, indexEndpoints, type Observation } from "./endpoint-index.js";
import { endpointModel } from "./endpoint-model.js";
import { learnEtag, learnStaleIfMatch } from "./etag-rules.js";
import {
  findHeaderSplit,
  keepCollectionVariants,
  learnVariants,
  splitVariantReads,
  withVariantReplays,
} from "./header-variants.js";
import { hiddenDefaults, hiddenPointers, withHiddenDefaults } from "./hidden-fields.js";
import { reusePolicy, sequenceStarts, withSharedSequences } from "./id-sequences.js";
import { inferNotFound } from "./inferred-not-found.js";
import { inferSiblingQueries, siblingInputs } from "./inferred-queries.js";
import { inferItemRoutes } from "./inferred-routes.js";
import { type AssertedParams, assertedParams, learnItemAssertions } from "./item-assertions.js";
import { itemFieldsConfirmed } from "./item-fields.js";
import { learnItemProjections } from "./item-projections.js";
import { operationExamples } from "./operation-examples.js";
import { findCacheBusters, withoutCacheBusters } from "./query-cache-busters.js";
import { buildReplays, collectionModel, pageSizeParams } from "./read-model.js";
import { referenceTables } from "./reference-tables.js";
import { apiWords } from "./referenced-formats.js";
import {
  learnBodyRefusals,
  learnCredentialRefusals,
  learnCredentialRequirements,
  learnRefusedBodies,
} from "./refusal-rules.js";
import { sessionIdentities } from "./session-identity.js";
import { type ServedWrite, type TargetedWrite, widenRequestSchemas } from "./settable-fields.js";
import { ambientCookies, isSignIn, type SignInKey, signedIn, signInKey, signInMatch } from "./sign-in.js";
import { type LearnedSingleton, learnSingletons, scalarType } from "./singletons.js";
import { type StaleReason, shownEntities, staleReads } from "./stale-replays.js";
import { type QueryResolver, type WalkResult, type WriteObservation, walkState } from "./state-walk.js";
import { findUnrecordedBodies } from "./unrecorded-bodies.js";
import { othersBeforeUpdates } from "./update-scopes.js";
import { learnValidations, requireValidatedFields } from "./validation-rules.js";
import { isKindValue } from "./value-kinds.js";
import { type OrderingQuery, orderingQuery } from "./whole-reads.js";
import { withheld } from "./withheld-hint.js";
import { writeNotFound } from "./write-misses.js";
import { assembleWriteRules } from "./write-rule-assembly.js";
import { type LearnOptions, learnWrite, type WriteJudgement } from "./write-rules.js";
import { findWriteTargets, isWriteMethod, type WriteTarget } from "./write-targets.js";
import { type ServedVariant, servedVariants, withQueryVariants } from "./write-variants.js";

/** What learning found: the model, the seed, and the counts and warnings coverage reports. */
export interface Learned {
  model: Model;
  seed: SeedState;
  counts: { records: number; api_records: number; assets: number; ignored: number };
  warnings: LearnWarning[];
}

/** Default learning options. */
export const DEFAULT_LEARN_OPTIONS: LearnOptions = { clockWindowMs: 120_000 };

/** The episode clock's step per write, in ms. */
export const CLOCK_STEP_MS = 1000;

function timeOrder(obs: Observation[]): Observation[] {
  if (!obs.every((o) => o.time !== null)) return obs;
  return [...obs].sort((a, b) => a.time! - b.time! || a.index - b.index);
}

const byName =
  <T>(name: (t: T) => string) =>
  (a: T, b: T) =>
    name(a) < name(b) ? -1 : 1;

/** The judgement of every write endpoint that is not a sign-in, in endpoint order; their warnings go to `warnings`. */
function judgeWrites(
  groups: EndpointGroup[],
  targets: Map<string, WriteTarget>,
  walked: WriteObservation[],
  signIns: Map<EndpointGroup, SignInKey>,
  opts: LearnOptions,
  warnings: LearnWarning[],
  variants: Map<EndpointGroup, EndpointGroup>,
  moreVariants: Map<EndpointGroup, ServedVariant[]>,
): Map<EndpointGroup, WriteJudgement> {
  const writesByGroup = new Map<EndpointGroup, WriteObservation[]>();
  for (const w of walked) {
    const list = writesByGroup.get(w.obs.endpoint);
    if (list) list.push(w);
    else writesByGroup.set(w.obs.endpoint, [w]);
  }
  const judged = new Map<EndpointGroup, WriteJudgement>();
  // The read routes the recording has: the only ones a hint may name.
  const readRoutes = new Set(groups.filter((g) => g.method === "GET").map((g) => `GET ${g.template}`));
  for (const g of groups) {
    if (!isWriteMethod(g.method) || signIns.has(g)) continue;
    const target = targets.get(g.key) ?? null;
    const walkedOf = writesByGroup.get(g) ?? [];
    const whole = learnWrite(g, target, walkedOf, opts, readRoutes);
    // One kind of request left unexplained (a field only some writes sent): the others served, it refused.
    const j = splitBySentField(g, target, walkedOf, opts, readRoutes, whole, learnWrite) ?? whole;
    warnings.push(...j.warnings);
    // A route whose query picks what it does: each variant its own read-backs confirm (write-variants.ts).
    const [variant, ...more] =
      j.withheld?.reason === "read_back_disagrees"
        ? servedVariants(g, target, walkedOf, opts, readRoutes)
        : [];
    if (variant) variants.set(g, variant.group);
    if (more.length > 0) moreVariants.set(g, more);
    judged.set(g, variant ? { ...variant.judgement, warnings: j.warnings } : j);
  }
  return judged;
}

/**
 * The writes on no collection that change nothing the recording showed, by endpoint (see acknowledged.ts); a write
 * a read shows changing what no collection holds keeps its verdict with a hint that says so (no recording closes it).
 */
function acknowledgeWrites(
  judged: Map<EndpointGroup, WriteJudgement>,
  ordered: Observation[],
  collections: FoundCollection[],
): Map<EndpointGroup, Acknowledged> {
  // The reads the twin serves from a collection, by route: a write changing one of them is no unknown effect.
  const reads = new Map<string, string>();
  for (const c of collections)
    for (const e of [c.itemOnly ? null : c.list, c.item]) if (e) reads.set(`GET ${e.template}`, c.name);
  const out = new Map<EndpointGroup, Acknowledged>();
  for (const [g, j] of judged) {
    if (j.withheld?.reason !== "no_collection") continue;
    const ack = acknowledge(g, ordered);
    if ("acknowledged" in ack) out.set(g, ack.acknowledged);
    else if (ack.changed !== null)
      judged.set(g, {
        ...j,
        draft: null,
        withheld: withheld("no_collection", {
          method: g.method,
          template: g.template,
          readBack: ack.changed,
          changed: ack.changed,
          ...(reads.has(ack.changed) ? { changedCollection: reads.get(ack.changed)! } : {}),
        }),
      });
  }
  return out;
}

/**
 * Per collection, each top-level field every entity the recording showed untouched by writes holds (at least two),
 * with the one empty value (`""`, null, `[]`, `{}`) some of them hold: what the app gives a field a create leaves
 * unset, rather than no field at all (which no entity ever showed). `0` and `false` are values a user sets (a todo
 * not done), not the absence of one, so they say nothing of what a create that leaves the field out gets.
 */
const EMPTY = new Set(['""', "null", "[]", "{}"]);
function untouchedDefaults(walk: WalkResult): Map<string, Map<string, unknown>> {
  const touched = new Set(walk.writes.map((w) => `${w.target.collection.name}\u0000${w.id ?? ""}`));
  const out = new Map<string, Map<string, unknown>>();
  for (const [name, st] of walk.states) {
    const untouched = [...st.lastKnown]
      .filter(([id]) => !touched.has(`${name}\u0000${id}`))
      .map(([, e]) => e);
    if (untouched.length < 2) continue;
    const fields = new Map<string, unknown>();
    for (const k of Object.keys(untouched[0]!)) {
      if (!untouched.every((e) => Object.hasOwn(e, k))) continue;
      const empty = new Set(untouched.map((e) => JSON.stringify(e[k])).filter((t) => EMPTY.has(t)));
      if (empty.size === 1) fields.set(k, JSON.parse([...empty][0]!));
    }
    if (fields.size > 0) out.set(name, fields);
  }
  return out;
}

/**
 * Per collection, the value a create that leaves out a field gets where nothing recorded decides it
 * (`default: unconfirmed`): every entity the recording showed (one or more) holds the field, so the app never drops
 * it, yet no create left it out and the untouched entities ({@link untouchedDefaults}) show no one default. The
 * documented rule: the one empty value (`""`, null, `[]`, `{}`) any of its entities held; else, by the kind of its
 * values, `[]` for a list, false for a flag, null for anything else (a text, a number, a date, an object). Never the
 * id field. None for a field of a kind ({@link droppedKinds}) the recording shows the app dropping when a create left
 * it unset, in any collection (LoopBack's todo created without `desc` lacks it: no text or flag gets a default;
 * Redmine's time entry created without an issue lacks `issue`: no object does, yet its texts and dates do): one app
 * serialises every collection alike, so a field every entity held tells nothing there.
 */
function unconfirmedDefaults(
  walk: WalkResult,
  confirmed: ReadonlyMap<string, ReadonlyMap<string, unknown>>,
): Map<string, Map<string, unknown>> {
  const out = new Map<string, Map<string, unknown>>();
  const dropped = droppedKinds(walk);
  for (const [name, st] of walk.states) {
    const entities = [...st.lastKnown.values()];
    if (entities.length === 0) continue;
    const fields = new Map<string, unknown>();
    for (const k of Object.keys(entities[0]!)) {
      if (k === st.col.idField || confirmed.get(name)?.has(k)) continue;
      if (!entities.every((e) => Object.hasOwn(e, k))) continue;
      const values = entities.map((e) => e[k]);
      if (values.some((v) => dropped.has(valueKind(v) ?? ""))) continue;
      const empty = [...new Set(values.map((v) => JSON.stringify(v)).filter((t) => EMPTY.has(t)))];
      const kinds = new Set(
        values.filter((v) => v !== null).map((v) => (Array.isArray(v) ? "list" : typeof v)),
      );
      const kind = kinds.size === 1 ? [...kinds][0] : undefined;
      fields.set(
        k,
        empty.length === 1 ? JSON.parse(empty[0]!) : kind === "list" ? [] : kind === "boolean" ? false : null,
      );
    }
    if (fields.size > 0) out.set(name, fields);
  }
  return out;
}

/** The kind of a value, as an app drops or fills unset fields by kind: a list, an object, or a scalar. */
function valueKind(v: unknown): "list" | "object" | "scalar" | null {
  return v === null ? null : Array.isArray(v) ? "list" : typeof v === "object" ? "object" : "scalar";
}

/**
 * The kinds of field the app drops when a create leaves them unset: an entity a confirmed create wrote lacks a
 * top-level field another entity of its collection holds a value of that kind in.
 */
function droppedKinds(walk: WalkResult): Set<string> {
  const out = new Set<string>();
  for (const w of walk.writes) {
    if (w.target.kind !== "create" || w.result !== "confirmed" || w.id === null) continue;
    const st = walk.states.get(w.target.collection.name);
    const made = st?.lastKnown.get(w.id);
    if (!st || !made) continue;
    for (const [id, e] of st.lastKnown) {
      if (id === w.id) continue;
      for (const [k, v] of Object.entries(e)) {
        const kind = valueKind(v);
        if (kind !== null && !Object.hasOwn(made, k)) out.add(kind);
      }
    }
  }
  return out;
}

/**
 * Per collection, the top-level fields that name a kind of entity: every entity the recording showed holding one is
 * a short token or a boolean there, and two or more entities share a value (`type: file` of several files). A
 * request value a create's fields depend on must be one of these (request-cases.ts): a title or a name, unique per
 * entity, is no kind the app answers by.
 */
function categoryFields(walk: WalkResult): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const [name, st] of walk.states) {
    const entities = [...st.lastKnown.values()];
    const keys = new Set(entities.flatMap((e) => Object.keys(e)));
    const fields = new Set<string>();
    for (const k of keys) {
      const values = entities.filter((e) => Object.hasOwn(e, k)).map((e) => e[k]);
      if (!values.every(isKindValue)) continue;
      if (new Set(values.map((v) => String(v))).size < values.length) fields.add(k);
    }
    if (fields.size > 0) out.set(name, fields);
  }
  return out;
}

/**
 * The plain value a confirmed encoding read teaches (encoded-reads.ts) of an entity the state still holds as it was
 * then: every field it fills null now (lists hide it), every other field as that read answered it.
 */
function takeEncodedReads(st: CollectionState, held: ReadonlyMap<Observation, Entity | null>): void {
  for (const [o, plain] of plainFromEncodedReads(st.col.item!, st.col.itemEnvelope, held)) {
    const id = st.idOf(plain);
    const now = id === null ? undefined : st.entities.get(id);
    const then = held.get(o);
    if (!now || !then) continue;
    const filled = Object.keys(plain).filter((k) => then[k] === null);
    const same = Object.keys(plain).every((k) =>
      filled.includes(k) ? now[k] === null : JSON.stringify(now[k]) === JSON.stringify(plain[k]),
    );
    if (same && Object.keys(now).length === Object.keys(plain).length) st.entities.set(id!, plain);
  }
}

/**
 * The collection's item-read query rules under a walk: its confirmed projections (`?content=0`), and the parameters
 * that assert a field of the entity (`?type=file`), judged beside those projections.
 */
function itemQueryRules(st: CollectionState, walk: WalkResult, ordered: readonly Observation[]) {
  const item = st.col.item;
  const projections = item ? learnItemProjections(item, st.col.itemEnvelope, walk.itemQueries) : [];
  const assertions = item
    ? learnItemAssertions(item, st.col.itemEnvelope, {
        held: walk.itemQueries,
        ordered,
        projections,
        ...(st.col.missStatuses ? { missStatuses: st.col.missStatuses } : {}),
      })
    : [];
  return { projections, assertions };
}

/** The top-level fields a confirmed update of the collection changed: its entity before against its read-back. */
function updatedFields(writes: WalkResult["writes"], collection: string): Set<string> {
  const out = new Set<string>();
  for (const w of writes) {
    if (w.target.collection.name !== collection || w.result !== "confirmed") continue;
    if (w.target.kind === "create" || w.target.kind === "delete" || !w.pre || !w.readBack) continue;
    for (const [k, v] of Object.entries(w.readBack))
      if (k in w.pre && JSON.stringify(w.pre[k]) !== JSON.stringify(v)) out.add(k);
  }
  return out;
}

/** The collections as the walk left them: their models, seed entities, id sequences, and the reads state serves. */
function collectionStates(walk: WalkResult, ordered: readonly Observation[]) {
  const collections: Collection[] = [];
  const stateServed = new Set<Observation>();
  const seed: SeedState = { collections: {} };
  const idSequences: Record<string, number> = {};
  const hidden = hiddenPointers(walk.writes);
  for (const st of [...walk.states.values()].sort(byName((s) => s.col.name))) {
    if (st.col.item) takeEncodedReads(st, walk.itemQueries);
    const m = collectionModel(st, walk.queries, walk.refusedQueries, updatedFields(walk.writes, st.col.name));
    const { projections, assertions } = itemQueryRules(st, walk, ordered);
    if (projections.length > 0) m.collection.item_projections = projections;
    if (assertions.length > 0) m.collection.item_assertions = assertions;
    if (
      st.col.item &&
      itemFieldsConfirmed(m.collection.query, st.col.item, st.col.itemEnvelope, walk.itemQueries)
    )
      m.collection.item_query_fields = true;
    // No item read of an unknown id was recorded: a write's recorded miss answers writes (write-misses.ts).
    const wnf = m.collection.not_found === null ? writeNotFound(st, walk.refused.keys()) : null;
    if (wnf) {
      m.collection.write_not_found = wnf.answer;
      if (wnf.id !== null) m.collection.write_not_found_id = wnf.id;
    }
    const partial = [...st.unknownFields]
      .filter(([id]) => st.entities.has(id))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    if (partial.length > 0)
      m.collection.unknown_fields = Object.fromEntries(partial.map(([id, f]) => [id, [...f].sort()]));
    const { explain, ...rest } = m.collection;
    // The scope the twin keeps for entities that name no parent is never shown (collections.ts `impliedScope`).
    const implied = st.col.parent?.implied ? [`/${st.col.parent.field}`] : [];
    const found = [...(hidden.get(st.col.name) ?? []), ...implied];
    const h = found.length > 0 ? found : undefined;
    collections.push(h ? { ...rest, hidden: h, explain } : m.collection);
    for (const o of m.stateServed) stateServed.add(o);
    // An entity known only from reads lacks what only writes show: filled where every write answer tells it.
    const defaults = h
      ? hiddenDefaults(
          walk.writes.filter((w) => w.target.collection.name === st.col.name),
          h,
        )
      : [];
    seed.collections[st.col.name] = [...st.scopes.keys()].flatMap((scope) =>
      defaults.length > 0 ? st.list(scope).map((e) => withHiddenDefaults(e, defaults)) : st.list(scope),
    );
    if (st.col.idKind === "int") idSequences[st.col.name] = (st.maxInt ?? 0) + 1;
  }
  return { collections, stateServed, seed, idSequences };
}

/** Every read the state does not serve, in time order, and a keyed sign-in's answers, replayed by path and query. */
function replayedReads(
  ordered: Observation[],
  found: FoundCollection[],
  stateServed: Set<Observation>,
  signIns: Map<EndpointGroup, SignInKey>,
  embeds: Map<Observation, FoundEmbed[]>,
  writes: WriteObservation[],
  at: ReadonlyMap<Observation, number>,
  states: ReadonlyMap<string, CollectionState>,
) {
  const stateGroups = new Set(found.flatMap((c) => (c.item ? [c.list, c.item] : [c.list])));
  // A keyed sign-in also replays the app's refusals: the answer to a user the recording never signed in.
  const all = ordered.filter((o) =>
    signIns.has(o.endpoint)
      ? signedIn(o) || signIns.get(o.endpoint)!.refusals.includes(o)
      : !isWriteMethod(o.method) && !(stateGroups.has(o.endpoint) && stateServed.has(o)),
  );
  // A read a later recorded write made out of date is no answer of the state a fresh twin starts from.
  const candidates = all.filter((o) => !signIns.has(o.endpoint));
  const gone = (collection: string, id: string) => {
    const st = states.get(collection);
    return st !== undefined && st.lastKnown.has(id) && !st.entities.has(id);
  };
  const shown = (o: Observation) => shownEntities(o, found, embeds.get(o) ?? []);
  const stale = staleReads(candidates, shown, writes, at, gone);
  const reads = all.filter((o) => !stale.has(o));
  const replays = buildReplays(reads, (o) => {
    const key = signIns.get(o.endpoint);
    return key ? signInMatch(key, o) : undefined;
  });
  return { replays: withEmbeds(replays, reads, embeds, signIns), stale: staleEntries(stale, reads) };
}

/** The dropped stale reads no kept read of the same request replaces, one per request (its first reason), sorted. */
function staleEntries(
  stale: ReadonlyMap<Observation, StaleReason>,
  kept: readonly Observation[],
): NonNullable<Model["stale_replays"]> {
  const keyOf = (o: Observation) => `${o.method} ${o.pathAndQuery}`;
  const keptKeys = new Set(kept.map(keyOf));
  const out = new Map<string, NonNullable<Model["stale_replays"]>[number]>();
  for (const [o, why] of stale) {
    const key = keyOf(o);
    if (keptKeys.has(key) || out.has(key)) continue;
    out.set(key, {
      method: o.method,
      path_and_query: o.pathAndQuery,
      tool_name: o.endpoint.toolName,
      collection: why.collection,
      id: why.id,
      write: why.write ? `${why.write.method} ${why.write.pathAndQuery}` : null,
    });
  }
  return [...out.values()].sort((a, b) => {
    const x = `${a.method} ${a.path_and_query}`;
    const y = `${b.method} ${b.path_and_query}`;
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

/** Each replay with the entities its answers embed (embedded-reads.ts); a sign-in's answers embed none. */
function withEmbeds(
  replays: Replay[],
  reads: Observation[],
  embeds: Map<Observation, FoundEmbed[]>,
  signIns: Map<EndpointGroup, SignInKey>,
): Replay[] {
  const byKey = new Map<string, FoundEmbed[][]>();
  for (const o of reads) {
    const found = embeds.get(o);
    if (!found || signIns.has(o.endpoint)) continue;
    const key = `${o.method} ${o.pathAndQuery}`;
    appendTo(byKey, key, found);
  }
  return replays.map((r) => {
    const answers = byKey.get(`${r.method} ${r.path_and_query}`);
    const found = answers ? replayEmbeds(answers, `${r.method} ${r.path_and_query}`) : [];
    return found.length > 0 ? { ...r, embeds: found } : r;
  });
}

/** The Endpoint model of every group, with the request schemas the served rules widen. */
function endpointModels(
  groups: EndpointGroup[],
  found: FoundCollection[],
  targets: Map<string, WriteTarget>,
  judged: Map<EndpointGroup, WriteJudgement>,
  rules: Map<EndpointGroup, WriteRule>,
  signIns: Map<EndpointGroup, SignInKey>,
  acknowledged: Map<EndpointGroup, Acknowledged>,
): Endpoint[] {
  const colByGroup = new Map<EndpointGroup, FoundCollection>();
  for (const c of found) {
    colByGroup.set(c.list, c);
    if (c.item) colByGroup.set(c.item, c);
  }
  const verdict = (g: EndpointGroup): { rule: WriteRule | null; withheld: Withheld | null } | null => {
    const j = judged.get(g);
    if (!j) return null;
    return { rule: rules.get(g) ?? null, withheld: acknowledged.has(g) ? null : j.withheld };
  };
  const endpoints = groups.map((g) =>
    endpointModel(
      g,
      colByGroup.get(g) ?? null,
      targets.get(g.key) ?? null,
      verdict(g),
      signIns.get(g) ?? null,
      acknowledged.get(g) ?? null,
    ),
  );
  widenRequestSchemas(endpoints, [...rules.values()]);
  return endpoints;
}

/** Endpoints of confirmed count reads are served from the state of the collection they count. */
function countEndpoints(endpoints: Endpoint[], counted: LearnedCount[]): Endpoint[] {
  const byTool = new Map(counted.map((k) => [k.count.tool_name, k]));
  return endpoints.map((e) => {
    const k = byTool.get(e.tool_name);
    return k ? { ...e, collection: k.collection, serving: "state", explain: k.count.explain } : e;
  });
}

/**
 * A document write's request schema with each field it was shown to store beyond those it was sent (its own
 * `settable_by`, singletons.ts) typed by the value the document holds: a value of another type is refused, never
 * stored (the recording never showed the app taking one).
 */
function typedSettable(e: Endpoint, rule: WriteRule, doc: Entity): Endpoint["request_schema"] {
  const schema = e.request_schema as { type?: unknown; properties?: Record<string, unknown> } | null;
  if (schema?.type !== "object") return e.request_schema;
  const own = `${e.method} ${e.template}`;
  const added: Record<string, unknown> = {};
  for (const f of rule.fields) {
    const type = scalarType(doc[f.field]);
    if (f.rule.kind === "from_request" && f.rule.settable_by === own && type && !schema.properties?.[f.field])
      added[f.field] = { type };
  }
  if (Object.keys(added).length === 0) return e.request_schema;
  const properties = { ...(schema.properties ?? {}), ...added };
  return {
    ...schema,
    properties: Object.fromEntries(
      Object.keys(properties)
        .sort()
        .map((k) => [k, properties[k]]),
    ),
  } as Endpoint["request_schema"];
}

/** Endpoints of singleton documents: the read at the fixed path from state, and the writes there it serves. */
function singletonEndpoints(endpoints: Endpoint[], singletons: LearnedSingleton[]): Endpoint[] {
  const byTool = new Map<string, (e: Endpoint) => Endpoint>();
  for (const d of singletons) {
    const name = d.collection.name;
    byTool.set(d.read.toolName, (e) => ({
      ...e,
      kind: "item",
      collection: name,
      serving: "state",
      explain: `${e.method} ${e.template} reads the ${name} document from state (a singleton: no list shows it).`,
    }));
    for (const [g, v] of d.writes)
      byTool.set(g.toolName, (e) => ({
        ...e,
        kind: g.method === "PUT" ? "update" : "patch",
        collection: name,
        ...(v.rule ? { serving: "state" as const, withheld: null, explain: v.rule.explain } : {}),
        ...(v.rule ? { request_schema: typedSettable(e, v.rule, d.seed) } : {}),
      }));
  }
  return byTool.size === 0 ? endpoints : endpoints.map((e) => byTool.get(e.tool_name)?.(e) ?? e);
}

/**
 * The walk, taken once more when some write names its entities by a query (`PATCH /articles?id=eq.3`): the walk
 * before (with the page sizes it kept) learns each collection's query rules from its reads (writes change no read
 * of the walk's state), the last selects each such write's entities by those rules, so its read-back judges them
 * entity by entity. Returned with a walk of any first part of the recording taken alike (`until`): the state the
 * walk had reached just before an observation.
 */
function walkWithQueryWrites(
  ordered: Observation[],
  found: FoundCollection[],
  targets: Map<string, WriteTarget>,
  walked: Walked,
): { walk: WalkResult; until: (prefix: Observation[]) => WalkResult } {
  const resolve = queryResolver(targets, walked.walk);
  const until = (prefix: Observation[]) =>
    walkState(prefix, found, targets, walked.sizes, resolve, walked.orderings, walked.asserted);
  return { walk: resolve === null ? walked.walk : until(ordered), until };
}

/** The selection of a write by query under its collection's query rules the walk learned, or null when none is. */
function queryResolver(targets: Map<string, WriteTarget>, first: WalkResult): QueryResolver | null {
  const byQuery = new Set([...targets.values()].flatMap((t) => (t.filter ? [t.collection.name] : [])));
  if (byQuery.size === 0) return null;
  const rules = new Map<string, Collection["query"]>();
  for (const name of byQuery) {
    const st = first.states.get(name);
    if (st) rules.set(name, collectionModel(st, first.queries, first.refusedQueries).collection.query);
  }
  return (col, rows, query) => {
    // The query as it is, else under the first prefix of the collection's rules it reads in whole (LoopBack's
    // `PATCH /todos?where=…` beside lists read by `filter[where]…`): a hypothesis the write's read-backs and the
    // entities it left alone then confirm or refute, as for any selection.
    const q = rules.get(col.name);
    let first: Exclude<ReturnType<typeof queryTargets>, { rows: Entity[] }> | null = null;
    for (const prefix of queryPrefixes(q)) {
      const got = queryTargets(q, rows, query, col.idField, prefix);
      if (!("why" in got)) return { ids: got.rows.map((e) => String(e[col.idField])), prefix };
      if (first === null || (first.why === "unlearned" && got.why !== "unlearned")) first = got;
    }
    return first!;
  };
}

/** A walk, with the page sizes and sort rules a walk before it confirmed (taken as whole lists in it). */
interface Walked {
  walk: WalkResult;
  sizes: ReadonlyMap<string, ReadonlySet<string>>;
  orderings: ReadonlyMap<string, OrderingQuery>;
  /** The item-read assertions a walk before confirmed (`walkAgainWithAssertions`); absent: none taken. */
  asserted?: AssertedParams;
}

/** Per collection, its own confirmed sort rules under a walk's reads (`whole-reads.ts`). */
function orderingsOf(walk: WalkResult): Map<string, OrderingQuery> {
  const out = new Map<string, OrderingQuery>();
  for (const st of walk.states.values()) {
    const q = orderingQuery(collectionModel(st, walk.queries, walk.refusedQueries).collection.query);
    if (q) out.set(st.col.name, q);
  }
  return out;
}

/**
 * The walk again, once the walk before confirmed a sort of some collection: its reads that only sort are then whole
 * lists (`whole-reads.ts`), and the reads of their run before them are judged. Kept only when the new walk's rules
 * confirm every such sort (the same parameter path) still; else the walk before stands.
 */
function walkAgainWithOrderings(
  ordered: Observation[],
  found: FoundCollection[],
  targets: Map<string, WriteTarget>,
  walked: Walked,
): Walked {
  const orderings = orderingsOf(walked.walk);
  if (orderings.size === 0) return walked;
  const second = walkState(ordered, found, targets, walked.sizes, null, orderings);
  const again = orderingsOf(second);
  const paths = (q: OrderingQuery | undefined) =>
    new Set((q?.rules ?? []).map((r) => JSON.stringify(r.path)));
  const kept = [...orderings].every(([c, q]) => {
    const still = paths(again.get(c));
    return [...paths(q)].every((p) => still.has(p));
  });
  return kept ? { ...walked, walk: second, orderings } : walked;
}

/** Per collection, the item-read parameters a walk's reads confirm as assertions, with the fields each asserts. */
function assertionsOf(
  walk: WalkResult,
  ordered: readonly Observation[],
): Map<string, Map<string, readonly string[]>> {
  const out = new Map<string, Map<string, readonly string[]>>();
  for (const st of walk.states.values()) {
    const { assertions } = itemQueryRules(st, walk, ordered);
    if (assertions.length > 0) out.set(st.col.name, assertedParams(assertions));
  }
  return out;
}

/**
 * The walk again, once the walk before confirmed item-read parameters as assertions (`?type=directory` answers the
 * entity as the plain read does where its field equals the value): a read whose every parameter is one, holding
 * there, is then taken in as the plain item read (a folder's children it shows are its whole list, so an id it
 * listed is known). Kept only when the new walk's reads confirm every such parameter still, asserting the same
 * fields; else the walk before stands.
 */
function walkAgainWithAssertions(
  ordered: Observation[],
  found: FoundCollection[],
  targets: Map<string, WriteTarget>,
  walked: Walked,
): Walked {
  const asserted = assertionsOf(walked.walk, ordered);
  if (asserted.size === 0) return walked;
  const second = walkState(ordered, found, targets, walked.sizes, null, walked.orderings, asserted);
  const again = assertionsOf(second, ordered);
  const kept = [...asserted].every(([c, params]) =>
    [...params].every(([p, fields]) => JSON.stringify(again.get(c)?.get(p)) === JSON.stringify(fields)),
  );
  return kept ? { ...walked, walk: second, asserted } : walked;
}

/** The end of the last timed record (start + duration), where the episode clock starts; null when untimed. */
function lastTime(evidence: Evidence): number | null {
  let last: number | null = null;
  for (const r of evidence.records)
    if (r.started_at !== null) last = Math.max(last ?? 0, Math.round(r.started_at + (r.duration_ms ?? 0)));
  return last;
}

/**
 * The walk again, once the first one's rules confirmed a page-size parameter of a collection answering with cursors
 * (`pageSizeParams`): its reads setting only a page size, and cursor chains from them, are then whole lists. Kept
 * only when the second walk's rules confirm those parameters still; else the first walk stands.
 */
function walkAgainWithPageSizes(
  ordered: Observation[],
  found: FoundCollection[],
  targets: Map<string, WriteTarget>,
  first: WalkResult,
): Walked {
  const none = { walk: first, sizes: new Map<string, ReadonlySet<string>>(), orderings: new Map() };
  const sizes = pageSizeParams(first.states.values(), first.queries, first.refusedQueries);
  if (sizes.size === 0) return none;
  const second = walkState(ordered, found, targets, sizes);
  const again = pageSizeParams(second.states.values(), second.queries, second.refusedQueries);
  const kept = [...sizes].every(([c, names]) => [...names].every((n) => again.get(c)?.has(n)));
  return kept ? { walk: second, sizes, orderings: new Map() } : none;
}

/** Learns the model and seed state from one (merged) evidence. */
export function learn(
  evidence: Evidence,
  options: Partial<LearnOptions> & { infer?: boolean } = {},
): Learned {
  const { infer = true, ...rest } = options;
  const opts = { ...DEFAULT_LEARN_OPTIONS, ...rest };
  const selected = selectApiRecords(evidence);
  const warnings = [...selected.warnings];
  // Cache-busters first: a recording whose every read carries `_=<now>` still has plain lists (query-cache-busters.ts).
  const busters = findCacheBusters(selected.api);
  const indexed = indexEndpoints(withoutCacheBusters(selected.api, busters));
  const { groups } = indexed;
  // Reads a request header renders otherwise (`Accept: …v2+json`) are learned apart, as a rendering of the collection
  // the other reads show (header-variants.ts).
  const split = findHeaderSplit(groups);
  const parted = split
    ? splitVariantReads(groups, indexed.observations, split)
    : { variantReads: [] as Observation[], observations: indexed.observations };
  const found = findCollections(groups, warnings);
  // Only a collection's reads are renderings of it: the others go back to their routes (replayed, keyed on it).
  const { variantReads, observations } = keepCollectionVariants(parted, found);
  const targets = findWriteTargets(groups, found);
  const ordered = timeOrder(observations);
  const { walk, until } = walkWithQueryWrites(
    ordered,
    found,
    targets,
    walkAgainWithAssertions(
      ordered,
      found,
      targets,
      walkAgainWithOrderings(
        ordered,
        found,
        targets,
        walkAgainWithPageSizes(ordered, found, targets, walkState(ordered, found, targets)),
      ),
    ),
  );
  // A sign-in touches no collection: it is replayed (its successful answers), never judged as a write.
  const ambient = ambientCookies(groups);
  const signIns = new Map<EndpointGroup, SignInKey>(
    groups.filter((g) => !targets.has(g.key) && isSignIn(g, ambient)).map((g) => [g, signInKey(g)]),
  );
  const session = sessionIdentities(groups, found).map((s) => ({ id: s.id, strings: s.strings }));
  const defaults = untouchedDefaults(walk);
  const guesses = unconfirmedDefaults(walk, defaults);
  const seen = new Map(found.map((c) => [c.name, sightings(c, ordered, targets)]));
  const derived = new Map(found.map((c) => [c.name, derivedFields(c, seen.get(c.name)!)]));
  const tables = new Map(found.map((c) => [c.name, referenceTables(seen.get(c.name)!)]));
  const categories = categoryFields(walk);
  // The routes served for one query only (query-variants.ts): their observations of that query.
  const queryServed = new Map<EndpointGroup, EndpointGroup>();
  const moreVariants = new Map<EndpointGroup, ServedVariant[]>();
  const judged = judgeWrites(
    groups,
    targets,
    walk.writes,
    signIns,
    { ...opts, session, defaults, guesses, derived, categories, tables },
    warnings,
    queryServed,
    moreVariants,
  );
  const acknowledged = acknowledgeWrites(judged, ordered, found);
  // Writes at a fixed path no collection explains may change a singleton document read there (singletons.ts).
  const unexplained = new Map(
    [...judged].flatMap(([g, j]) =>
      j.withheld?.reason === "no_collection" && !acknowledged.has(g) ? [[g, j.withheld] as const] : [],
    ),
  );
  const singletons = learnSingletons(groups, unexplained, found, ordered, { ...opts, session });
  for (const d of singletons)
    for (const [g, v] of d.writes)
      judged.set(g, {
        ...(v.rule ? { draft: v.rule, withheld: null } : { draft: null, withheld: v.withheld }),
        warnings: [],
      });
  // What each update met of the other entities: the walk up to it, taken only for the updates a refusal asks about.
  const othersBefore = othersBeforeUpdates(ordered, targets, until);
  const validations = groups
    .filter((g) => isWriteMethod(g.method))
    .flatMap((g) =>
      learnValidations(g, {
        refused: walk.refused,
        writes: walk.writes.filter((w) => w.obs.endpoint === g),
        othersBefore,
      }),
    );
  const states = collectionStates(walk, ordered);
  const { stateServed, seed, idSequences } = states;
  // Query meanings a sibling collection confirmed, labelled inferred (inferred-queries.ts); none with infer: false.
  const collections = infer
    ? inferSiblingQueries(states.collections, siblingInputs(found, walk.queries, seed))
    : states.collections;
  // Entity tags item reads send, and the stale If-Match refusals they explain (etag-rules.ts).
  for (const c of collections) {
    const col = found.find((f) => f.name === c.name);
    const etag = col ? learnEtag(col) : null;
    if (!etag) continue;
    c.etag = etag;
    for (const g of groups) {
      const t = targets.get(g.key);
      if (!t || t.collection !== col || t.kind === "create") continue;
      const stale = learnStaleIfMatch(g, etag, walk.refused, walk.writes);
      if (stale) validations.push(stale);
    }
  }
  for (const d of singletons) {
    collections.push(d.collection);
    seed.collections[d.collection.name] = [d.seed];
  }
  collections.sort(byName((c) => c.name));
  const variants = split ? learnVariants(split, variantReads, found, collections, ordered) : null;
  for (const c of collections) {
    const v = variants?.variants.get(c.name);
    if (v) c.variants = v;
  }
  const counted = learnCountReads(groups, collections, walk.countReads);
  for (const k of counted) {
    const c = collections.find((x) => x.name === k.collection)!;
    c.counts = [...(c.counts ?? []), k.count];
  }

  const drafted: ServedWrite[] = [...judged].flatMap(([group, j]) =>
    j.draft && targets.has(group.key)
      ? [
          {
            group,
            target: targets.get(group.key)!,
            rule: j.draft,
            ...(queryServed.has(group) ? { variant: queryServed.get(group)! } : {}),
            ...(moreVariants.has(group) ? { siblings: true as const } : {}),
          },
        ]
      : [],
  );
  // Collections one counter numbers (a create proved it): each draws from it, its updates' nested ids too.
  const served = withSharedSequences(
    drafted,
    walk.writes.flatMap((w) =>
      w.target.kind === "create" && w.result === "confirmed"
        ? [
            {
              collection: w.target.collection.name,
              id: w.id,
              maxIntBefore: w.maxIntBefore,
              otherMaxBefore: w.otherMaxBefore,
            },
          ]
        : [],
    ),
  );
  const targeted: TargetedWrite[] = groups.flatMap((g) =>
    targets.has(g.key) ? [{ group: g, target: targets.get(g.key)! }] : [],
  );
  const sequences = sequenceStarts(served, idSequences, (c) => walk.states.get(c)?.lastKnown.values() ?? []);
  const known = apiWords(
    groups.map((g) => g.template),
    evidence.app_origin,
  );
  // How the app numbers a create after its highest entity was deleted, decided in any collection (one database).
  const confirmedCreates = walk.writes.filter((w) => w.target.kind === "create" && w.result === "confirmed");
  const policy = reusePolicy(
    confirmedCreates.map((w) => ({
      collection: w.target.collection.name,
      id: w.id,
      maxIntBefore: w.maxIntBefore,
      maxPresentBefore: w.maxPresentBefore,
    })),
  );
  // The other served variants of a route, each assembled in its place (its own query guards it).
  const others: ServedWrite[] = [...moreVariants].flatMap(([group, vs]) =>
    vs.map((v) => ({
      group,
      target: targets.get(group.key)!,
      rule: v.judgement.draft!,
      variant: v.group,
      siblings: true as const,
    })),
  );
  const rules = assembleWriteRules(served, targeted, sequences, known, policy, others);
  for (const [group, vs] of moreVariants) {
    const main = rules.get(group);
    if (!main) continue;
    const rest = served.filter((w) => w.group !== group);
    const extra = others
      .filter((w) => w.group === group)
      .map((w) => assembleWriteRules([...rest, w], targeted, sequences, known, policy, others).get(group)!);
    rules.set(
      group,
      withQueryVariants(group, [queryServed.get(group)!, ...vs.map((v) => v.group)], [main, ...extra]),
    );
  }
  for (const d of singletons) for (const [g, v] of d.writes) if (v.rule) rules.set(g, v.rule);
  const recorded = singletonEndpoints(
    countEndpoints(endpointModels(groups, found, targets, judged, rules, signIns, acknowledged), counted),
    singletons,
  );
  // Item routes inferred from a sibling's confirmed pair, labelled so (inferred-routes.ts); none with infer: false.
  // Not-found answers every sibling recorded alike, labelled so (inferred-not-found.ts); none with infer: false.
  const inferred = infer
    ? inferItemRoutes(inferNotFound(collections, recorded), recorded)
    : { collections, endpoints: recorded };
  const endpoints = inferred.endpoints;
  requireValidatedFields(endpoints, validations);
  const unrecorded = findUnrecordedBodies(groups);
  warnings.push(...unrecorded.warnings);

  const credentialRefusals = learnCredentialRefusals(groups, (g) => signIns.has(g));
  const required = learnCredentialRequirements(groups, (g) => signIns.has(g), credentialRefusals);
  const refusedBodies = learnRefusedBodies(groups, (g) => signIns.has(g));
  const replayed = replayedReads(
    ordered.filter(
      (o) => !counted.some((k) => k.explained.includes(o)) && !singletons.some((d) => d.served.has(o)),
    ),
    found,
    stateServed,
    signIns,
    walk.embeds,
    walk.writes,
    new Map(ordered.map((o, i) => [o, i])),
    walk.states,
  );
  const model: Model = {
    schema_version: MODEL_SCHEMA_VERSION,
    app_origin: evidence.app_origin,
    endpoints,
    collections: inferred.collections,
    write_rules: [...rules.values()].sort(byName((r) => r.tool_name)),
    replays: ((replays) =>
      split
        ? withVariantReplays(
            replays,
            variantReads.filter((o) => !variants?.served.has(o)),
            split,
          )
        : replays)(replayed.replays),
    ...(replayed.stale.length > 0 ? { stale_replays: replayed.stale } : {}),
    clock: { last_time_ms: lastTime(evidence), step_ms: CLOCK_STEP_MS },
    id_sequences: sequences,
    validations: validations.sort((a, b) =>
      a.tool_name !== b.tool_name
        ? a.tool_name < b.tool_name
          ? -1
          : 1
        : a.field < b.field
          ? -1
          : a.field > b.field
            ? 1
            : 0,
    ),
    acknowledged: [...acknowledged.values()].sort(byName((a) => a.tool_name)),
    auth: learnAuth(groups),
    examples: operationExamples(groups),
    unrecorded_bodies: unrecorded.unrecorded,
    body_refusals: learnBodyRefusals(groups),
    credential_refusals: credentialRefusals,
    ...(required.length > 0 ? { credentials_required: required } : {}),
    ...(refusedBodies.length > 0 ? { refused_bodies: refusedBodies } : {}),
    ...(busters.length > 0 ? { cache_busters: busters } : {}),
  };
  return {
    model,
    seed,
    counts: {
      records: evidence.records.length,
      api_records: selected.api.length,
      assets: selected.assets,
      ignored: selected.ignored,
    },
    warnings,
  };
}
