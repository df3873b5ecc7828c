/**
 * Picks the records learning uses out of an Evidence: app-origin API
 * transactions with a response (XHR/fetch, any non-GET, or a request step),
 * with bodies parsed once. Assets and failures are counted, not learned;
 * truncated and non-JSON API answers become warnings, never crashes.
 */

import { ASSET_TYPES, PAGE_ASSET_TYPES } from "../evidence/asset-types.js";
import type { Body, Evidence, EvidenceRecord } from "../evidence/evidence-schema.js";
import { appendTo } from "../util/append-to.js";
import { MAX_JSON_DEPTH, parseJsonWithin } from "../util/json-depth.js";
import { escapePointerToken } from "../util/json-pointer.js";
import { JsonPool } from "../util/json-pool.js";
import { isLoopbackAlias, loopbackAliasNote } from "../util/loopback-alias.js";
import { safeDecode } from "../util/safe-decode.js";
import { isRedactionMarker } from "./value-kinds.js";

/** A parsed body: JSON, a url-encoded form (object of strings), none, or something learning cannot read. */
export type ParsedBody =
  | { kind: "json"; value: unknown }
  | { kind: "form"; value: Record<string, string> }
  | { kind: "none" }
  | { kind: "unsupported"; mime: string | null; tooDeep?: true }
  | { kind: "truncated" };

/** One API transaction, ready for learning. */
export interface ApiRecord {
  /** Index into `evidence.records` (for pointers). */
  index: number;
  record: EvidenceRecord;
  method: string;
  /** Decoded path segments, without empty ones. */
  segments: string[];
  /** Query entries in order. */
  query: [string, string][];
  /** The raw path + query as sent, e.g. `/api/items?done=true`. */
  pathAndQuery: string;
  time: number | null;
  status: number;
  contentType: string | null;
  request: ParsedBody;
  response: ParsedBody;
}

/** A warning found while reading records, with a JSON pointer into the evidence. */
export interface LearnWarning {
  code: string;
  message: string;
  pointer: string | null;
}

/** Resource types that are static assets (kept aside from the API; bundled for the browsable twin): the Evidence contract's one list. */
export { ASSET_TYPES };

function header(headers: { name: string; value: string }[], name: string): string | null {
  for (const h of headers) if (h.name.toLowerCase() === name) return h.value;
  return null;
}

/**
 * Parses a body by its declared type: JSON (by mime or by shape), url-encoded form, or unsupported. With a
 * pool, a JSON value shares (frozen) every part equal to one the pool already holds.
 */
export function parseBody(body: Body | null, contentType: string | null, pool?: JsonPool): ParsedBody {
  if (body === null || (body.text === "" && body.size === 0)) return { kind: "none" };
  if (body.truncated) return { kind: "truncated" };
  const mime = (contentType ?? body.mime_type ?? "").split(";")[0]!.trim().toLowerCase();
  if (body.encoding === "utf8" && mime === "application/x-www-form-urlencoded") {
    const value: Record<string, string> = {};
    for (const [k, v] of new URLSearchParams(body.text)) value[k] = v;
    return { kind: "form", value };
  }
  if (body.encoding === "utf8" && (mime === "" || mime.includes("json") || mime.startsWith("text/plain"))) {
    // Nested past the limit, a body stays opaque text: parsing it would hand every walk a stack overflow.
    const parsed = parseJsonWithin(body.text);
    if (parsed.ok) return { kind: "json", value: pool ? pool.share(parsed.value) : parsed.value };
    return {
      kind: "unsupported",
      mime: mime || null,
      ...(parsed.why === "too_deep" ? { tooDeep: true as const } : {}),
    };
  }
  return { kind: "unsupported", mime: mime || null };
}

/** Splits the evidence into API records (learned), asset and ignored counts, and warnings. */
export function selectApiRecords(evidence: Evidence): {
  api: ApiRecord[];
  assets: number;
  ignored: number;
  warnings: LearnWarning[];
} {
  const api: ApiRecord[] = [];
  const warnings: LearnWarning[] = [];
  let assets = 0;
  let ignored = 0;
  const seenMarkers = new Set<string>();
  /** Records sent to the app's machine and port under another host name (localhost for 127.0.0.1): other origins. */
  const aliases = new Map<string, number[]>();
  // A recording answers the same entities again and again: their parsed values are held once.
  const pool = new JsonPool();
  evidence.records.forEach((record, index) => {
    let url: URL;
    try {
      url = new URL(record.request.url);
    } catch {
      ignored++;
      return;
    }
    const method = record.request.method.toUpperCase();
    const isApi =
      record.resource_type === "xhr" ||
      record.resource_type === "fetch" ||
      record.initiator === "request-step" ||
      (method !== "GET" && method !== "HEAD");
    if (url.origin !== evidence.app_origin && isLoopbackAlias(url.origin, evidence.app_origin))
      appendTo(aliases, url.origin, index);
    // A 304 is the browser's cache answering: no body, and nothing the twin (which has no cache) should say.
    if (
      url.origin !== evidence.app_origin ||
      record.response === null ||
      record.failure !== null ||
      record.response.status === 304
    ) {
      ignored++;
      return;
    }
    const isRead = method === "GET" || method === "HEAD";
    if (isRead && ASSET_TYPES.has(record.resource_type) && record.initiator === "page") {
      assets++;
      const body = record.response.body;
      if (body?.truncated && PAGE_ASSET_TYPES.has(record.resource_type))
        warnings.push({
          code: "asset_truncated",
          message: `the twin's UI will not load: the ${record.resource_type} ${record.request.url} was cut at the recording's limit (${body.size} bytes in full), so it is not served; capture again with a larger limits.max_asset_bytes`,
          pointer: `/records/${index}/response/body`,
        });
      return;
    }
    if (!isApi) {
      ignored++;
      return;
    }
    const reqType = header(record.request.headers, "content-type");
    const resType = header(record.response.headers, "content-type");
    const request = parseBody(record.request.body, reqType, pool);
    const response = parseBody(record.response.body, resType, pool);
    const at = `/records/${index}`;
    if (request.kind === "truncated")
      warnings.push({
        code: "truncated_body",
        message: "request body was truncated",
        pointer: `${at}/request/body`,
      });
    if (response.kind === "truncated")
      warnings.push({
        code: "truncated_body",
        message: "response body was truncated",
        pointer: `${at}/response/body`,
      });
    for (const [side, parsed] of [
      ["request", request],
      ["response", response],
    ] as const)
      if (parsed.kind === "unsupported" && parsed.tooDeep)
        warnings.push({
          code: "body_too_deep",
          message: `the ${side} body of ${method} ${url.pathname} nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep; it is kept as opaque text, never parsed (nothing is learned from its fields)`,
          pointer: `${at}/${side}/body`,
        });
    if (response.kind === "unsupported" && !response.tooDeep && record.response.body?.encoding === "utf8")
      warnings.push({
        code: "non_json_response",
        message: `${method} ${url.pathname} answered ${response.mime ?? "an untyped body"} that is not JSON`,
        pointer: `${at}/response/body`,
      });
    for (const side of ["request", "response"] as const) {
      const parsed = side === "request" ? request : response;
      if (parsed.kind === "json" || parsed.kind === "form")
        noteMarkers(parsed.value, `${at}/${side}/body`, `${side}:`, seenMarkers, warnings);
    }
    api.push({
      index,
      record,
      method,
      segments: url.pathname
        .split("/")
        .filter((s) => s !== "")
        .map(safeDecode),
      query: [...url.searchParams.entries()],
      pathAndQuery: url.pathname + url.search,
      time: record.started_at,
      status: record.response.status,
      contentType: resType,
      request,
      response,
    });
  });
  for (const [origin, indexes] of aliases)
    warnings.push({
      code: "origin_alias",
      message: `${indexes.length} record${indexes.length === 1 ? "" : "s"} went to ${origin}, not the app's origin ${evidence.app_origin}; ${indexes.length === 1 ? "it was" : "they were"} not learned${loopbackAliasNote(origin, evidence.app_origin)}`,
      pointer: `/records/${indexes[0]}`,
    });
  return { api, assets, ignored, warnings };
}

/** Notes every redacted field (one warning per field) so nothing is learned from a marker silently. */
function noteMarkers(
  value: unknown,
  pointer: string,
  scope: string,
  seen: Set<string>,
  out: LearnWarning[],
  depth = 0,
): void {
  if (depth > 3 || value === null || typeof value !== "object" || Array.isArray(value)) return;
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const p = `${pointer}/${escapePointerToken(k)}`;
    if (isRedactionMarker(v)) {
      if (seen.has(scope + k)) continue;
      seen.add(scope + k);
      out.push({
        code: "redacted_field",
        message: `field "${k}" is redacted (${v}); it is never learned as a value`,
        pointer: p,
      });
    } else noteMarkers(v, p, `${scope}${k}/`, seen, out, depth + 1);
  }
}
