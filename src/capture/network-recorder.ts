/**
 * Records every HTTP transaction of a capture in the order the browser
 * started them, and enforces confinement on the way out: one context-wide
 * route refuses writes to other origins and top-level navigations off the
 * allowed origins (confinement-route.ts), a WebSocket route refuses sockets to
 * any origin but the app's (Playwright's in-page WebSocket shim: it does not
 * reach workers, so the runner also watches the sockets Chromium opens), and
 * the marker header that identifies request-step fetches is stripped (so the
 * server never sees it). Each record is built by transaction-record.ts. Raw
 * values stay in memory only; the runner redacts before anything is written.
 */

import { createHash } from "node:crypto";
import type { BrowserContext, Page, Request, Route, WebSocketRoute } from "playwright-core";
import { ASSET_TYPES } from "../evidence/asset-types.js";
import type { EvidenceRecord, Failure } from "../evidence/evidence-schema.js";
import {
  answerRefused,
  continueWithoutMarker,
  routeRefusal,
  type SignIn,
  signInFor,
} from "./confinement-route.js";
import type { NetworkProbe, RedirectAnswer } from "./network-probe.js";
import {
  escapedRedirect,
  isWrite,
  type OriginPolicy,
  refusedRedirect,
  refusedWebSocket,
} from "./origin-policy.js";
import {
  approxRecordBytes,
  markRedirectRefused,
  REQUEST_STEP_MARKER,
  refusedWebSocketRecord,
  requestFailure,
  transactionRecord,
} from "./transaction-record.js";

interface Entry {
  seq: number;
  stepId: string | null;
  /** Null for a refused WebSocket, which never became a browser request (its record is built at once). */
  request: Request | null;
  marker: string | null;
  record: EvidenceRecord | null;
  done: Promise<void> | null;
  /** Called when the browser reports the request finished or failed. */
  settle: () => void;
  settled: Promise<void>;
}

/** How long a request the route already answered may take to be reported finished by the browser. */
const SETTLE_MS = 2000;

/** What the recorder needs from the runner. */
export interface RecorderOptions extends OriginPolicy {
  /** The most bytes kept of a request body and of an API answer. */
  maxBodyBytes: number;
  /** The most bytes kept of an asset's answer (a document, script, style, font, image…). */
  maxAssetBytes: number;
  /** The step running now (a confinement violation seen now fails it). */
  currentStep(): string | null;
  /** The step a record started now belongs to (the page's own requests belong to the action that caused them). */
  recordStep(): string | null;
  /** Called when confinement fails the current step (navigation or redirect off the allowed origins). */
  onViolation(stepId: string | null, message: string): void;
  /** The scenario's HTTP Basic sign-in, sent unasked to its origin (see {@link continueWithoutMarker}). */
  signIn?: SignIn | null;
}

/** The network recorder of one capture; attach once, read `records()` at the end. */
export class NetworkRecorder {
  private readonly entries: Entry[] = [];
  private readonly byRequest = new Map<Request, Entry>();
  private readonly refused = new WeakMap<Request, string>();
  private readonly redirectRefused = new Map<string, RedirectAnswer | null>();
  /** Route fetches deciding a navigation or write right now (see fetchJudged). */
  private readonly judging = new Set<Promise<void>>();
  private readonly judged = new WeakSet<Request>();
  private probe: NetworkProbe | null = null;
  private approxBytes = 0;
  /** Asset body texts by content: a body loaded again shares the first one's string and counts once. */
  private readonly assetTexts = new Map<string, string>();

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

  /**
   * Waits for every decision the route has in flight and for the browser to
   * report the requests it answered: a popup's route fetch can outlast the
   * last step (a loaded machine), and the capture must not end before it
   * knows whether that popup was refused. Bounded: a fetch by its own
   * timeout, the report by SETTLE_MS.
   */
  async settle(): Promise<void> {
    while (this.judging.size > 0) await Promise.all([...this.judging]);
    const answered = this.entries.filter((e) => e.request !== null && this.judged.has(e.request));
    if (answered.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, SETTLE_MS);
    });
    await Promise.race([Promise.all(answered.map((e) => e.settled)), late]);
    clearTimeout(timer);
  }

  /** Waits for every transaction in flight, closes the rest as unfinished, and returns all records in order. */
  async records(): Promise<EvidenceRecord[]> {
    await this.settle();
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
      markRedirectRefused(e.record, this.redirectRefused.get(e.marker));
    }
    return this.entries.map((e) => e.record!);
  }

  private onRequest(request: Request): void {
    const marker = request.headers()[REQUEST_STEP_MARKER] ?? null;
    let settle: () => void = () => undefined;
    const settled = new Promise<void>((resolve) => {
      settle = resolve;
    });
    const entry: Entry = {
      seq: this.entries.length,
      stepId: this.options.recordStep(),
      request,
      marker,
      record: null,
      done: null,
      settle,
      settled,
    };
    this.entries.push(entry);
    this.byRequest.set(request, entry);
    const from = request.redirectedFrom();
    if (from) {
      const message = escapedRedirect(this.options, from.url(), request.url());
      if (message) this.options.onViolation(this.options.currentStep(), message);
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
      stepId: this.options.recordStep(),
      request: null,
      marker: null,
      done: null,
      settle: () => undefined,
      settled: Promise.resolve(),
      record: refusedWebSocketRecord(seq, this.options.recordStep(), url, refusal, Date.now()),
    });
    this.approxBytes += 512;
    ws.close({ code: 1008, reason: "refused by apptwin" }).catch(() => undefined);
  }

  private async onRoute(route: Route): Promise<void> {
    const request = route.request();
    const refusal = routeRefusal(this.options, request);
    if (refusal) {
      this.refused.set(request, refusal.message);
      if (refusal.navigation) this.options.onViolation(this.options.currentStep(), refusal.navigation);
      await answerRefused(route);
      return;
    }
    const page = pageOf(request);
    if (page && this.probe) void this.probe.watch(page);
    // A navigation or a write of any page but the scenario's (a popup's first
    // document, a form posted into a blank popup) is judged here.
    const judged = request.isNavigationRequest() || isWrite(request.method());
    if (this.probe && judged && (page === null || !this.probe.watchedFromStart(page))) {
      this.judged.add(request);
      const deciding = this.fetchJudged(route, this.probe);
      this.judging.add(deciding);
      await deciding.finally(() => this.judging.delete(deciding));
      return;
    }
    await continueWithoutMarker(route, this.options.signIn ?? null);
  }

  /**
   * A navigation or a write of a page the probe did not watch from the start
   * (a popup's first document, asked for before its page exists; a form
   * posted into a blank popup): fetched once here without following
   * redirects. A redirect that would leave is refused in its place, as the
   * probe does (a document an empty 204 that fails the step, anything else
   * blocked), and recorded `redirect_refused`. One that stays is fulfilled as
   * the app answered it, and Chromium follows it without asking the route
   * again, so a second hop that leaves (A -> A -> B) is seen only afterwards
   * (a limitation the capture spec states). Anything else is fulfilled with
   * the app's answer, so such a document lacks Chromium's address space.
   */
  private async fetchJudged(route: Route, probe: NetworkProbe): Promise<void> {
    const request = route.request();
    const { [REQUEST_STEP_MARKER]: _marker, ...headersSent } = request.headers();
    const authorization = signInFor(this.options.signIn ?? null, request.url(), headersSent);
    if (authorization !== null) headersSent["authorization"] = authorization;
    const response = await route.fetch({ maxRedirects: 0, headers: headersSent }).catch(() => null);
    if (response === null) {
      await route.abort("failed").catch(() => undefined);
      return;
    }
    const headers = response.headersArray();
    const location = headers.find((h) => h.name.toLowerCase() === "location")?.value ?? null;
    const message = refusedRedirect(
      this.options,
      request.method(),
      request.url(),
      response.status(),
      location,
    );
    if (message === null) {
      await route.fulfill({ response }).catch(() => undefined);
      return;
    }
    const document = request.isNavigationRequest();
    const answer = { status: response.status(), headers, location };
    probe.noteStopped(request.method(), request.url(), { message, answer }, document);
    if (document) await route.fulfill({ status: 204, body: "" }).catch(() => undefined);
    else await route.abort("blockedbyclient").catch(() => undefined);
  }

  private finish(request: Request): void {
    const entry = this.byRequest.get(request);
    if (!entry || entry.done) return;
    entry.settle();
    const stopped = this.probe?.takeStopped(request.method(), request.url()) ?? null;
    const f: Failure | null = stopped
      ? { kind: "redirect_refused", message: stopped.message }
      : requestFailure(request, this.refused.get(request));
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
      // A redirect the probe stopped keeps the app's answer (status, headers, Location), with why it was not followed.
      if (stopped) markRedirectRefused(record, stopped.answer, stopped.message);
      entry.record = record;
    });
  }

  private async build(
    entry: Entry,
    failure: Failure | null,
    earlyBody: Promise<Buffer | null> | null = null,
  ): Promise<EvidenceRecord> {
    const request = entry.request!;
    const asset = ASSET_TYPES.has(request.resourceType());
    const record = await transactionRecord({
      seq: entry.seq,
      stepId: entry.stepId,
      request,
      marker: entry.marker,
      failure,
      maxBodyBytes: this.options.maxBodyBytes,
      maxResponseBytes: asset ? this.options.maxAssetBytes : this.options.maxBodyBytes,
      earlyBody,
    });
    this.approxBytes += approxRecordBytes(record, asset && this.shareAssetText(record));
    return record;
  }

  /** Makes an asset's body share the text of an earlier load of the same content; true when it did (it then costs nothing new). */
  private shareAssetText(record: EvidenceRecord): boolean {
    const body = record.response?.body;
    if (!body || body.text === "") return false;
    const key = `${body.encoding}:${body.truncated}:${createHash("sha256").update(body.text).digest("hex")}`;
    const earlier = this.assetTexts.get(key);
    if (earlier === undefined) {
      this.assetTexts.set(key, body.text);
      return false;
    }
    body.text = earlier;
    return true;
  }
}

/** The page a request belongs to, or null (a service worker's, or a frame already gone). */
function pageOf(request: Request): Page | null {
  try {
    return request.frame().page();
  } catch {
    return null;
  }
}
