/**
 * The read side of the model: each collection's list order, confirmed
 * filters and pagination, and not-found answer; and the replays, exact
 * method + path + query with the recorded answers in order, for every read
 * the state cannot serve.
 */
import type {
  CannedResponse,
  Collection,
  Replay,
  ReplayBody,
  ReplayResponse,
} from "../model/model-schema.js";
import type { CollectionState } from "./collection-state.js";
import type { Observation } from "./endpoint-index.js";
import { explainCollection } from "./explain.js";
import type { QueryRead } from "./query-hypotheses.js";
import { learnQueryRules } from "./query-rules.js";
import { localPath, redirectTarget } from "./redirect-location.js";

/** The collection's model and which of its list reads the state serves. */
export function collectionModel(
  st: CollectionState,
  queries: Map<Observation, QueryRead>,
): {
  collection: Collection;
  stateServed: Set<Observation>;
} {
  const c = st.col;
  const defaultFilter = st.defaultFilter();
  const reads = c.list.observations
    .filter((o) => queries.has(o))
    .map((o) => ({ obs: o, read: { ...queries.get(o)!, defaultFilter } }));
  const learned = learnQueryRules(reads);
  const { filters, pagination } = learned;
  const stateServed = new Set<Observation>();
  for (const o of c.list.observations)
    if (o.query.length === 0 || learned.explained.has(o)) stateServed.add(o);
  if (c.item) for (const o of c.item.observations) if (o.query.length === 0) stateServed.add(o);
  const cands = st.orderCandidates ?? new Set(["insertion"]);
  const pick =
    ["insertion", `field:${c.idField}:asc`].find((x) => cands.has(x)) ?? [...cands].sort()[0] ?? "insertion";
  const [, field, dir] = pick.split(":");
  const list_order: Collection["list_order"] =
    pick === "insertion"
      ? { kind: "insertion" }
      : { kind: "field", field: field!, direction: dir as "asc" | "desc" };
  const nf = c.item?.observations.find((o) => o.status === 404 || o.status === 410);
  const partial: Omit<Collection, "explain"> = {
    name: c.name,
    id_field: c.idField,
    id_kind: c.idKind,
    list_endpoint: c.list.toolName,
    item_endpoint: c.item?.toolName ?? null,
    envelope: c.envelope,
    item_envelope: c.itemEnvelope,
    parent: c.parent,
    list_order,
    filters,
    pagination,
    not_found: nf ? canned(nf) : null,
    query: { rules: learned.rules, default_filter: defaultFilter },
  };
  return { collection: { ...partial, explain: explainCollection(partial) }, stateServed };
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
  for (const o of reads) {
    const key = `${o.method} ${o.pathAndQuery}`;
    let r = byKey.get(key);
    if (!r) {
      r = { method: o.method, path_and_query: o.pathAndQuery, tool_name: o.endpoint.toolName, responses: [] };
      byKey.set(key, r);
    }
    const headers: Record<string, string> = o.contentType ? { "content-type": o.contentType } : {};
    const location = o.status >= 300 && o.status < 400 ? redirectTarget(o) : null;
    // A Location on the app's own origin becomes a path: a browser on the twin must stay on the twin.
    if (location !== null) headers["location"] = localPath(location, o) ?? location;
    const match = matchOf(o);
    r.responses.push({ status: o.status, headers, body: replayBody(o), ...(match ? { match } : {}) });
  }
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, r]) => r);
}
