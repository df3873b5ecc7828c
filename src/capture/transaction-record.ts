/**
 * Turns one browser transaction into an Evidence record: request and response
 * headers and bodies (bounded), timing, resource type, initiator and failure.
 * Kept apart from the recorder, which decides order and confinement: this
 * file changes when the Evidence record does.
 */
import type { Request } from "playwright-core";
import {
  type EvidenceRecord,
  type Failure,
  type ResourceType,
  ResourceTypeSchema,
} from "../evidence/evidence-schema.js";
import { captureBody, mimeOf } from "./body-capture.js";
import type { RedirectAnswer } from "./network-probe.js";

/** The header a request step adds to its fetch; removed before the request leaves the browser. */
export const REQUEST_STEP_MARKER = "x-apptwin-request-step";

const RESOURCE_TYPES = new Set<string>(ResourceTypeSchema.options);

/** What a transaction's record is built from. */
export interface TransactionInput {
  seq: number;
  stepId: string | null;
  request: Request;
  /** The request-step marker the request carried, or null for the page's own requests. */
  marker: string | null;
  failure: Failure | null;
  /** The most bytes kept of the request body. */
  maxBodyBytes: number;
  /** The most bytes kept of the response body (an asset's limit or the API one). */
  maxResponseBytes: number;
  /** A body read early (before the page navigated away), used instead of asking Chromium again. */
  earlyBody?: Promise<Buffer | null> | null;
}

/** Builds the Evidence record of a finished (or failed, or unfinished) browser request. */
export async function transactionRecord(input: TransactionInput): Promise<EvidenceRecord> {
  const { request, failure } = input;
  const max = input.maxBodyBytes;
  const reqHeaders = (await request.headersArray().catch(() => [])).filter(
    (h) => h.name.toLowerCase() !== REQUEST_STEP_MARKER,
  );
  const reqMime = mimeOf(reqHeaders.find((h) => h.name.toLowerCase() === "content-type")?.value);
  const reqBody = captureBody(request.postDataBuffer(), reqMime, max);
  const response = failure ? null : await request.response().catch(() => null);
  let evidenceResponse: EvidenceRecord["response"] = null;
  if (response) {
    const headers = await response.headersArray().catch(() => []);
    const mime = mimeOf(headers.find((h) => h.name.toLowerCase() === "content-type")?.value);
    const status = response.status();
    const redirect = status >= 300 && status < 400;
    const bytes = redirect ? null : await (input.earlyBody ?? response.body().catch(() => null));
    evidenceResponse = {
      status,
      status_text: response.statusText(),
      headers,
      body: bytes && bytes.length > 0 ? captureBody(bytes, mime, input.maxResponseBytes) : null,
      redirect_to: redirect
        ? (headers.find((h) => h.name.toLowerCase() === "location")?.value ?? null)
        : null,
    };
  }
  const timing = request.timing();
  return {
    seq: input.seq,
    step_id: input.stepId,
    started_at: timing.startTime > 0 ? timing.startTime : null,
    duration_ms: timing.responseEnd >= 0 ? Math.round(timing.responseEnd * 1000) / 1000 : null,
    resource_type: toResourceType(request.resourceType()),
    initiator: input.marker !== null ? "request-step" : "page",
    request: { method: request.method(), url: request.url(), headers: reqHeaders, body: reqBody },
    response: evidenceResponse,
    failure,
    origin: null,
  };
}

/** The record of a WebSocket refused before it opened (it never became a browser request). */
export function refusedWebSocketRecord(
  seq: number,
  stepId: string | null,
  url: string,
  refusal: string,
  startedAt: number,
): EvidenceRecord {
  return {
    seq,
    step_id: stepId,
    started_at: startedAt,
    duration_ms: null,
    resource_type: "websocket",
    initiator: "page",
    request: { method: "GET", url, headers: [], body: null },
    response: null,
    failure: { kind: "refused", message: refusal },
    origin: null,
  };
}

/** Marks a record as a refused redirect (a request step's, by default), filling in the answer seen when it has no response. */
export function markRedirectRefused(
  record: EvidenceRecord,
  answer: RedirectAnswer | null | undefined,
  message = "request steps never follow redirects",
): void {
  record.failure = { kind: "redirect_refused", message };
  if (answer && !record.response) {
    record.response = {
      status: answer.status,
      status_text: "",
      headers: answer.headers,
      body: null,
      redirect_to: answer.location,
    };
  }
}

/** The failure of a finished request: refused by confinement, or what the browser reported, or none. */
export function requestFailure(request: Request, refusal: string | undefined): Failure | null {
  const failure = request.failure();
  return refusal
    ? { kind: "refused", message: refusal }
    : failure
      ? { kind: failureKind(failure.errorText), message: failure.errorText }
      : null;
}

/** A rough size of a record, to enforce `max_evidence_bytes` while running; a `shared` answer body (stored once already) costs nothing. */
export function approxRecordBytes(record: EvidenceRecord, shared = false): number {
  const answer = shared ? 0 : (record.response?.body?.text.length ?? 0);
  return 512 + (record.request.body?.text.length ?? 0) + answer;
}

function toResourceType(t: string): ResourceType {
  return RESOURCE_TYPES.has(t) ? (t as ResourceType) : "other";
}

function failureKind(errorText: string): Failure["kind"] {
  if (/TIMED_OUT/i.test(errorText)) return "timeout";
  if (/ERR_ABORTED|ERR_BLOCKED/i.test(errorText)) return "aborted";
  return "network";
}
