/**
 * Groups API records into endpoints (method + path template), each record
 * with its path parameter values, and names each endpoint's tool. Records are
 * indexed once here so later passes never rescan the evidence.
 */
import type { ApiRecord } from "./api-records.js";
import { buildTemplater, splitSuffix } from "./path-template.js";
import { toolName, uniqueToolNames } from "./tool-name.js";
import { isIdShaped, isNeverParam } from "./value-kinds.js";

/** An API record placed in its endpoint, with its path parameter values by name. */
export interface Observation extends ApiRecord {
  endpoint: EndpointGroup;
  pathParams: Record<string, string>;
}

/** Every observation of one method + template, in evidence order. */
export interface EndpointGroup {
  key: string;
  method: string;
  template: string;
  literals: (string | null)[];
  params: string[];
  /** Per parameter: the literal text after its value in the segment (`.json`), or "". */
  suffixes: string[];
  /** Per parameter: true when its value may span several segments (`{id+}`: an id holding `/`). */
  multi: boolean[];
  toolName: string;
  observations: Observation[];
}

const ID_KEY = /^(id|uuid|slug|key|_id)$|_id$|[a-z]Id$/;

/** Collects string/number values of id-like keys (`id`, `*_id`, `*Id`, `uuid`, `slug`) in a JSON value. */
export function collectIdValues(value: unknown, out: Set<string>, depth = 0): void {
  if (depth > 6 || value === null || typeof value !== "object") return;
  if (Array.isArray(value)) {
    for (const item of value) collectIdValues(item, out, depth + 1);
    return;
  }
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if ((typeof v === "string" || typeof v === "number") && ID_KEY.test(k)) out.add(String(v));
    else if (v !== null && typeof v === "object") collectIdValues(v, out, depth + 1);
  }
}

/** True when two paths differ in one non-id-shaped segment after a common prefix (a possible word id). */
function hasVaryingWords(paths: Iterable<string[]>): boolean {
  const seen = new Map<string, string>();
  for (const p of paths)
    for (let i = 1; i < p.length; i++) {
      if (isIdShaped(p[i]!) || isNeverParam(p[i]!)) continue;
      // Only siblings under a parent that is itself below the API root can be word ids (`/api/users/alice`).
      if (i < 2 || isNeverParam(p[i - 1]!) || isIdShaped(p[i - 1]!)) continue;
      const prefix = `${i}:${p.slice(0, i).join("/")}`;
      const first = seen.get(prefix);
      if (first === undefined) seen.set(prefix, p[i]!);
      else if (first !== p[i]) return true;
    }
  return false;
}

const LIST_SAMPLE = 1000;

/**
 * For each path a GET answered with a list of entities (a bare array, or the one array of an envelope): the values
 * of the fields unique among them, which identify an entity by role in a path below it (`/projects/website`).
 * Keyed by the path's segments, the last one without its file-type suffix (`projects.json` → `projects`).
 */
function listKeys(api: ApiRecord[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const rec of api) {
    if (rec.method !== "GET" || rec.status < 200 || rec.status >= 300 || rec.response.kind !== "json")
      continue;
    if (rec.query.length > 0 || rec.segments.length === 0) continue;
    const body = rec.response.value;
    const arrays = Array.isArray(body)
      ? [body]
      : body !== null && typeof body === "object"
        ? Object.values(body as Record<string, unknown>).filter(Array.isArray)
        : [];
    if (arrays.length !== 1) continue;
    const entities = (arrays[0] as unknown[])
      .slice(0, LIST_SAMPLE)
      .filter((e): e is Record<string, unknown> => e !== null && typeof e === "object" && !Array.isArray(e));
    if (entities.length === 0) continue;
    const segs = [...rec.segments];
    segs[segs.length - 1] = splitSuffix(segs[segs.length - 1]!).stem;
    const key = segs.join("/");
    const values = out.get(key) ?? new Set<string>();
    for (const field of Object.keys(entities[0]!)) {
      const vals = entities.map((e) => e[field]);
      if (!vals.every((v) => typeof v === "string" || (typeof v === "number" && Number.isInteger(v))))
        continue;
      const texts = vals.map(String);
      if (new Set(texts).size === texts.length) for (const t of texts) if (t !== "") values.add(t);
    }
    out.set(key, values);
  }
  return out;
}

/**
 * Paths every request of which the app answered 404 or 410, or a GET of it 400/422 (an id it would not parse, `/todos/abc`), as
 * segments joined by `/`: beside ids, such a segment is one more id of the route, not a route of its own.
 */
function missedPaths(api: ApiRecord[]): Set<string> {
  const missed = new Set<string>();
  const answered = new Set<string>();
  for (const rec of api) {
    const key = rec.segments.join("/");
    const unparsed = (rec.status === 400 || rec.status === 422) && rec.method === "GET";
    if (rec.status === 404 || rec.status === 410 || unparsed) missed.add(key);
    else answered.add(key);
  }
  for (const key of answered) missed.delete(key);
  return missed;
}

/**
 * What shows ids holding `/`: the values holding `/` that a list's entities hold in a unique field (a folder listing
 * showing `projects/a.ipynb`), or that a 2xx answer holds at its top level where its own path ends with them (the
 * entity names itself); and the paths whose answer holds their own last segment so (`/api/contents/todo.txt`
 * answering `{"path": "todo.txt"}`).
 */
function pathIdEvidence(
  api: ApiRecord[],
  keys: Map<string, Set<string>>,
): { pathIds: Set<string>; selfNamed: Set<string> } {
  const pathIds = new Set<string>();
  for (const values of keys.values()) for (const v of values) if (v.includes("/")) pathIds.add(v);
  const selfNamed = new Set<string>();
  for (const rec of api) {
    if (rec.status < 200 || rec.status >= 300 || rec.response.kind !== "json") continue;
    const body = rec.response.value;
    if (body === null || typeof body !== "object" || Array.isArray(body)) continue;
    const own = new Set(Object.values(body).filter((v): v is string => typeof v === "string"));
    const segs = rec.segments;
    for (let i = 1; i < segs.length; i++) {
      const tail = segs.slice(i).join("/");
      if (!own.has(tail)) continue;
      if (i < segs.length - 1) pathIds.add(tail);
      else selfNamed.add(segs.join("/"));
    }
  }
  return { pathIds, selfNamed };
}

/** How many 2xx bodies per path and method are kept to compare the shapes of siblings' answers. */
const ANSWER_SAMPLE = 3;

/**
 * What the 2xx JSON answers show of paths: a few bodies per path and method (word siblings whose sub-paths
 * answered alike are one parameter), and the paths whose answer holds the last segment's stem as a string value
 * at its top level or in the one object of an envelope (the entity names itself: `/wiki/Roadmap.json` answering
 * `{"wiki_page": {"title": "Roadmap"}}`).
 */
function answerEvidence(api: ApiRecord[]): {
  answers: Map<string, Map<string, unknown[]>>;
  stemNamed: Set<string>;
} {
  const answers = new Map<string, Map<string, unknown[]>>();
  const stemNamed = new Set<string>();
  for (const rec of api) {
    if (rec.status < 200 || rec.status >= 300 || rec.response.kind !== "json") continue;
    if (rec.query.length > 0 || rec.segments.length === 0) continue;
    const key = rec.segments.join("/");
    const body = rec.response.value;
    const byMethod = answers.get(key) ?? new Map<string, unknown[]>();
    answers.set(key, byMethod);
    const bodies = byMethod.get(rec.method) ?? [];
    byMethod.set(rec.method, bodies);
    if (bodies.length < ANSWER_SAMPLE) bodies.push(body);
    if (body === null || typeof body !== "object" || Array.isArray(body)) continue;
    const stem = splitSuffix(rec.segments[rec.segments.length - 1]!).stem;
    if (isIdShaped(stem)) continue;
    const top = Object.values(body as Record<string, unknown>);
    const inner = top.length === 1 && top[0] !== null && typeof top[0] === "object" && !Array.isArray(top[0]);
    const values = inner ? Object.values(top[0] as Record<string, unknown>) : top;
    if (values.includes(stem)) stemNamed.add(key);
  }
  return { answers, stemNamed };
}

/** Places every record in its endpoint; endpoints come back sorted by tool name. */
export function indexEndpoints(api: ApiRecord[]): { groups: EndpointGroup[]; observations: Observation[] } {
  const paths = new Map<string, string[]>();
  for (const rec of api) paths.set(rec.segments.join("/"), rec.segments);
  // Bodies are scanned for id values only when some path has varying siblings that are not ids by shape.
  const idValues = new Set<string>();
  if (hasVaryingWords(paths.values()))
    for (const rec of api) {
      if (rec.method !== "GET" && rec.method !== "POST") continue;
      if (rec.response.kind === "json") collectIdValues(rec.response.value, idValues);
      if (rec.request.kind === "json") collectIdValues(rec.request.value, idValues);
    }
  const keysByList = listKeys(api);
  const templater = buildTemplater(paths.values(), {
    idValues,
    keysByList,
    missed: missedPaths(api),
    ...pathIdEvidence(api, keysByList),
    ...answerEvidence(api),
  });
  const byKey = new Map<string, EndpointGroup>();
  const observations: Observation[] = [];
  for (const rec of api) {
    const t = templater(rec.segments);
    const key = `${t.template} ${rec.method}`;
    let group = byKey.get(key);
    if (!group) {
      group = {
        key,
        method: rec.method,
        template: t.template,
        literals: t.literals,
        params: t.params,
        suffixes: t.suffixes,
        multi: t.multi,
        toolName: toolName(rec.method, t.literals, t.params),
        observations: [],
      };
      byKey.set(key, group);
    }
    const pathParams: Record<string, string> = {};
    let p = 0;
    t.literals.forEach((lit, i) => {
      if (lit !== null) return;
      const seg = t.segments[i]!;
      const suffix = t.suffixes[p] ?? "";
      pathParams[t.params[p++]!] = suffix === "" ? seg : seg.slice(0, -suffix.length);
    });
    // Written out, not spread (`{...rec, endpoint, pathParams}`): V8 gave every spread copy a hidden class of its own,
    // some 400 bytes an observation (40 MB at 100k records). The same keys, in the same order.
    const obs: Observation = {
      index: rec.index,
      record: rec.record,
      method: rec.method,
      segments: rec.segments,
      query: rec.query,
      pathAndQuery: rec.pathAndQuery,
      time: rec.time,
      status: rec.status,
      contentType: rec.contentType,
      request: rec.request,
      response: rec.response,
      endpoint: group,
      pathParams,
    };
    group.observations.push(obs);
    observations.push(obs);
  }
  const names = uniqueToolNames([...byKey.values()].map((g) => ({ key: g.key, name: g.toolName })));
  for (const g of byKey.values()) g.toolName = names.get(g.key)!;
  const groups = [...byKey.values()].sort((a, b) =>
    a.toolName < b.toolName ? -1 : a.toolName > b.toolName ? 1 : 0,
  );
  return { groups, observations };
}
