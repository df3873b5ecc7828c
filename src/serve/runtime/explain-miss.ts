/**
 * Answers that explain themselves: a request no route serves gets a 404
 * listing every route and the nearest one; a withheld endpoint gets a 501
 * saying why it is withheld and what to record to serve it.
 */
import type { Endpoint, Model, WriteRule } from "../../model/model-schema.js";
import { isMaskedParam, MASKED, maskQueryPairs } from "../../util/mask-query.js";
import { nearestRoute, routeTable } from "./route-table.js";
import type { TwinRequest, TwinResponse } from "./twin-types.js";

/** Every route of the model as `METHOD /template`, sorted. */
export function routeLabels(model: Model): string[] {
  return routeTable(model).map((r) => r.label);
}

/**
 * The 404 for a request no route serves: every route and the nearest match. With `detail` the request matched a
 * route the twin answers only by replay and this exact request was never recorded: a 501 (the app has the route; what
 * it answers to this request is unknown), never a 404 a client would take for the app's own not-found.
 */
export function explainMiss(
  model: Model,
  req: TwinRequest,
  detail?: { reason: string; recorded: string[] },
): TwinResponse {
  const asked = `${req.method.toUpperCase()} ${req.path}`;
  if (detail) {
    // The query is part of what was not recorded: named by its parameters, never its values (a value may be a
    // secret the twin must not write back).
    const names = [...new Set(req.query.map(([k]) => k))].map((k) => JSON.stringify(k));
    const exact =
      names.length === 0
        ? asked
        : `${asked} with query parameter${names.length === 1 ? "" : "s"} ${names.join(", ")}`;
    return explainedAnswer(
      501,
      {
        error: "unrecorded_request",
        message: `${exact} matches ${detail.reason}, but no answer was recorded for this exact request, and this route is answered only by replaying recorded requests: what the app answers to it is unknown; the recorded ones are listed in "recorded"`,
        request: asked,
        route: detail.reason,
        recorded: detail.recorded,
        hint: `Record this request in a scenario (or record ${detail.reason} so that a rule of the twin is confirmed), then rebuild.`,
      },
      "miss",
      null,
    );
  }
  const nearest = nearestRoute(model, req.method, req.path)?.label ?? null;
  const message = nearest
    ? `No route of this twin serves ${asked}. The nearest route is ${nearest}.`
    : `No route of this twin serves ${asked}; the twin has no routes.`;
  return explainedAnswer(
    404,
    { error: "no_route", message, request: asked, nearest, routes: routeLabels(model) },
    "miss",
    null,
  );
}

/** An answer with a JSON body that says why the twin does not answer as the app would (a 404, 409 or 501). */
export function explainedAnswer(
  status: number,
  value: Record<string, unknown>,
  served_by: TwinResponse["served_by"],
  rule: string | null,
): TwinResponse {
  return {
    status,
    headers: { "content-type": "application/json" },
    body: { kind: "json", value },
    served_by,
    rule,
  };
}

/** The 501 for a withheld endpoint: the reason code and the hint on what to record. */
export function explainWithheld(endpoint: Endpoint): TwinResponse {
  const reason = endpoint.withheld?.reason ?? "not_served";
  const hint =
    endpoint.withheld?.hint ?? "Record this request and read its effect back, then rebuild the bundle.";
  return explainedAnswer(
    501,
    {
      error: "not_served",
      message: `apptwin does not serve ${endpoint.method} ${endpoint.template}: the recording did not prove its effect (${reason}).`,
      reason,
      hint,
    },
    "withheld",
    endpoint.tool_name,
  );
}

/** The 501 for a write whose rules would give the new or moved entity an id another one holds. */
export function explainIdTaken(collection: string, tool: string, id: string): TwinResponse {
  return explainedAnswer(
    501,
    {
      error: "id_taken",
      message: `${tool} would give the ${collection} entity the id ${JSON.stringify(id)}, which another one holds; the recording never showed what the app answers then`,
      id,
    },
    "miss",
    tool,
  );
}

/** The 501 for a create whose rules built no id: the request lacks the values the recorded creates built it from. */
export function explainUnbuiltId(collection: string, rule: WriteRule): TwinResponse {
  const inputs = [...new Set(rule.fields.flatMap((f) => requestParts(f.rule)))];
  const from = inputs.length === 0 ? "" : ` (the recorded creates built it from ${inputs.join(", ")})`;
  return explainedAnswer(
    501,
    {
      error: "unbuilt_id",
      message: `${rule.tool_name} gives the new ${collection} entity no id for this request${from}; the recording never showed what the app names it then`,
    },
    "miss",
    rule.tool_name,
  );
}

/** The request pointers a rule's formats read. */
function requestParts(rule: WriteRule["fields"][number]["rule"]): string[] {
  return rule.kind === "format" ? rule.parts.flatMap((p) => ("request" in p ? [p.request] : [])) : [];
}

/** The 501 for an item read of an entity only lists (or reads with a query) showed: the fields item reads show were never recorded for it. */
export function explainUnknownFields(tool: string, id: string, fields: string[]): TwinResponse {
  const names = fields.map((f) => JSON.stringify(f)).join(", ");
  return explainedAnswer(
    501,
    {
      error: "unknown_fields",
      message: `${tool}: the recording showed ${JSON.stringify(id)} only in lists or in reads with a query, which leave out or give null ${names}; an item read shows ${fields.length === 1 ? "it" : "them"}, and the twin does not know ${fields.length === 1 ? "its value" : "their values"} for this entity`,
      hint: `Record an item read of ${JSON.stringify(id)} (or a write that sets ${names}), then rebuild the bundle.`,
      id,
      fields,
    },
    "miss",
    tool,
  );
}

/**
 * The 501 for a PUT leaving out fields the entity holds, where every recorded PUT sent each field its entity held:
 * whether the app keeps them (a partial update) or drops them (a replace) was never shown.
 */
export function explainUnsentFields(tool: string, id: string, fields: string[]): TwinResponse {
  const names = fields.map((f) => JSON.stringify(f)).join(", ");
  return explainedAnswer(
    501,
    {
      error: "unsent_fields",
      message: `${tool}: this request leaves out ${names}, which ${JSON.stringify(id)} holds; every recorded PUT sent each field its entity held, so whether the app keeps ${fields.length === 1 ? "it" : "them"} or drops ${fields.length === 1 ? "it" : "them"} (a replace) is unknown, and the twin does not guess`,
      hint: `Record a PUT that leaves out a field its entity holds, with a read of the entity after it, then rebuild the bundle.`,
      id,
      fields,
    },
    "miss",
    tool,
  );
}

/** The 501 for a delete that keeps its entity (a trash) asked of one already holding what it sets. */
export function explainAlreadyKept(tool: string, id: string, fields: string[]): TwinResponse {
  const names = fields.map((f) => JSON.stringify(f)).join(", ");
  return explainedAnswer(
    501,
    {
      error: "already_kept",
      message: `${tool}: ${JSON.stringify(id)} already holds what this delete sets (${names}); every recorded one met an entity that did not, so whether the app refuses it, deletes it for good or answers as before is unknown, and the twin does not guess`,
      hint: "Record this delete of an entity it was already applied to, with a read of it after, then rebuild the bundle.",
      id,
      fields,
    },
    "miss",
    tool,
  );
}

/**
 * The 501 for a read the twin cannot answer because no read of the recording listed collection `name` whole: an id
 * it does not hold (`id`) may well exist in the app, and a plain list would be only the entities the recording
 * happened to show.
 */
export function explainUnlisted(tool: string, name: string, id?: string): TwinResponse {
  const what =
    id === undefined
      ? `the whole list of ${name}`
      : `whether ${name} holds ${JSON.stringify(id)} (the twin holds only the ones the recording showed)`;
  return explainedAnswer(
    501,
    {
      error: "unlisted_collection",
      message: `${tool}: no read in the recording listed every one of ${name} (only filtered lists, pages or item reads showed them), so ${what} is unknown; the twin does not answer it as the app's`,
      hint: `Record a plain read of the ${name} list (no query parameters, the whole list in one answer) before the other reads, then rebuild the bundle.`,
      collection: name,
      ...(id === undefined ? {} : { id }),
    },
    "miss",
    tool,
  );
}

/**
 * The 501 for a list read the twin would answer with several entities in the app's own order, which no recorded
 * read showed (`order_unconfirmed`: the collection was only ever read filtered, sorted or in part).
 */
export function explainUnconfirmedOrder(tool: string, name: string, count: number): TwinResponse {
  return explainedAnswer(
    501,
    {
      error: "unconfirmed_order",
      message: `${tool}: this read answers ${count} of ${name} in the app's own order, and no read in the recording showed that order (${name} was only read filtered, sorted or in part), so the twin does not pass its own order off as the app's`,
      hint: `Record a plain read of the ${name} list (no query parameters) holding two or more of them, or sort this read by a parameter the recording confirmed, then rebuild the bundle.`,
      collection: name,
    },
    "miss",
    tool,
  );
}

const ID_KINDS = { int: "an integer", uuid: "a UUID", string: "a text" } as const;

/**
 * The 501 for a read or write naming an id not of the kind every recorded id of the collection has (`abc` where
 * all are integers) when the recording never showed the app's answer to one: a 400 refusing it is as likely as
 * the not-found of an unknown id, so neither is passed off as the app's.
 */
export function explainMalformedId(
  tool: string,
  collection: string,
  kind: "int" | "uuid" | "string",
  id: string,
): TwinResponse {
  return explainedAnswer(
    501,
    {
      error: "unlearned_id_kind",
      message: `${tool}: ${JSON.stringify(id)} is not ${ID_KINDS[kind]}, the kind every recorded id of ${collection} has, and the recording never showed what the app answers to such an id (a refusal such as 400, or its not-found); apptwin does not guess it`,
      hint: `Record a read of one of the ${collection} by an id that is not ${ID_KINDS[kind]} (say "abc"), then rebuild the bundle.`,
      id,
    },
    "miss",
    tool,
  );
}

/** The 501 for a list read of a nested scope the recording never listed (see `parent.listed`). */
export function explainUnlistedScope(endpoint: Endpoint, collection: string, scope: string): TwinResponse {
  return explainedAnswer(
    501,
    {
      error: "unlisted_scope",
      message: `${endpoint.method} ${endpoint.template} lists the ${collection} under ${JSON.stringify(scope)}, which the recording never listed and the episode wrote nothing to: the twin does not know what the app holds there`,
      hint: `Record a ${endpoint.method} ${endpoint.template} for ${JSON.stringify(scope)}, then rebuild the bundle.`,
      scope,
    },
    "miss",
    endpoint.tool_name,
  );
}

/** The 501 for a write naming a reference the recording never sent, where the app answers a value it looked up by it. */
export function explainUnrecordedReference(
  tool: string,
  u: { pointer: string; sent: string | null; recorded: string[]; cases?: true; each?: string },
): TwinResponse {
  const recorded = [...u.recorded, ...(u.recorded.length === 0 ? ["nothing"] : [])].join(", ");
  // The value sent is quoted only where it cannot be a credential (a name or value that looks like one is masked).
  const key = u.pointer.split("/").at(-1) ?? "";
  const sent =
    u.sent === null ? "nothing there" : isMaskedParam(key, u.sent.replace(/^"|"$/g, "")) ? MASKED : u.sent;
  return explainedAnswer(
    501,
    {
      error: "unlearned_value",
      message: u.cases
        ? `${tool} writes fields whose values depend on the request's ${u.pointer}; the recording showed the app's answer for ${recorded} there and this request sends ${sent}, so the twin does not know what the app writes for it and does not guess`
        : u.each !== undefined
          ? `${tool} lists the entities the request's ${u.pointer} names; the recording showed those with ${u.each} ${recorded} and this request names ${sent}, so the twin does not know what the app lists for it and does not guess`
          : `${tool} answers values the app looks up by the request's ${u.pointer}; every recorded request sent ${recorded} there and this one sends ${sent}, so the twin does not know what the app gives for it and does not guess`,
      pointer: u.pointer,
      recorded: u.recorded,
      hint: u.cases
        ? `Record ${tool} with ${sent} at ${u.pointer} (each value the agent may send), followed by a read of what it wrote, then rebuild the bundle.`
        : `Record ${tool} with other values at ${u.pointer} (each reference the agent may name), then rebuild the bundle.`,
    },
    "miss",
    tool,
  );
}

/** The 501 for a write whose entity's field derives from its id, when the id does not tell it (an unseen extension). */
export function explainUnknownDerived(
  tool: string,
  id: string,
  unknown: { field: string; extension: string },
): TwinResponse {
  const ext =
    unknown.extension === "" ? "no extension" : `the extension ${JSON.stringify(unknown.extension)}`;
  return explainedAnswer(
    501,
    {
      error: "unlearned_value",
      message: `${tool} would write ${JSON.stringify(id)}, whose field "${unknown.field}" the app derives from the id's extension; the recording never showed its value for ${ext} and the standard media types do not list it, so the twin does not guess it`,
      field: unknown.field,
      id,
    },
    "miss",
    tool,
  );
}

/** The values a query parameter had in the recorded requests (`GET /a?x=1`), in order, without repeats. */
function seenValues(recorded: string[], name: string): string[] {
  const out: string[] = [];
  for (const r of recorded) {
    const at = r.indexOf("?");
    if (at < 0) continue;
    for (const [k, v] of new URLSearchParams(r.slice(at + 1)))
      if (k === name && !out.includes(v)) out.push(v);
  }
  return out;
}

/**
 * The miss for a state-backed read whose query holds parameters learning never confirmed a meaning for, when
 * the exact request was not recorded: answering the whole list (or the bare item) would pass a guess off as the
 * app's answer, so the twin names the parameters, what the recording showed of them, and what would teach them.
 */
export function explainUnlearnedQuery(
  req: TwinRequest,
  endpoint: Endpoint,
  params: string[],
  recorded: string[],
  why: string | null = null,
): TwinResponse {
  const unlearned = params.map((name) => {
    const seen = seenValues(recorded, name);
    return {
      param: name,
      seen,
      explain:
        why !== null
          ? why
          : seen.length === 0
            ? `the recording never sent "${name}" to ${endpoint.method} ${endpoint.template}`
            : `the recording sent "${name}" (${seen.map((v) => JSON.stringify(v)).join(", ")}) but no confirmed rule (filter, search, sort, page, projection, no effect) fits this value`,
    };
  });
  const names = params.map((p) => JSON.stringify(p)).join(", ");
  return unlearnedQueryAnswer(
    req,
    endpoint,
    unlearned,
    `Record reads of ${endpoint.method} ${endpoint.template} with ${names} (several values, at least one that leaves something out), after a read of it without them, so learning can confirm the meaning against the state; then rebuild the bundle.`,
    recorded,
  );
}

/**
 * The miss for a served write whose query differs from every recorded write of its endpoint (write-query.ts): the
 * recorded effect may not be what the app does with this query (a trash where the recording deleted for good), so
 * nothing is written and the parameters are named with what the recording sent.
 */
export function explainUnlearnedWriteQuery(
  req: TwinRequest,
  endpoint: Endpoint,
  unlearned: { param: string; seen: string[]; explain: string }[],
): TwinResponse {
  const names = unlearned.map((u) => JSON.stringify(u.param)).join(", ");
  return unlearnedQueryAnswer(
    req,
    endpoint,
    unlearned,
    `Record ${endpoint.method} ${endpoint.template} with this query (${names} as sent here), each followed by a read of what it changed, so learning can confirm its effect; then rebuild the bundle. Nothing was written.`,
    [],
    true,
  );
}

/** The 501 `unlearned_query` answer: the request, its route, each parameter with what the recording sent, a hint. */
function unlearnedQueryAnswer(
  req: TwinRequest,
  endpoint: Endpoint,
  unlearned: { param: string; seen: string[]; explain: string }[],
  hint: string,
  recorded: string[],
  write = false,
): TwinResponse {
  const query = new URLSearchParams(maskQueryPairs(req.query)).toString();
  const asked = `${req.method.toUpperCase()} ${req.path}${query === "" ? "" : `?${query}`}`;
  const names = unlearned.map((u) => JSON.stringify(u.param)).join(", ");
  const n = unlearned.length;
  const message = write
    ? `${asked} differs from every recorded ${endpoint.method} ${endpoint.template} in query parameter${n === 1 ? "" : "s"} ${names}, and this exact request was not recorded; apptwin does not apply the recorded effect to another query.`
    : `${asked} holds query parameter${n === 1 ? "" : "s"} ${names} whose meaning the recording never confirmed, and this exact request was not recorded; apptwin does not guess an answer.`;
  return explainedAnswer(
    501,
    {
      error: "unlearned_query",
      message,
      request: asked,
      route: `${endpoint.method} ${endpoint.template}`,
      unlearned,
      hint,
      recorded,
    },
    "miss",
    endpoint.tool_name,
  );
}

/**
 * The 501 for a write by query (`PATCH /articles?id=eq.3`) that selects nothing the twin may write: a query its
 * reads' rules do not select by, one holding more than filters (a sort, a page), one they read two ways, or one
 * selecting no entity (the recording never showed what the app answers then). Nothing was written.
 */
export function explainQueryWrite(
  req: TwinRequest,
  endpoint: Endpoint,
  why: "unlearned" | "not_a_filter" | "ambiguous" | "none",
  detail: string,
): TwinResponse {
  const query = new URLSearchParams(maskQueryPairs(req.query)).toString();
  const asked = `${req.method.toUpperCase()} ${req.path}${query === "" ? "" : `?${query}`}`;
  const route = `${endpoint.method} ${endpoint.template}`;
  const message =
    why === "none"
      ? `${asked} selects no entity by its query, and no recorded ${route} selected none; the twin does not know whether the app answers an empty success or a not-found then, so it writes nothing.`
      : `${asked} names the entities it writes by its query, and ${detail}; the twin writes only the entities the filters its reads confirmed select, so it writes nothing.`;
  const hint =
    why === "none"
      ? `Record a ${route} whose query selects no entity, and rebuild the bundle.`
      : why === "not_a_filter"
        ? `Send only filters in the query of ${route}; the recording shows no write that sorts, pages or projects.`
        : `Record a read of the collection with this query's filters, so learning can confirm what they select, then rebuild the bundle.`;
  return explainedAnswer(
    501,
    { error: why === "none" ? "unrecorded_selection" : "unlearned_query", message, hint, request: asked },
    "miss",
    endpoint.tool_name,
  );
}

/** The 501 for a rename in a hierarchy that would move an entity, and the ones under it, under itself. */
export function explainMoveIntoItself(
  collection: string,
  tool: string,
  from: string,
  to: string,
  count: number,
): TwinResponse {
  return explainedAnswer(
    501,
    {
      error: "unknown_descendants",
      message: `${tool} would move ${collection} ${JSON.stringify(from)} under itself (${JSON.stringify(to)}) with the ${count} entities under it; the recording never showed what the app answers then`,
    },
    "miss",
    tool,
  );
}

/**
 * The 501 for a rename of an entity the state holds descendants of (hierarchical ids), where the recording never
 * showed them moving with a renamed one (`refutedAt`: the read that showed them otherwise).
 */
export function explainUnmovedDescendants(
  collection: string,
  tool: string,
  id: string,
  count: number,
  refutedAt: number | undefined,
): TwinResponse {
  const held = `${count} entit${count === 1 ? "y" : "ies"} of ${collection} under it`;
  const why =
    refutedAt === undefined
      ? "the recording never showed what happens to the entities under a renamed one"
      : `the recording showed the entities under a renamed one not moved with it (records[${refutedAt}])`;
  return explainedAnswer(
    501,
    {
      error: "unknown_descendants",
      message: `${tool} would rename ${JSON.stringify(id)}, which has ${held}; ${why}, so the twin does not guess whether they move, stay or go`,
      id,
    },
    "miss",
    tool,
  );
}
