/**
 * Fidelity: replays the API requests of a held-out recording, in order, on a
 * fresh episode of the twin and compares each answer with the real app's
 * (status, then body up to clock fields, redaction markers and the ids each
 * side assigned). The match rate per tool is how a twin is judged.
 */
import { isRecord } from "../errors/document-issue.js";
import type { Evidence } from "../evidence/evidence-schema.js";
import { type ApiRecord, selectApiRecords } from "../learn/api-records.js";
import type { Model, SeedState } from "../model/model-schema.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";
import { matchRoute } from "../serve/runtime/route-table.js";
import type { TwinResponse } from "../serve/runtime/twin-types.js";
import { compareValues, type FieldDifference } from "./compare-values.js";
import { IdMap, IdScopes, idPlaces, sentKey } from "./id-map.js";
import { type IdContext, requestLabel, twinRequestFor } from "./twin-request.js";

/** One held-out request and whether the twin answered it like the app. */
export interface FidelityResult {
  /** Index of the record in the held-out evidence. */
  index: number;
  tool: string;
  request: string;
  served_by: TwinResponse["served_by"];
  status: { expected: number; got: number };
  matched: boolean;
  differences: FieldDifference[];
  /** Why the twin did not answer as the app would, when its answer was an explained miss or a withheld write: `<error>: <message>`. */
  twin_explanation: string | null;
}

/** The whole comparison: overall and per-tool match rates, every result, and the first differences. */
export interface FidelityReport {
  evidence_id: string;
  requests: number;
  matched: number;
  /** matched / requests, 0 when there was nothing to compare. */
  score: number;
  tools: { tool: string; requests: number; matched: number; score: number }[];
  results: FidelityResult[];
  /** The first differences in request order, each with its tool and request. */
  differences: (FieldDifference & { index: number; tool: string; request: string })[];
}

/** The tool name for requests no route of the model serves. */
export const NO_ROUTE = "(no route)";

/**
 * Every value the real request carried (path segments, query and form values, JSON leaves), as {@link sentKey}s:
 * a value under a key naming a collection (`issue_id`, `project_id`) in that collection's scope, any other in
 * every scope.
 */
function sentValues(rec: ApiRecord, scopes: IdScopes): Set<string> {
  const out = new Set<string>();
  const add = (key: string | null, v: string) => {
    if (v === "") return;
    const stem = key === null || /^(id|uuid|_id)$/.test(key) ? null : scopes.ofKey(key);
    out.add(sentKey(stem, v));
  };
  for (const seg of rec.segments) add(null, seg);
  for (const [k, v] of rec.query) add(k, v);
  const walk = (v: unknown, key: string | null, depth: number): void => {
    if (depth > 16) return;
    if (Array.isArray(v)) for (const x of v) walk(x, key, depth + 1);
    else if (v !== null && typeof v === "object")
      for (const [k, x] of Object.entries(v)) walk(x, k, depth + 1);
    else if (typeof v === "string" || typeof v === "number") add(key, String(v));
  };
  if (rec.request.kind === "json" || rec.request.kind === "form") walk(rec.request.value, null, 0);
  return out;
}

function compareBody(
  rec: ApiRecord,
  res: TwinResponse,
  ctx: IdContext,
  collection: string | null,
  out: FieldDifference[],
): void {
  const { ids, scopes } = ctx;
  const got = res.body;
  const exp = rec.response;
  if (exp.kind === "none") {
    const empty = got === null || (got.kind !== "json" && got.text === "");
    if (!empty) out.push({ field: "body", expected: null, got: got.kind === "json" ? got.value : got.text });
    return;
  }
  if (exp.kind === "json" || exp.kind === "form") {
    if (got?.kind !== "json") {
      out.push({ field: "body", expected: exp.value, got: got === null ? null : got.text });
      return;
    }
    const writes = rec.method !== "GET" && rec.method !== "HEAD";
    const sent = writes ? sentValues(rec, scopes) : new Set<string>();
    // Generated UUIDs are paired before comparing; any other differing id is a real difference.
    if (writes) ids.learn(exp.value, got.value, "generated", collection, scopes, sent);
    const places = new Map(idPlaces(exp.value, collection, scopes).map((p) => [p.path, p.scope]));
    compareValues(exp.value, got.value, "body", { ids, scopes: places }, out);
    if (writes) ids.learn(exp.value, got.value, "assigned", collection, scopes, sent);
    return;
  }
  const text = rec.record.response?.body?.text ?? "";
  const gotText = got === null ? "" : got.kind === "json" ? JSON.stringify(got.value) : got.text;
  if (text !== gotText) out.push({ field: "body", expected: text, got: gotText });
}

/** The `<error>: <message>` of the twin's explained answer (a miss or a withheld write), else null. */
function explanationOf(res: TwinResponse): string | null {
  if (res.served_by !== "miss" && res.served_by !== "withheld" && res.served_by !== "refused") return null;
  if (res.body === null || res.body.kind !== "json" || !isRecord(res.body.value)) return null;
  const { error, message } = res.body.value;
  if (typeof error !== "string") return null;
  return typeof message === "string" ? `${error}: ${message}` : error;
}

/** Runs the held-out evidence against a fresh episode of the model and scores each answer. */
export function runFidelity(input: {
  model: Model;
  seed: SeedState;
  heldout: Evidence;
  maxDifferences?: number;
}): FidelityReport {
  const { model, seed, heldout } = input;
  const max = input.maxDifferences ?? 20;
  const episode = createEpisode(model, seed, { episodeId: "fidelity" });
  const ids: IdContext = { ids: new IdMap(), scopes: new IdScopes(model), model };
  const results: FidelityResult[] = [];
  for (const rec of selectApiRecords(heldout).api) {
    const req = twinRequestFor(rec, ids);
    const endpoint = matchRoute(model, req.method, req.path)?.route.endpoint;
    const tool = endpoint?.tool_name ?? NO_ROUTE;
    const res = handleRequest(model, episode, req);
    const differences: FieldDifference[] = [];
    if (res.status !== rec.status)
      differences.push({ field: "status", expected: rec.status, got: res.status });
    else compareBody(rec, res, ids, endpoint?.collection ?? null, differences);
    results.push({
      index: rec.index,
      tool,
      request: requestLabel(rec),
      served_by: res.served_by,
      status: { expected: rec.status, got: res.status },
      matched: differences.length === 0,
      differences,
      twin_explanation: differences.length === 0 ? null : explanationOf(res),
    });
  }
  const byTool = new Map<string, { requests: number; matched: number }>();
  for (const r of results) {
    const t = byTool.get(r.tool) ?? { requests: 0, matched: 0 };
    t.requests++;
    if (r.matched) t.matched++;
    byTool.set(r.tool, t);
  }
  const matched = results.filter((r) => r.matched).length;
  return {
    evidence_id: heldout.evidence_id,
    requests: results.length,
    matched,
    score: results.length === 0 ? 0 : matched / results.length,
    tools: [...byTool]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([tool, t]) => ({ tool, ...t, score: t.matched / t.requests })),
    results,
    differences: results
      .flatMap((r) => r.differences.map((d) => ({ index: r.index, tool: r.tool, request: r.request, ...d })))
      .slice(0, max),
  };
}
