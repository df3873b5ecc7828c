/**
 * Evidence → HAR 1.2, for DevTools and other HAR tools. What HAR cannot say
 * (seq, step, initiator, failure, origin, body sizes and truncation, a
 * missing response or time) rides along as `_apptwin` on each entry, so
 * importing the export gives the same records. Same evidence, same HAR.
 */
import { APPTWIN_VERSION } from "../version.js";
import type { Body, Evidence, EvidenceRecord } from "./evidence-schema.js";
import type { HarApptwin } from "./har-schema.js";

function bodyMeta(b: Body | null): HarApptwin["request_body"] {
  return b === null
    ? null
    : { encoding: b.encoding, size: b.size, truncated: b.truncated, mime_type: b.mime_type };
}

/**
 * The query of a URL as HAR name/value pairs, written as the URL writes them
 * (percent-encoded, as Chrome's DevTools exports them), never decoded: the
 * URL is what redaction saw, so decoding could only reveal what it did not.
 */
function queryString(url: string): { name: string; value: string }[] {
  const query = /\?([^#]*)/.exec(url)?.[1];
  if (!query) return [];
  return query
    .split("&")
    .filter((pair) => pair !== "")
    .map((pair) => {
      const eq = pair.indexOf("=");
      return eq < 0 ? { name: pair, value: "" } : { name: pair.slice(0, eq), value: pair.slice(eq + 1) };
    });
}

function entryOf(r: EvidenceRecord): Record<string, unknown> {
  const apptwin: HarApptwin = {
    seq: r.seq,
    step_id: r.step_id,
    initiator: r.initiator,
    resource_type: r.resource_type,
    failure: r.failure,
    origin: r.origin,
    started_at: r.started_at,
    duration_ms: r.duration_ms,
    has_response: r.response !== null,
    request_body: bodyMeta(r.request.body),
    response_body: bodyMeta(r.response?.body ?? null),
  };
  const req = r.request;
  const res = r.response;
  const time = r.duration_ms ?? 0;
  return {
    startedDateTime: new Date(r.started_at ?? 0).toISOString(),
    time,
    request: {
      method: req.method,
      url: req.url,
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: req.headers,
      queryString: queryString(req.url),
      ...(req.body
        ? {
            postData: {
              mimeType: req.body.mime_type ?? "",
              text: req.body.text,
              ...(req.body.encoding === "base64" ? { encoding: "base64" } : {}),
            },
          }
        : {}),
      headersSize: -1,
      bodySize: req.body ? req.body.size : 0,
    },
    response: {
      status: res ? res.status : 0,
      statusText: res ? res.status_text : "",
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: res ? res.headers : [],
      content: {
        size: res?.body ? res.body.size : 0,
        mimeType: res?.body?.mime_type ?? "",
        ...(res?.body ? { text: res.body.text } : {}),
        ...(res?.body?.encoding === "base64" ? { encoding: "base64" } : {}),
      },
      redirectURL: res?.redirect_to ?? "",
      headersSize: -1,
      bodySize: res?.body ? res.body.size : -1,
      ...(r.failure ? { _error: r.failure.message } : {}),
    },
    cache: {},
    timings: { send: 0, wait: time, receive: 0 },
    _resourceType: r.resource_type,
    _apptwin: apptwin,
  };
}

/** Converts evidence to a HAR 1.2 document that har-validator accepts; deterministic. */
export function evidenceToHar(e: Evidence): object {
  return {
    log: {
      version: "1.2",
      creator: { name: "apptwin", version: APPTWIN_VERSION },
      ...(e.browser ? { browser: { name: e.browser.product, version: e.browser.version } } : {}),
      pages: [],
      entries: [...e.records].sort((a, b) => a.seq - b.seq).map(entryOf),
      comment: `apptwin evidence ${e.evidence_id} of ${e.app_origin}`,
      _apptwin: { app_origin: e.app_origin, evidence_id: e.evidence_id },
    },
  };
}
