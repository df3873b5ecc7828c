/**
 * The twin's one entry point: route a request to an endpoint and answer it
 * from the episode's state (reads and served writes), from the recording
 * (replays), with a recorded refusal or validation failure, or with an
 * explanation (a body it refuses: 400, withheld: 501, no route: 404).
 * Deterministic: the same calls on a fresh episode give the same answers.
 */
import { understoodQueryParams } from "../../model/collection-query.js";
import { itemQueryFields } from "../../model/item-fields.js";
import type { Acknowledged, Collection, Entity, Model, Replay, WriteRule } from "../../model/model-schema.js";
import { queryKey } from "../../model/query-key.js";
import { project } from "../../model/query-language.js";
import { applyWrite } from "./apply-write.js";
import { countRead, itemRead, listRead, locate, queryRead, rootProjection } from "./collection-read.js";
import type { CollectionState } from "./collection-state.js";
import { embeddedAnswer } from "./embedded-answer.js";
import {
  explainMiss,
  explainUnlearnedQuery,
  explainUnlearnedWriteQuery,
  explainUnlisted,
  explainUnlistedScope,
  explainWithheld,
} from "./explain-miss.js";
import { variantAnswer, variantOf, variantServes, variantView } from "./header-variant.js";
import { assertedRead } from "./item-assertion.js";
import { queryForm } from "./json-text.js";
import { recordedAnswer } from "./recorded-answer.js";
import { refuseBody, refuseRequest } from "./refuse-request.js";
import { answerReplay, findReplay, replayVariants, staleMiss } from "./replay-index.js";
import { matchRoute, type RouteMatch } from "./route-table.js";
import type { Episode, TwinRequest, TwinResponse } from "./twin-types.js";
import { refuseUnlearnedFields } from "./unlearned-fields.js";
import { validateRequest } from "./validate-request.js";
import { refuseWithheldCase } from "./withheld-cases.js";
import { unlearnedWriteQuery } from "./write-query.js";

const collectionIndexes = new WeakMap<Model, Map<string, Collection>>();

function collectionOf(model: Model, name: string | null): Collection | undefined {
  if (name === null) return undefined;
  let index = collectionIndexes.get(model);
  if (!index) {
    index = new Map(model.collections.map((c) => [c.name, c]));
    collectionIndexes.set(model, index);
  }
  return index.get(name);
}

/** The query parameters a plain list (or item) read of the collection does not understand, each once. */
function unknownParams(c: Collection, kind: "list" | "item", query: [string, string][]): string[] {
  const known = kind === "list" ? understoodQueryParams(c) : new Set<string>();
  return [...new Set(query.map(([k]) => k).filter((k) => !known.has(k)))];
}

const credentialIndexes = new WeakMap<Model, Set<string>>();

/** The query parameters the model's auth schemes carry a credential in (`?key=`): never a write's own. */
function credentialParams(model: Model): Set<string> {
  let names = credentialIndexes.get(model);
  if (!names) {
    names = new Set((model.auth?.schemes ?? []).filter((s) => s.kind === "query").map((s) => s.name));
    credentialIndexes.set(model, names);
  }
  return names;
}

/** The match naming a singleton document by its id (the collection's name under its id field), as a path would. */
function singletonMatch(c: Collection, m: RouteMatch): RouteMatch {
  return {
    route: { ...m.route, params: [...m.route.params, c.id_field] },
    params: { ...m.params, [c.id_field]: c.name },
  };
}

function serveFromState(
  model: Model,
  episode: Episode,
  req: TwinRequest,
  match: RouteMatch,
): TwinResponse | null {
  const c = collectionOf(model, match.route.endpoint.collection);
  if (!c) return null;
  // A header asking for another rendering (`Accept: …v2+json`): the variant's view, for the reads it confirmed only.
  const variant = variantOf(c, req);
  if (!variant) return serveFrom(model, episode, req, match, c);
  const ep = match.route.endpoint;
  if (ep.method !== "GET" || !variantServes(variant, ep.kind)) return null;
  const res = serveFrom(model, episode, req, match, variantView(c, variant));
  return res && variantAnswer(variant, res, ep.tool_name);
}

function serveFrom(
  model: Model,
  episode: Episode,
  req: TwinRequest,
  match: RouteMatch,
  c: Collection,
): TwinResponse | null {
  const singled = c.singleton ? singletonMatch(c, match) : match;
  const m = { ...singled, params: parentScoped(model, episode, c, singled.params) };
  const ep = m.route.endpoint;
  const list = episode.state.collection(c.name);
  const scope = ep.kind === "list" ? unlistedScope(c, list, m.params) : null;
  if (scope !== null) return explainUnlistedScope(ep, c.name, scope);
  // A collection no read listed whole: a plain list is answered only as recorded.
  if (ep.kind === "list" && c.unlisted && req.query.length === 0) {
    const hit = findReplay(model, req);
    return hit ? replayed(model, episode, hit, req) : explainUnlisted(ep.tool_name, c.name);
  }
  const projection =
    (ep.kind === "item" || (ep.kind === "list" && c.tree?.root)) && req.query.length > 0
      ? c.item_projections?.find((p) => queryKey(p.query) === queryKey(req.query))
      : undefined;
  // The root folder a tree's list answers are takes the projections of its folders' item reads.
  if (projection && ep.kind === "list") return rootProjection(c, projection.nulls, ep.tool_name);
  if (ep.kind === "list" && c.query) {
    const read = queryRead(c, list, m.params, req.query, ep.tool_name, req.path);
    if (!("unlearned" in read)) return read;
    const hit = findReplay(model, req);
    return hit
      ? replayed(model, episode, hit, req)
      : (staleMiss(model, req) ??
          read.miss ??
          explainUnlearnedQuery(req, ep, read.unlearned, replayVariants(model, ep.tool_name), read.why));
  }
  // Parameters asserting a field of the entity (`?type=file`): the item read where it holds, the recorded refusal
  // where it does not, else the exact recorded request or an explained miss.
  if (ep.kind === "item" && c.item_assertions && req.query.length > 0) {
    const idParam = m.route.params[m.route.params.length - 1] ?? "";
    const read = assertedRead(c, list, m.params, idParam, req.query, ep.tool_name);
    if (read && "answer" in read) return read.answer;
    if (read) {
      const hit = findReplay(model, req);
      return hit
        ? replayed(model, episode, hit, req)
        : (staleMiss(model, req) ??
            explainUnlearnedQuery(req, ep, [read.undecided], replayVariants(model, ep.tool_name), read.why));
    }
  }
  if (projection) {
    const idParam = m.route.params[m.route.params.length - 1] ?? "";
    return itemRead(c, list, m.params, idParam, ep.tool_name, projection.nulls);
  }
  // The list's confirmed projection, confirmed on item reads too (`item_query_fields`): the entity cut down to it.
  if (ep.kind === "item" && c.item_query_fields && req.query.length > 0) {
    const idParam = m.route.params[m.route.params.length - 1] ?? "";
    const found = locate(c, list, m.params, idParam);
    const fields = found ? itemQueryFields(c.query, req.query, found) : null;
    if (fields) {
      const whole = itemRead(c, list, m.params, idParam, ep.tool_name);
      if (
        whole.status >= 200 &&
        whole.status < 300 &&
        whole.body?.kind === "json" &&
        c.item_envelope.kind === "bare"
      )
        return { ...whole, body: { kind: "json", value: project(whole.body.value as Entity, fields) } };
    }
  }
  if (ep.kind === "list" || ep.kind === "item") {
    // A query the collection does not understand is answered as recorded when it was recorded, else explained:
    // the whole list (or the bare item) would not be the app's answer to it.
    const unknown = req.query.length === 0 ? [] : unknownParams(c, ep.kind, req.query);
    if (unknown.length > 0) {
      const hit = findReplay(model, req);
      return hit
        ? replayed(model, episode, hit, req)
        : (staleMiss(model, req) ??
            explainUnlearnedQuery(req, ep, unknown, replayVariants(model, ep.tool_name)));
    }
    return ep.kind === "list"
      ? listRead(c, list, m.params, req.query, ep.tool_name, req.path)
      : itemRead(c, list, m.params, m.route.params[m.route.params.length - 1] ?? "", ep.tool_name);
  }
  const count = c.counts?.find((k) => k.tool_name === ep.tool_name);
  if (count && ep.method === "GET") {
    const read = countRead(c, list, req.query, count, ep.tool_name);
    if (!("unlearned" in read)) return read;
    const hit = findReplay(model, req);
    return hit
      ? replayed(model, episode, hit, req)
      : (staleMiss(model, req) ??
          explainUnlearnedQuery(req, ep, read.unlearned, replayVariants(model, ep.tool_name)));
  }
  const routeRule = model.write_rules.find((w) => w.tool_name === ep.tool_name);
  if (!routeRule) return null;
  const rule = queryVariant(routeRule, req.query, credentialParams(model));
  // A write by query is named by its query: the filter selects what it writes (apply-write.ts).
  if (rule.by_query)
    return (
      refuseWithheldCase(ep, rule, req) ??
      refuseUnlearnedFields(ep, c, list, rule, req, m.params) ??
      applyWrite(model, episode, c, rule, req, m.params, ep)
    );
  // A query no recorded write sent may make the app do another thing (trash, not delete): named, nothing written.
  const unlearned = unlearnedWriteQuery(rule, req.query, credentialParams(model));
  if (unlearned.length > 0) {
    const hit = findReplay(model, req);
    return hit ? replayed(model, episode, hit, req) : explainUnlearnedWriteQuery(req, ep, unlearned);
  }
  return (
    refuseWithheldCase(ep, rule, req) ??
    refuseUnlearnedFields(ep, c, list, rule, req, m.params) ??
    applyWrite(model, episode, c, rule, req, m.params)
  );
}

/**
 * The rule of a route whose recorded writes did one thing per query (`query_variants`): the first, the route's own
 * or a variant, whose recorded query the request fits; the route's own when none does (its miss then names it).
 */
function queryVariant(
  rule: WriteRule,
  query: TwinRequest["query"],
  credentials: ReadonlySet<string>,
): WriteRule {
  if (!rule.query_variants || unlearnedWriteQuery(rule, query, credentials).length === 0) return rule;
  return rule.query_variants.find((v) => unlearnedWriteQuery(v, query, credentials).length === 0) ?? rule;
}

/**
 * The path parameters with the parent's scope as the collection keeps it: for entities naming their parent by a
 * reference (`parent.reference`), a path naming the parent by another of its ids (`/projects/mobile-app/…`) means
 * the parent entity's id. Else the parameters as given.
 */
function parentScoped(
  model: Model,
  episode: Episode,
  c: Collection,
  params: Record<string, string>,
): Record<string, string> {
  const parent = c.parent?.reference ? collectionOf(model, c.parent.collection ?? "") : undefined;
  const raw = c.parent ? params[c.parent.param] : undefined;
  if (!parent || raw === undefined) return params;
  const entities = episode.state.collection(parent.name);
  if (entities.get(raw)) return params;
  const alt = parent.alt_id_fields ?? [];
  for (const e of entities.values())
    if (alt.some((f) => queryForm(e[f]) === raw))
      return { ...params, [c.parent!.param]: queryForm(e[parent.id_field]) };
  return params;
}

/**
 * The scope a list read names when the twin cannot know its entities: a nested collection whose entities name no
 * parent (`parent.implied`), a scope the recording never listed, and nothing the episode wrote there. Else null.
 */
function unlistedScope(c: Collection, list: CollectionState, params: Record<string, string>): string | null {
  const listed = c.parent?.listed;
  const scope = c.parent ? params[c.parent.param] : undefined;
  if (!listed || scope === undefined || listed.includes(scope)) return null;
  for (const e of list.values()) if (queryForm(e[c.parent!.field]) === scope) return null;
  return scope;
}

/** A replayed answer, unless the episode's writes made it out of date (embedded-answer.ts). */
function replayed(
  model: Model,
  episode: Episode,
  hit: { key: string; replay: Replay },
  req: TwinRequest,
): TwinResponse {
  return embeddedAnswer(model, episode, hit.replay, answerReplay(episode, hit.key, hit.replay, req));
}

/** A write with no visible effect: its recorded answer, and no change to the state. */
function acknowledgedAnswer(ack: Acknowledged): TwinResponse {
  if (!ack.empty) return recordedAnswer(ack, "acknowledged", ack.tool_name);
  return { status: ack.status, headers: {}, body: null, served_by: "acknowledged", rule: ack.tool_name };
}

/** The request without the model's confirmed cache-busters in its query. */
function withoutBusters(busters: { param: string }[], req: TwinRequest): TwinRequest {
  const drop = new Set(busters.map((b) => b.param));
  return req.query.some(([k]) => drop.has(k))
    ? { ...req, query: req.query.filter(([k]) => !drop.has(k)) }
    : req;
}

/**
 * Answers one request against the episode, mutating its state in place for served writes. `match` is the
 * request's route when the caller already matched it (`matchRoute` of the same model, method and path; null for
 * none), so a request is matched once.
 */

export function handleRequest(
  model: Model,
  episode: Episode,
  req: TwinRequest,
  match?: RouteMatch | null,
): TwinResponse {
  // A confirmed cache-buster (`_=<now>`) never changes the answer: it is asked as if not sent.
  if (model.cache_busters?.length) req = withoutBusters(model.cache_busters, req);
  const m = match === undefined ? matchRoute(model, req.method, req.path) : match;
  if (!m) {
    const hit = findReplay(model, req);
    return hit ? replayed(model, episode, hit, req) : (staleMiss(model, req) ?? explainMiss(model, req));
  }
  const ep = m.route.endpoint;
  // The app's refusals come before the write, served or withheld: credentials first, then a body it cannot read,
  // a confirmed validation failure, and a body that breaks the learned request schema.
  const refused =
    refuseRequest(model, ep, req) ??
    validateRequest(model, ep.tool_name, req, { episode, params: m.params }) ??
    refuseBody(model, ep, req);
  if (refused) return refused;
  if (ep.serving === "withheld") return explainWithheld(ep);
  if (ep.serving === "acknowledged") {
    const ack = model.acknowledged?.find((a) => a.tool_name === ep.tool_name);
    if (ack) return acknowledgedAnswer(ack);
  }
  if (ep.serving === "state") {
    const served = serveFromState(model, episode, req, m);
    if (served) return served;
  }
  const hit = findReplay(model, req);
  if (hit) return replayed(model, episode, hit, req);
  return (
    staleMiss(model, req) ??
    explainMiss(model, req, { reason: m.route.label, recorded: replayVariants(model, ep.tool_name) })
  );
}
