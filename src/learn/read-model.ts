/**
 * The read side of the model: each collection's list order, confirmed
 * filters and pagination, and not-found answer; and the replays, exact
 * method + path + query with the recorded answers in order, for every read
 * the state cannot serve.
 */

import { isBranchAt } from "../model/filter-groups.js";
import type {
  CannedResponse,
  Collection,
  Entity,
  QueryDomain,
  QuerySegment,
  Replay,
  ReplayBody,
  ReplayResponse,
} from "../model/model-schema.js";
import { fitsIdKind, namesId, renameId } from "../model/not-found.js";
import { type QueryLeaf, queryLeaves, sortEntities } from "../model/query-language.js";
import { keepsWhole, planQuery, runQueryPlan } from "../model/query-plan.js";
import { appendTo } from "../util/append-to.js";
import { isCredentialHeader } from "../util/credential-name.js";
import type { CollectionState } from "./collection-state.js";
import type { FoundCollection } from "./collections.js";
import type { Observation } from "./endpoint-index.js";
import { confirmEnvelopeParam, findEnvelopeParam, withoutParam } from "./envelope-params.js";
import { explainCollection } from "./explain.js";
import type { CursorLeaf } from "./query-cursor.js";
import { learnQueryDomains, type PageStand } from "./query-domains.js";
import type { QueryRead } from "./query-hypotheses.js";
import { type LearnedQuery, learnQueryRules, type RecordedQueryRead } from "./query-rules.js";
import { localPath, redirectTarget } from "./redirect-location.js";
import { learnEnvelopeFields, learnLinkHeader, learnTotalHeaders } from "./total-headers.js";
import { readTime } from "./value-kinds.js";

const bodyKeys = (o: Observation) =>
  o.response.kind === "json" &&
  o.response.value !== null &&
  typeof o.response.value === "object" &&
  !Array.isArray(o.response.value)
    ? Object.keys(o.response.value)
    : [];
/** The top-level keys any plain list answer (no query) held. */
function envelopeKeys(plain: Observation[]): Set<string> {
  return new Set(plain.filter((o) => o.status >= 200 && o.status < 300).flatMap(bodyKeys));
}
/**
 * True when a query read's answer holds no top-level key the plain lists never held: a parameter that adds one
 * (`meta=total_count` answering `{data, meta}` beside `{data}`) changed the answer's shape, which no query rule
 * renders, so such a read explains nothing (it is replayed, and its parameters stay unlearned).
 */
function sameEnvelope(o: Observation, plainKeys: Set<string>): boolean {
  return plainKeys.size === 0 || bodyKeys(o).every((k) => plainKeys.has(k));
}

type Query = NonNullable<Collection["query"]>;

/**
 * The collection's query language, with the parameter that adds envelope keys (envelope-params.ts) when the reads
 * confirm one: its reads are learned from with it taken out, and each of its values becomes an `envelope` rule when
 * every read of it is explained and every leaf it adds is one of that read's counts. A value some read of it does not
 * confirm is learned again without its reads (they replay); the others' rules then stand only if re-confirmed.
 */
function learnWithEnvelopeParam(
  st: CollectionState,
  queries: Map<Observation, QueryRead>,
  plainKeys: Set<string>,
  changed: ReadonlySet<string>,
): ReturnType<typeof chooseOrder> {
  const c = st.col;
  const defaultFilter = st.defaultFilter();
  const ok = c.list.observations.filter((o) => o.status >= 200 && o.status < 300 && o.query.length > 0);
  const bodyOf = (o: Observation) => (o.response.kind === "json" ? o.response.value : undefined);
  const param = findEnvelopeParam(
    ok.map((o) => ({ query: o.query, body: bodyOf(o) })),
    plainKeys,
  );
  const sentValue = (o: Observation): string | undefined => {
    if (!param) return undefined;
    const v = o.query.find(([k]) => k === param.name)?.[1];
    return v !== undefined && param.adds.has(v) ? v : undefined;
  };
  const run = (drop: ReadonlySet<string>) => {
    const reads = c.list.observations
      .filter((o) => {
        if (!queries.has(o)) return false;
        const v = sentValue(o);
        return v === undefined ? sameEnvelope(o, plainKeys) : !drop.has(v);
      })
      .map((o) => {
        const read = queries.get(o)!;
        const leaves =
          sentValue(o) === undefined ? read.leaves : withoutParam(read.leaves, o.query, param!.name);
        return { obs: o, read: { ...read, leaves, defaultFilter } };
      });
    return chooseOrder(st, reads, changed);
  };
  if (!param) return run(new Set());
  const confirm = (learnedNow: ReturnType<typeof chooseOrder>, drop: ReadonlySet<string>) => {
    const query = { rules: learnedNow.learned.rules, default_filter: defaultFilter };
    const mine = c.list.observations.filter((o) => queries.has(o) && sentValue(o) !== undefined);
    const rejected = new Set(drop);
    for (const o of mine)
      if (!drop.has(sentValue(o)!) && !learnedNow.learned.explained.has(o)) rejected.add(sentValue(o)!);
    // A value whose reads the recording showed before any whole list (no state to judge them by) is not confirmed.
    for (const o of ok) if (sentValue(o) !== undefined && !queries.has(o)) rejected.add(sentValue(o)!);
    const kept = { ...param, adds: new Map([...param.adds].filter(([v]) => !rejected.has(v))) };
    const got = confirmEnvelopeParam(
      kept,
      mine
        .filter((o) => !rejected.has(sentValue(o)!))
        .map((o) => ({
          value: sentValue(o)!,
          body: bodyOf(o),
          leaves: withoutParam(queries.get(o)!.leaves, o.query, param.name),
          base: queries.get(o)!.base,
        })),
      query,
    );
    for (const v of got.rejected) rejected.add(v);
    return { rules: got.rules, rejected };
  };
  let learnedNow = run(new Set());
  let verdict = confirm(learnedNow, new Set());
  if (verdict.rejected.size > 0) {
    // Learned again without the reads of the values they did not confirm, which then replay.
    learnedNow = run(verdict.rejected);
    const again = confirm(learnedNow, verdict.rejected);
    if (again.rejected.size > verdict.rejected.size) {
      learnedNow = run(new Set(param.adds.keys()));
      verdict = { rules: [], rejected: new Set(param.adds.keys()) };
    } else verdict = again;
  }
  const explained = new Set(
    [...learnedNow.learned.explained].filter((o) => {
      const v = sentValue(o);
      return v === undefined || !verdict.rejected.has(v);
    }),
  );
  return {
    ...learnedNow,
    learned: { ...learnedNow.learned, rules: [...learnedNow.learned.rules, ...verdict.rules], explained },
  };
}

/**
 * The collection's query rules, learned from its reads judged against the walk's known entities (`partial`) only
 * when some read showed it whole: a plain list, a read that only sorted, or a read the rules themselves explain as
 * only sorting or changing nothing whose envelope total counts exactly what it shows (the app said nothing else
 * matched; with no total, an answer may be a page the app cut, or its no-effect reading only held for want of
 * other entities to drop). Else which entities the app
 * holds beyond those seen is unknown, so a filtered read answered from the state would be a guess: the rules are
 * learned again without those reads, which then replay or miss.
 */
function learnSeenWhole(
  st: CollectionState,
  queries: Map<Observation, QueryRead>,
  plainKeys: Set<string>,
  changed: ReadonlySet<string>,
): ReturnType<typeof chooseOrder> {
  const got = learnWithEnvelopeParam(st, queries, plainKeys, changed);
  if (st.listedScopes.size > 0 || st.sortedScopes.size > 0) return got;
  const mine = st.col.list.observations.filter((o) => queries.get(o)?.partial);
  if (mine.length === 0) return got;
  const whole = mine.some((o) => {
    const read = queries.get(o)!;
    return (
      got.learned.explained.has(o) &&
      read.answer.length > 0 &&
      read.total !== null &&
      read.total === read.answer.length &&
      changesNothing(got.learned.rules, o, true)
    );
  });
  if (whole) return got;
  const judged = new Map([...queries].filter(([, r]) => !r.partial));
  return learnWithEnvelopeParam(st, judged, plainKeys, changed);
}

/** The collection's model and which of its list reads the state serves. */
export function collectionModel(
  st: CollectionState,
  queries: Map<Observation, QueryRead>,
  refusedQueries: ReadonlyMap<Observation, Entity[] | null> = new Map(),
  /** The top-level fields a confirmed update of the collection changed (list-order tie-break). */
  changed: ReadonlySet<string> = new Set(),
): {
  collection: Collection;
  stateServed: Set<Observation>;
} {
  const c = st.col;
  const defaultFilter = st.defaultFilter();
  const plainKeys = envelopeKeys(c.list.observations.filter((o) => o.query.length === 0));
  const { order: pick, learned, also } = learnSeenWhole(st, queries, plainKeys, changed);
  const { filters, pagination } = learned;
  const stateServed = new Set<Observation>();
  for (const o of c.list.observations)
    if (o.query.length === 0 || learned.explained.has(o)) stateServed.add(o);
  if (c.item) for (const o of c.item.observations) if (o.query.length === 0) stateServed.add(o);
  const orderShown =
    st.listedScopes.size > 0 ||
    pick !== "insertion" ||
    c.list.observations.some((o) => {
      const read = queries.get(o);
      if (!read || read.partial || read.answer.length < 2 || !learned.explained.has(o)) return false;
      const planned = planQuery({ rules: learned.rules, default_filter: [] }, queryLeaves(o.query), []);
      return !("unlearned" in planned) && planned.plan.sort === null;
    });
  const [, field, dir] = pick.split(":");
  const list_order: Collection["list_order"] =
    pick === "insertion"
      ? { kind: "insertion" }
      : {
          kind: "field",
          field: field!,
          direction: dir as "asc" | "desc",
          ...(also.length > 0 ? { also: also.map((x) => x.split(":").slice(1).join(" ")) } : {}),
        };
  const totalHeaders = learnTotalHeaders(
    c.list.observations.filter((o) => stateServed.has(o)),
    queries,
    { rules: learned.rules, default_filter: defaultFilter },
    c.envelope.kind === "object" ? c.envelope.items_key : null,
  );
  const envelopeFields =
    c.envelope.kind === "object"
      ? learnEnvelopeFields(
          c.list.observations.filter((o) => stateServed.has(o)),
          queries,
          { rules: learned.rules, default_filter: defaultFilter },
          c.envelope.items_key,
          new Set([
            c.envelope.items_key,
            ...(c.envelope.total_key === null ? [] : [c.envelope.total_key]),
            ...Object.keys(c.envelope.constants),
            ...Object.keys(c.envelope.echoes ?? {}),
          ]),
        )
      : [];
  const linkHeader = learnLinkHeader(
    c.list.observations.filter((o) => stateServed.has(o)),
    queries,
    { rules: learned.rules, default_filter: defaultFilter },
    c.envelope.kind === "object" ? c.envelope.items_key : null,
  );
  const miss = new Set(c.missStatuses ?? [404, 410]);
  const misses = c.item?.observations.filter((o) => miss.has(o.status)) ?? [];
  const { notFound: nfFrom, gone } = splitMisses(misses, st.goneMisses, c.item?.params.at(-1) ?? "");
  const nf = nfFrom[0];
  const nfId = nf ? notFoundId(nfFrom, c.item!.params.at(-1)!) : null;
  const partial: Omit<Collection, "explain"> = {
    name: c.name,
    id_field: c.idField,
    ...(c.altIdFields ? { alt_id_fields: c.altIdFields } : {}),
    ...(c.listView ? { list_view: c.listView } : {}),
    id_kind: c.idKind,
    list_endpoint: c.itemOnly ? null : c.list.toolName,
    item_endpoint: c.item?.toolName ?? null,
    envelope: c.envelope,
    item_envelope: c.itemEnvelope,
    parent: c.parent?.implied ? { ...c.parent, listed: [...st.listedScopes].sort() } : c.parent,
    ...(c.tree
      ? {
          tree: {
            separator: "/",
            children_key: c.tree.childrenKey,
            ...treeRoot(c, (o) => learned.explained.has(o) && changesNothing(learned.rules, o)),
            listed: { folders: [...st.listedScopes].sort(), missing: absentIds(st, misses) },
          },
        }
      : {}),
    list_order,
    ...(orderShown || c.tree || c.itemOnly ? {} : { order_unconfirmed: true as const }),
    filters,
    pagination,
    not_found: nf ? canned(nf) : null,
    ...(nfId !== null ? { not_found_id: nfId } : {}),
    ...(gone
      ? {
          gone: gone.answer,
          ...(gone.id !== null ? { gone_id: gone.id } : {}),
          ...((ids) => (ids.length > 0 ? { gone_ids: ids } : {}))(
            [...st.everSeen].filter((id) => !st.entities.has(id)).sort(),
          ),
        }
      : {}),
    ...(unlistedOf(st, misses) ?? {}),
    ...((m) => (m ? { malformed_id: m.answer, ...(m.id !== null ? { malformed_id_id: m.id } : {}) } : {}))(
      malformedId(c),
    ),
    ...(malformedAsMissing(c) ? { malformed_id_not_found: true as const } : {}),
    ...(totalHeaders.length > 0 ? { total_headers: totalHeaders } : {}),
    ...((fields) => (fields.length > 0 ? { envelope_fields: fields } : {}))([
      ...envelopeFields,
      ...cursorFields(c.cursor),
    ]),
    ...(c.defaultLimit !== undefined ? { default_limit: c.defaultLimit } : {}),
    ...(linkHeader ? { link_header: linkHeader } : {}),
    query: {
      rules: learned.rules,
      default_filter: defaultFilter,
      ...((d) => (d.length > 0 ? { domains: d } : {}))(
        domainsOf(c.list.observations, queries, refusedQueries, {
          rules: learned.rules,
          default_filter: defaultFilter,
        }),
      ),
    },
  };
  return { collection: { ...partial, explain: explainCollection(partial) }, stateServed };
}

/**
 * Per collection answering with cursors, the one-name parameters its query rules confirm as a page size (`limit`):
 * a read setting only those lists every entity up to that size, so a second walk takes one whose answer says
 * nothing follows, or a cursor chain from it followed to its end, for the whole list of its moment (state-walk.ts).
 */
export function pageSizeParams(
  states: Iterable<CollectionState>,
  queries: Map<Observation, QueryRead>,
  refusedQueries: ReadonlyMap<Observation, Entity[] | null>,
): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const st of states) {
    if (!st.col.cursor) continue;
    const rules = collectionModel(st, queries, refusedQueries).collection.query?.rules ?? [];
    const names = rules.flatMap((r) => (r.kind === "limit" && r.path.length === 1 ? [r.path[0]!] : []));
    if (names.length > 0) out.set(st.col.name, new Set(names));
  }
  return out;
}

/** Where a read's page starts against its matches under the learned rules (null: no page, or no plan). */
function pageStand(query: Query, leaves: QueryLeaf[], base: Entity[] | null): PageStand {
  if (base === null) return null;
  const planned = planQuery(query, leaves, base.slice(0, 50));
  if ("unlearned" in planned || planned.plan.page === null) return null;
  const ran = runQueryPlan(planned.plan, base);
  if ("ambiguous" in ran) return null;
  const offset = planned.plan.offset;
  return offset === 0 ? "within" : ran.total === 0 ? "empty" : offset >= ran.total ? "past" : "within";
}

/** True when a filter rule's pattern (literal names, `{field}`, `{op}`) can spell the leaf path. */
function spells(path: QuerySegment[], leaf: string[]): boolean {
  return (
    path.length === leaf.length &&
    path.every((seg, i) =>
      "literal" in seg
        ? seg.literal === leaf[i]
        : "branch" in seg
          ? isBranchAt(leaf, i)
          : "field" in seg || "op" in seg,
    )
  );
}

/** The value domains the collection's refused list reads teach (query-domains.ts), against its accepted ones. */
function domainsOf(
  observations: Observation[],
  queries: Map<Observation, QueryRead>,
  refusedQueries: ReadonlyMap<Observation, Entity[] | null>,
  query: Query,
): QueryDomain[] {
  const refusedObs = observations.filter((o) => refusedQueries.has(o));
  if (refusedObs.length === 0) return [];
  const ok = observations.filter((o) => o.status >= 200 && o.status < 300 && o.query.length > 0);
  const accepted = ok.map((o) => {
    const leaves = queryLeaves(o.query);
    return { leaves, stand: pageStand(query, leaves, queries.get(o)?.base ?? null) };
  });
  const refused = refusedObs.map((o) => {
    const leaves = queryLeaves(o.query);
    return {
      leaves,
      answer: canned(o),
      stand: pageStand(query, leaves, refusedQueries.get(o)!),
      url: o.pathAndQuery,
    };
  });
  const separators = new Map<string, string>();
  for (const a of accepted)
    for (const l of a.leaves) {
      const rule = query.rules.find(
        (r) => r.kind === "filter" && r.list_separator !== null && !r.value_op && spells(r.path, l.path),
      );
      if (rule?.kind === "filter" && rule.list_separator !== null)
        separators.set(JSON.stringify(l.path), rule.list_separator);
    }
  const pagePaths = query.rules.flatMap((r) => (r.kind === "page" ? [r.path] : []));
  return learnQueryDomains(accepted, refused, separators, pagePaths);
}

/** The envelope leaves a cursor leaf stands for: the cursor (next or end style) and the has-next boolean. */
function cursorFields(cursor: CursorLeaf | undefined): NonNullable<Collection["envelope_fields"]> {
  if (!cursor) return [];
  return [
    {
      pointer: cursor.pointer,
      of: cursor.style === "next" ? "next_cursor" : "end_cursor",
      codec: cursor.codec,
    },
    ...(cursor.hasNext !== null ? [{ pointer: cursor.hasNext, of: "has_next" as const }] : []),
  ];
}

/**
 * True when the query rules read every parameter of the read as changing nothing (`type=directory` confirmed as no
 * effect): its answer is the plain list's; with `sorts`, in the order a sort gives.
 */
function changesNothing(rules: Query["rules"], o: Observation, sorts = false): boolean {
  const planned = planQuery({ rules, default_filter: [] }, queryLeaves(o.query), []);
  if ("unlearned" in planned) return false;
  return (sorts || planned.plan.sort === null) && keepsWhole(planned.plan);
}

/**
 * The root folder of a tree whose list answers are it (see `tree.root` in the model): every plain list answer (or
 * one whose parameters the rules confirmed change nothing, `plainLike`) an object holding the id field as "" and the
 * children under the children key. The last such answer (time order), its children emptied, or nothing.
 */
function treeRoot(c: FoundCollection, plainLike: (o: Observation) => boolean): { root?: Entity } {
  if (!c.tree || c.envelope.kind !== "object" || c.envelope.items_key !== c.tree.childrenKey) return {};
  const plain = c.list.observations.filter(
    (o) =>
      o.status >= 200 &&
      o.status < 300 &&
      (o.query.length === 0 || plainLike(o)) &&
      o.response.kind === "json",
  );
  const bodies = plain.map((o) => (o.response.kind === "json" ? o.response.value : undefined));
  const isRoot = (b: unknown) =>
    b !== null && typeof b === "object" && !Array.isArray(b) && (b as Entity)[c.idField] === "";
  if (bodies.length === 0 || !bodies.every(isRoot)) return {};
  const at = (o: Observation) => o.time ?? Number.NEGATIVE_INFINITY;
  let last = 0;
  plain.forEach((o, i) => {
    if (at(o) > at(plain[last]!) || (at(o) === at(plain[last]!) && o.index > plain[last]!.index)) last = i;
  });
  return { root: { ...(bodies[last] as Entity), [c.tree.childrenKey]: [] } };
}

/** Two misses answer alike: the same status, content type and body once the id each names is the other's. */
export function sameMiss(a: Observation, b: Observation, idParam: string): boolean {
  const x = canned(a);
  const y = canned(b);
  const body = namesId(y.body, b.pathParams[idParam] ?? "")
    ? renameId(y.body, b.pathParams[idParam] ?? "", a.pathParams[idParam] ?? "")
    : y.body;
  return (
    x.status === y.status &&
    x.content_type === y.content_type &&
    JSON.stringify(body) === JSON.stringify(x.body)
  );
}

/**
 * The answer to an item read whose id cannot be one of the collection's (`/todos/abc` where every id is an integer):
 * learned when the item route has such reads, every one of them answered the same client error (4xx, neither a
 * miss nor a refusal of credentials) and none succeeded. Rejected: a `string` id kind (any text could be an id), a
 * malformed id answered 2xx or differently, or no such read (the answer to one is then the not-found, as before).
 */
function malformedId(c: FoundCollection): { answer: CannedResponse; id: string | null } | null {
  const param = c.item?.params.at(-1);
  if (!c.item || param === undefined || c.idKind === "string") return null;
  const misses = new Set(c.missStatuses ?? [404, 410]);
  const odd = c.item.observations.filter((o) => !fitsIdKind(o.pathParams[param] ?? "", c.idKind));
  if (odd.length === 0) return null;
  const refused = (o: Observation) =>
    o.status >= 400 && o.status < 500 && !misses.has(o.status) && o.status !== 401 && o.status !== 403;
  if (!odd.every(refused) || !odd.every((o) => sameMiss(odd[0]!, o, param))) return null;
  // The id is renamed where two such reads agree on where it stands, or where one answer quotes it (`Invalid data
  // "abc" for parameter "id"`): an app echoes an input in quotes. One bare occurrence may name it by chance (`bad` in
  // `{"error": "bad id"}` for `/things/bad`).
  const id = odd[0]!.pathParams[param] ?? "";
  const quoted = odd.length === 1 && quotes(canned(odd[0]!).body, id);
  return { answer: canned(odd[0]!), id: odd.length >= 2 || quoted ? notFoundId(odd, param) : null };
}

/** Whether a string of the value holds `id` between matching quotes (`"abc"`, `'abc'`, `` `abc` ``). */
function quotes(value: unknown, id: string): boolean {
  if (id === "") return false;
  if (typeof value === "string") return ['"', "'", "`"].some((q) => value.includes(`${q}${id}${q}`));
  if (Array.isArray(value)) return value.some((v) => quotes(v, id));
  if (value !== null && typeof value === "object") return Object.values(value).some((v) => quotes(v, id));
  return false;
}

/**
 * Whether the recording read ids that cannot be the collection's (`/todos/abc` where ids are integers) and the app
 * answered every one as it answers an unknown id (a 404 or 410 miss): then the not-found is its answer to one.
 */
function malformedAsMissing(c: FoundCollection): boolean {
  const param = c.item?.params.at(-1);
  if (!c.item || param === undefined || c.idKind === "string") return false;
  const misses = new Set(c.missStatuses ?? [404, 410]);
  const odd = c.item.observations.filter((o) => !fitsIdKind(o.pathParams[param] ?? "", c.idKind));
  return odd.length > 0 && odd.every((o) => misses.has(o.status));
}

/**
 * The misses that teach the answer to an unknown id, and the answer to a gone one (an id the recording had shown,
 * then deleted) when the app tells them apart: the misses of ids the walk had seen (`goneMisses`) all answer alike,
 * those of ids never seen all answer alike, and the two differ (a 410 or 404 for a deleted id where unknown ids get
 * 404 or 403). Otherwise every miss teaches the one not-found answer, as before (`gone` null): a recording with
 * misses of one kind only cannot tell whether the other kind answers differently.
 */
function splitMisses(
  misses: Observation[],
  goneMisses: Set<Observation>,
  idParam: string,
): { notFound: Observation[]; gone: { answer: CannedResponse; id: string | null } | null } {
  const gone = misses.filter((o) => goneMisses.has(o));
  const unknown = misses.filter((o) => !goneMisses.has(o));
  const alike = (os: Observation[]) => os.every((o) => sameMiss(os[0]!, o, idParam));
  if (gone.length === 0 || unknown.length === 0 || !alike(gone) || !alike(unknown)) {
    return { notFound: misses, gone: null };
  }
  if (sameMiss(unknown[0]!, gone[0]!, idParam)) return { notFound: misses, gone: null };
  return { notFound: unknown, gone: { answer: canned(gone[0]!), id: notFoundId(gone, idParam) } };
}

/**
 * `unlisted` for a top-level collection no read listed whole (see the model), with an item route or read only through
 * projections: the ids the recording showed absent are
 * those of its recorded misses on the item route and those it saw and then no longer held.
 */
/** The ids the recording showed absent: those of its recorded misses on the item route, and those it saw and then no longer held. */
function absentIds(st: CollectionState, misses: Observation[]): string[] {
  const idParam = st.col.item?.params.at(-1) ?? "";
  const missing = new Set(
    misses.map((o) => o.pathParams[idParam]).filter((id): id is string => id !== undefined),
  );
  for (const id of st.everSeen) if (!st.entities.has(id)) missing.add(id);
  return [...missing].sort();
}

function unlistedOf(st: CollectionState, misses: Observation[]): Pick<Collection, "unlisted"> | null {
  const c = st.col;
  // A collection read only through projections and no item route is unlisted too (collections.ts `projectedOnly`).
  if (st.listedScopes.size > 0 || c.parent || c.tree || (!c.item && !c.projectedOnly)) return null;
  const idParam = c.item?.params.at(-1) ?? "";
  const missing = new Set(
    misses.map((o) => o.pathParams[idParam]).filter((id): id is string => id !== undefined),
  );
  // Entities seen only in part (projected reads) are not held by the walk's state: absent there is no evidence.
  if (!c.projectedOnly) for (const id of st.everSeen) if (!st.entities.has(id)) missing.add(id);
  return { unlisted: { missing: [...missing].sort() } };
}

/**
 * The id the first recorded miss names in its body, when every recorded miss of the route names its own
 * request's id and reads the same with the ids swapped (so the id is the answer's variable part); else null.
 */
export function notFoundId(misses: Observation[], idParam: string): string | null {
  const id = misses[0]!.pathParams[idParam] ?? "";
  const body = canned(misses[0]!).body;
  if (!namesId(body, id)) return null;
  for (const o of misses.slice(1)) {
    const own = o.pathParams[idParam] ?? "";
    const b = canned(o).body;
    if (!namesId(b, own) || JSON.stringify(renameId(b, own, id)) !== JSON.stringify(body)) return null;
  }
  return id;
}

/** How many list orders, at most, query reads are tried against. */
const MAX_ORDERS = 8;

/**
 * The list's default order among those every full list allowed (`insertion`, `field:<f>:<dir>`): the one under
 * which the query reads are explained best (a page of `?limit=1` shows which entity comes first), preferring
 * a field order a list proved (see `orderProofs`), then insertion order, then the id ascending, then by name, when the
 * reads do not tell them apart.
 */
function chooseOrder(
  st: CollectionState,
  reads: RecordedQueryRead<Observation>[],
  changed: ReadonlySet<string>,
): { order: string; learned: LearnedQuery<Observation>; also: string[] } {
  const cands = st.orderCandidates ?? new Set(["insertion"]);
  // A field order a list proved (entities out of id order, strictly by the field) comes before insertion order.
  // Of several the lists do not tell apart: a time first (newest or oldest first), then another field in the entity's
  // own key order, the id last (it is what insertion order follows too).
  const sample = st.entities.values().next().value ?? {};
  const keys = Object.keys(sample);
  const fieldOf = (x: string) => x.split(":")[1]!;
  const kind = (x: string) =>
    fieldOf(x) === st.col.idField ? 2 : readTime(sample[fieldOf(x)]) !== null ? 0 : 1;
  // A field two entities the recording showed share a value of leaves their order open: it ranks after one that
  // orders every entity (a start date every issue created today shares, beside the id).
  const seen = [...st.lastKnown.values()];
  const tied = (x: string) => {
    const values = seen.map((e) => e[fieldOf(x)]).filter((v) => v !== undefined && v !== null);
    return new Set(values.map((v) => JSON.stringify(v))).size < values.length ? 1 : 0;
  };
  // A field a recorded update changed (`updated_on`) orders the list as a stable one did only until an update: no
  // full list after that update told them apart (it would have dropped one), so the stable one is taken.
  const moved = (x: string) => (changed.has(fieldOf(x)) ? 1 : 0);
  const proven = [...cands]
    .filter((x) => st.orderProofs.has(x))
    .sort(
      (a, b) =>
        tied(a) - tied(b) ||
        moved(a) - moved(b) ||
        kind(a) - kind(b) ||
        keys.indexOf(fieldOf(a)) - keys.indexOf(fieldOf(b)) ||
        (a < b ? -1 : 1),
    );
  const ranked = [
    ...proven,
    ...["insertion", `field:${st.col.idField}:asc`, `field:${st.col.idField}:desc`].filter((x) =>
      cands.has(x),
    ),
    ...[...cands]
      .sort()
      .filter((x) => x !== "insertion" && !x.startsWith(`field:${st.col.idField}:`) && !proven.includes(x)),
  ];
  const first = ranked[0] ?? "insertion";
  let best = { order: first, learned: learnQueryRules(sortedReads(reads, first)) };
  const also = () => (proven.includes(best.order) ? proven.filter((x) => x !== best.order) : []);
  if (best.learned.explained.size === reads.length) return { ...best, also: also() };
  for (const order of ranked.slice(1, MAX_ORDERS)) {
    const learned = learnQueryRules(sortedReads(reads, order));
    if (learned.explained.size > best.learned.explained.size) best = { order, learned };
  }
  return { ...best, also: also() };
}

function sortedReads(
  reads: RecordedQueryRead<Observation>[],
  order: string,
): RecordedQueryRead<Observation>[] {
  if (order === "insertion") return reads;
  const [, field, dir] = order.split(":") as [string, string, "asc" | "desc"];
  return reads.map((r) => ({
    obs: r.obs,
    read: { ...r.read, base: sortEntities(r.read.base, [{ field, direction: dir }]) },
  }));
}

/** The recorded answer of an observation as a canned response. */
export function canned(o: Observation): CannedResponse {
  const body = replayBody(o);
  return {
    status: o.status,
    content_type: o.contentType,
    body: body?.encoding === "json" ? body.value : (body?.text ?? null),
  };
}

function replayBody(o: Observation): ReplayBody {
  if (o.response.kind === "json") return { encoding: "json", value: o.response.value };
  const b = o.record.response?.body;
  if (!b || o.response.kind === "none") return null;
  return b.encoding === "base64" ? { encoding: "base64", text: b.text } : { encoding: "utf8", text: b.text };
}

/**
 * Replays of the given read observations (already in time order), sorted by method and path; `matchOf` gives an
 * answer's `match` (a sign-in keyed by who signed in), undefined for none.
 */
export function buildReplays(
  reads: Observation[],
  matchOf: (o: Observation) => ReplayResponse["match"] = () => undefined,
): Replay[] {
  const byKey = new Map<string, Replay>();
  const obsByKey = new Map<string, Observation[]>();
  for (const o of reads) {
    const key = `${o.method} ${o.pathAndQuery}`;
    appendTo(obsByKey, key, o);
  }
  const vary = new Map([...obsByKey].map(([key, obs]) => [key, varyHeader(obs)]));
  for (const o of reads) {
    const key = `${o.method} ${o.pathAndQuery}`;
    let r = byKey.get(key);
    if (!r) {
      r = { method: o.method, path_and_query: o.pathAndQuery, tool_name: o.endpoint.toolName, responses: [] };
      byKey.set(key, r);
    }
    const header = vary.get(key) ?? null;
    const headers: Record<string, string> = o.contentType ? { "content-type": o.contentType } : {};
    const location = o.status >= 300 && o.status < 400 ? redirectTarget(o) : null;
    // A Location on the app's own origin becomes a path: a browser on the twin must stay on the twin.
    if (location !== null) headers["location"] = localPath(location, o) ?? location;
    const match = matchOf(o);
    r.responses.push({
      status: o.status,
      headers,
      body: replayBody(o),
      ...(match ? { match } : {}),
      ...(header !== null && !match ? { headers_match: { [header]: requestHeader(o, header) } } : {}),
    });
  }
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, r]) => r);
}

/** A request header's value ("" when not sent), by lower-case name. */
export function requestHeader(o: Observation, name: string): string {
  return o.record.request.headers.find((h) => h.name.toLowerCase() === name)?.value ?? "";
}

/** Request headers an answer is never keyed on: what the twin answers alike, and what carries no meaning here. */
const NEVER_VARY = new Set([
  "*",
  "accept-encoding",
  "cookie",
  "authorization",
  "origin",
  "user-agent",
  "referer",
]);

/** An answer's shape: its content type and, for JSON, an array or the sorted keys of the object. */
export function shapeOf(o: Observation): string {
  const v = o.response.kind === "json" ? o.response.value : undefined;
  const json =
    v === undefined
      ? ""
      : Array.isArray(v)
        ? "[]"
        : v !== null && typeof v === "object"
          ? Object.keys(v).sort().join(",")
          : typeof v;
  return `${(o.contentType ?? "").split(";")[0]!.trim()} ${json}`;
}

/**
 * The request header an exact read's answer depends on, by hypothesis (issue 17 item 2): among `Accept`, headers
 * naming a version (`Accept-Version`, `X-API-Version`) and those the app's own `Vary` answer header names (never a
 * credential, nor `Accept-Encoding`), the first (by name) whose recorded values split the answers into groups of
 * one shape each, two groups at least, each of its own shape (`application/json [...]` for one `Accept`,
 * `text/csv` for another; `{data,meta}` for version 2 and `[]` for version 1). Rejected: a header whose values
 * vary while the answers keep one shape (a browser sending any Accept beside `application/json`, both answered alike). Null when none.
 */
export function varyHeader(obs: Observation[]): string | null {
  if (obs.length < 2) return null;
  const named = new Set<string>(["accept"]);
  for (const o of obs) {
    for (const h of o.record.response?.headers ?? [])
      if (h.name.toLowerCase() === "vary")
        for (const n of h.value.split(",")) named.add(n.trim().toLowerCase());
    for (const h of o.record.request.headers) if (/version/i.test(h.name)) named.add(h.name.toLowerCase());
  }
  for (const name of [...named].sort()) {
    if (name === "" || NEVER_VARY.has(name) || isCredentialHeader(name, "")) continue;
    const shapes = new Map<string, Set<string>>();
    for (const o of obs) {
      const value = requestHeader(o, name);
      shapes.set(value, (shapes.get(value) ?? new Set()).add(shapeOf(o)));
    }
    if (shapes.size < 2 || [...shapes.values()].some((s) => s.size !== 1)) continue;
    const each = [...shapes.values()].map((s) => [...s][0]!);
    if (new Set(each).size === each.length) return name;
  }
  return null;
}
