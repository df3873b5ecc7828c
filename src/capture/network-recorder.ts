/**
 * Records every HTTP transaction of a capture in the order the browser
 * started them, and enforces confinement on the way out: one context-wide
 * route refuses writes to other origins and top-level navigations off the
 * allowed origins, a WebSocket route refuses sockets to any origin but the
 * app's (Playwright's in-page WebSocket shim: it does not reach workers, so the
 * runner also watches the sockets Chromium opens), and strips the marker header that identifies request-step
 * fetches (so the server never sees it). Raw values stay in memory only; the
 * runner redacts before anything is written.
 */
import type { BrowserContext, Request, Route, WebSocketRoute } from "playwright-core";
import type { EvidenceRecord, Failure, ResourceType } from "../evidence/evidence-schema.js";
import { captureBody, mimeOf } from "./body-capture.js";
import type { NetworkProbe, RedirectAnswer } from "./network-probe.js";
import {
  escapedRedirect,
  type OriginPolicy,
  refusedNavigation,
  refusedWebSocket,
  refusedWrite,
} from "./origin-policy.js";

/** The header a request step adds to its fetch; removed before the request leaves the browser. */
export const REQUEST_STEP_MARKER = "x-apptwin-request-step";

const RESOURCE_TYPES = new Set<ResourceType>([
  "document",
  "xhr",
  "fetch",
  "script",
  "stylesheet",
  "image",
  "font",
  "media",
  "websocket",
  "manifest",
]);

interface Entry {
  seq: number;
  stepId: string | null;
  /** Null for a refused WebSocket, which never became a browser request (its record is built at once). */
  request: Request | null;
  marker: string | null;
  record: EvidenceRecord | null;
  done: Promise<void> | null;
}

/** What the recorder needs from the runner. */
export interface RecorderOptions extends OriginPolicy {
  maxBodyBytes: number;
  /** The step running now (records started now belong to it). */
  currentStep(): string | null;
  /** Called when confinement fails the current step (navigation or redirect off the allowed origins). */
  onViolation(stepId: string | null, message: string): void;
}

/** The network recorder of one capture; attach once, read `records()` at the end. */
export class NetworkRecorder {
  private readonly entries: Entry[] = [];
  private readonly byRequest = new Map<Request, Entry>();
  private readonly refused = new WeakMap<Request, string>();
  private readonly redirectRefused = new Map<string, RedirectAnswer | null>();
  private probe: NetworkProbe | null = null;
  private approxBytes = 0;

  constructor(private readonly options: RecorderOptions) {}

  /** Installs the confinement route and the request listeners on the context. */
  async attach(context: BrowserContext): Promise<void> {
    context.on("request", (r) => this.onRequest(r));
    context.on("requestfinished", (r) => this.finish(r));
    context.on("requestfailed", (r) => this.finish(r));
    await context.route("**/*", (route) => this.onRoute(route));
    await context.routeWebSocket(
      () => true,
      (ws) => this.onWebSocket(ws),
    );
  }

  /** Uses the probe's copies of fetch/XHR bodies, which survive the page navigating away. */
  useProbe(probe: NetworkProbe): void {
    this.probe = probe;
  }

  /** The number of transactions seen so far (the next record's seq). */
  get count(): number {
    return this.entries.length;
  }

  /** A rough size of what has been recorded, to enforce `max_evidence_bytes` while running. */
  get recordedBytes(): number {
    return this.approxBytes;
  }

  /** The finished records with seq >= `from`, in order (unfinished ones are left out). */
  finishedSince(from: number): EvidenceRecord[] {
    return this.entries.slice(from).flatMap((e) => (e.record ? [e.record] : []));
  }

  /** True once a request carrying this request-step marker was started by the browser. */
  sawMarker(marker: string): boolean {
    return this.entries.some((e) => e.marker === marker);
  }

  /** Marks the request-step fetch carrying this marker as a refused redirect, with the answer Chromium saw. */
  refuseRedirect(marker: string, answer: RedirectAnswer | null): void {
    this.redirectRefused.set(marker, answer);
  }

  /** Waits for every transaction in flight, closes the rest as unfinished, and returns all records in order. */
  async records(): Promise<EvidenceRecord[]> {
    await Promise.all(this.entries.map((e) => e.done));
    for (const e of this.entries) {
      if (!e.record)
        e.record = await this.build(e, {
          kind: "aborted",
          message: "the capture ended before this transaction finished",
        });
    }
    for (const e of this.entries) {
      if (e.marker === null || !e.record || !this.redirectRefused.has(e.marker)) continue;
      const answer = this.redirectRefused.get(e.marker);
      e.record.failure = { kind: "redirect_refused", message: "request steps never follow redirects" };
      if (answer && !e.record.response) {
        e.record.response = {
          status: answer.status,
          status_text: "",
          headers: answer.headers,
          body: null,
          redirect_to: answer.location,
        };
      }
    }
    return this.entries.map((e) => e.record!);
  }

  private onRequest(request: Request): void {
    const marker = request.headers()[REQUEST_STEP_MARKER] ?? null;
    const entry: Entry = {
      seq: this.entries.length,
      stepId: this.options.currentStep(),
      request,
      marker,
      record: null,
      done: null,
    };
    this.entries.push(entry);
    this.byRequest.set(request, entry);
    const from = request.redirectedFrom();
    if (from) {
      const message = escapedRedirect(this.options, from.url(), request.url());
      if (message) this.options.onViolation(entry.stepId, message);
    }
  }

  private onWebSocket(ws: WebSocketRoute): void {
    const url = ws.url();
    const refusal = refusedWebSocket(this.options, url);
    if (refusal === null) {
      // Frames pass through unrecorded (a limitation the runner notes).
      ws.connectToServer();
      return;
    }
    const seq = this.entries.length;
    this.entries.push({
      seq,
      stepId: this.options.currentStep(),
      request: null,
      marker: null,
      done: null,
      record: {
        seq,
        step_id: this.options.currentStep(),
        started_at: Date.now(),
        duration_ms: null,
        resource_type: "websocket",
        initiator: "page",
        request: { method: "GET", url, headers: [], body: null },
        response: null,
        failure: { kind: "refused", message: refusal },
        origin: null,
      },
    });
    this.approxBytes += 512;
    ws.close({ code: 1008, reason: "refused by apptwin" }).catch(() => undefined);
  }

  private async onRoute(route: Route): Promise<void> {
    const request = route.request();
    const write = refusedWrite(this.options, request.method(), request.url());
    const navigation = isTopLevelNavigation(request) ? refusedNavigation(this.options, request.url()) : null;
    const refusal = write ?? navigation;
    if (refusal) {
      this.refused.set(request, refusal);
      if (navigation) this.options.onViolation(this.options.currentStep(), navigation);
      // A refused navigation (a form posted away, a link off the allowed
      // origins) is answered 204 in the browser, never sent: the page stays
      // where it was. Aborting it instead loads Chromium's error page, whose
      // late navigation could interrupt the scenario's next step.
      if (request.isNavigationRequest())
        await route.fulfill({ status: 204, body: "" }).catch(() => undefined);
      else await route.abort("blockedbyclient").catch(() => undefined);
      return;
    }
    const headers = request.headers();
    if (headers[REQUEST_STEP_MARKER] !== undefined) {
      const { [REQUEST_STEP_MARKER]: _, ...rest } = headers;
      await route.continue({ headers: rest }).catch(() => undefined);
      return;
    }
    await route.continue().catch(() => undefined);
  }

  private finish(request: Request): void {
    const entry = this.byRequest.get(request);
    if (!entry || entry.done) return;
    const failure = request.failure();
    const refusal = this.refused.get(request);
    const f: Failure | null = refusal
      ? { kind: "refused", message: refusal }
      : failure
        ? { kind: failureKind(failure.errorText), message: failure.errorText }
        : null;
    // Ask for the body at once: once the page navigates away, Chromium forgets it.
    const response = f ? null : request.existingResponse();
    const status = response?.status() ?? 0;
    const kept = response ? (this.probe?.takeBody(request.method(), request.url()) ?? null) : null;
    const body =
      kept !== null
        ? Promise.resolve(kept)
        : response && (status < 300 || status >= 400)
          ? response.body().catch(() => null)
          : null;
    entry.done = this.build(entry, f, body).then((record) => {
      entry.record = record;
    });
  }

  private async build(
    entry: Entry,
    failure: Failure | null,
    earlyBody: Promise<Buffer | null> | null = null,
  ): Promise<EvidenceRecord> {
    const request = entry.request!;
    const max = this.options.maxBodyBytes;
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
      const bytes = redirect ? null : await (earlyBody ?? response.body().catch(() => null));
      evidenceResponse = {
        status,
        status_text: response.statusText(),
        headers,
        body: bytes && bytes.length > 0 ? captureBody(bytes, mime, max) : null,
        redirect_to: redirect
          ? (headers.find((h) => h.name.toLowerCase() === "location")?.value ?? null)
          : null,
      };
    }
    const timing = request.timing();
    const record: EvidenceRecord = {
      seq: entry.seq,
      step_id: entry.stepId,
      started_at: timing.startTime > 0 ? timing.startTime : null,
      duration_ms: timing.responseEnd >= 0 ? Math.round(timing.responseEnd * 1000) / 1000 : null,
      resource_type: toResourceType(request.resourceType()),
      initiator: entry.marker !== null ? "request-step" : "page",
      request: { method: request.method(), url: request.url(), headers: reqHeaders, body: reqBody },
      response: evidenceResponse,
      failure,
      origin: null,
    };
    this.approxBytes += 512 + (reqBody?.text.length ?? 0) + (evidenceResponse?.body?.text.length ?? 0);
    return record;
  }
}

function isTopLevelNavigation(request: Request): boolean {
  if (!request.isNavigationRequest()) return false;
  try {
    return request.frame().parentFrame() === null;
  } catch {
    // A navigation issued before its frame exists is a new top-level page (a popup).
    return true;
  }
}

function toResourceType(t: string): ResourceType {
  return RESOURCE_TYPES.has(t as ResourceType) ? (t as ResourceType) : "other";
}

function failureKind(errorText: string): Failure["kind"] {
  if (/TIMED_OUT/i.test(errorText)) return "timeout";
  if (/ERR_ABORTED|ERR_BLOCKED/i.test(errorText)) return "aborted";
  return "network";
}
