/**
 * Chromium's own view of answers, for what Playwright's events and routes
 * cannot give. Each fetch/XHR answer is held at the response stage just long
 * enough to copy its body, so a body survives the page navigating away right
 * after (a login that redirects to the app would otherwise lose it). A fetch
 * with `redirect: "manual"` ends as an opaque redirect that Playwright
 * reports without a response; the 3xx status and headers seen here let a
 * request step's refused redirect be recorded as it was.
 *
 * It is also where a redirect is stopped before the browser follows it
 * (issue 13): Playwright routes never see a redirect's follow-up, so a
 * document's, fetch's, XHR's or beacon's 3xx is judged here, at the response
 * stage, by {@link refusedRedirect}; one that would leave is answered in its
 * place (a document with an empty 204, so the page stays; anything else as
 * blocked) and remembered, with the answer, for the record. Judging it here
 * rather than fetching the request in Node and fulfilling it keeps the answer
 * Chromium's own (a fulfilled document loses its address space, and Chromium's
 * local-network checks then block its loopback sockets and reads).
 */
import type { CDPSession, Page } from "playwright-core";
import type { Header } from "../evidence/evidence-schema.js";
import { type OriginPolicy, refusedRedirect } from "./origin-policy.js";
import { REQUEST_STEP_MARKER } from "./transaction-record.js";

/** What the server answered with a redirect. */
export interface RedirectAnswer {
  status: number;
  headers: Header[];
  location: string | null;
}

/** A redirect the probe did not let the browser follow: the sentence for the record, and the answer the app gave. */
export interface StoppedRedirect {
  message: string;
  answer: RedirectAnswer;
}

interface Paused {
  requestId: string;
  request: { url: string; method: string; headers?: Record<string, string> };
  resourceType?: string;
  responseStatusCode?: number;
  responseHeaders?: Header[];
}

/** Whose bodies the probe copies: the API answers a page reads with fetch or XHR. */
const BODY_TYPES = new Set(["Fetch", "XHR"]);

/**
 * Holds the answers of the capture's pages (the first one and every popup it
 * opens) at the response stage: copies fetch/XHR bodies, remembers
 * redirects, stops those that would leave.
 */
export class NetworkProbe {
  private readonly bodies = new Map<string, Buffer[]>();
  private readonly redirects = new Map<string, RedirectAnswer>();
  private readonly stopped = new Map<string, StoppedRedirect[]>();
  private readonly watched = new WeakMap<Page, Promise<void>>();
  private first: Page | null = null;

  private constructor(
    private readonly policy: OriginPolicy,
    private readonly onNavigationStopped: (message: string) => void,
  ) {}

  /**
   * Starts holding the page's document, fetch, XHR and beacon answers;
   * `onNavigationStopped` hears of each document redirect stopped (it fails the step, as a navigation off the origins does).
   */
  static async attach(
    page: Page,
    policy: OriginPolicy,
    onNavigationStopped: (message: string) => void,
  ): Promise<NetworkProbe> {
    const probe = new NetworkProbe(policy, onNavigationStopped);
    probe.first = page;
    await probe.watch(page);
    return probe;
  }

  /**
   * Holds another page's answers too (a popup), once per page. The
   * confinement route awaits it before a popup's first request goes out, so
   * a redirect that popup is answered with is judged like the first page's.
   */
  watch(page: Page): Promise<void> {
    let started = this.watched.get(page);
    if (!started) {
      started = this.enable(page).catch(() => undefined);
      this.watched.set(page, started);
    }
    return started;
  }

  /**
   * True for the scenario's page, watched before it sent anything. Any other
   * page (a popup) is watched from a moment the route cannot know: a request
   * Chromium created before `Fetch.enable` reached it is never paused, so
   * such a page's navigations and writes are judged by the route itself.
   */
  watchedFromStart(page: Page): boolean {
    return page === this.first;
  }

  private async enable(page: Page): Promise<void> {
    const cdp = await page.context().newCDPSession(page);
    cdp.on("Fetch.requestPaused", (e: Paused) => void this.onPaused(cdp, e));
    await cdp.send("Fetch.enable", {
      patterns: (["Document", "Fetch", "XHR", "Ping"] as const).map((resourceType) => ({
        resourceType,
        requestStage: "Response" as const,
      })),
    });
  }

  private async onPaused(cdp: CDPSession, e: Paused): Promise<void> {
    const status = e.responseStatusCode ?? 0;
    const key = `${e.request.method} ${e.request.url}`;
    if (status >= 300 && status < 400) {
      const headers = e.responseHeaders ?? [];
      const location = headers.find((h) => h.name.toLowerCase() === "location")?.value ?? null;
      const answer = { status, headers, location };
      this.redirects.set(e.request.url, answer);
      // A request step fetches with redirect: "manual": it never follows one, and says so itself.
      const message = this.isRequestStep(e)
        ? null
        : refusedRedirect(this.policy, e.request.method, e.request.url, status, location);
      if (message !== null) return this.stop(cdp, e, { message, answer });
    } else if (BODY_TYPES.has(e.resourceType ?? "")) {
      try {
        const b = (await cdp.send("Fetch.getResponseBody", { requestId: e.requestId })) as {
          body: string;
          base64Encoded: boolean;
        };
        const bytes = Buffer.from(b.body, b.base64Encoded ? "base64" : "utf8");
        this.bodies.set(key, [...(this.bodies.get(key) ?? []), bytes]);
      } catch {
        // No body to copy (a HEAD, a 204); Playwright's view stands.
      }
    }
    await cdp.send("Fetch.continueResponse", { requestId: e.requestId }).catch(() => undefined);
  }

  private isRequestStep(e: Paused): boolean {
    return Object.keys(e.request.headers ?? {}).some((h) => h.toLowerCase() === REQUEST_STEP_MARKER);
  }

  /** Answers a redirect that would leave in its place: a document with an empty 204 (the page stays), anything else as blocked. */
  private async stop(cdp: CDPSession, e: Paused, stopped: StoppedRedirect): Promise<void> {
    this.noteStopped(e.request.method, e.request.url, stopped, e.resourceType === "Document");
    const answered =
      e.resourceType === "Document"
        ? cdp.send("Fetch.fulfillRequest", { requestId: e.requestId, responseCode: 204, body: "" })
        : cdp.send("Fetch.failRequest", { requestId: e.requestId, errorReason: "BlockedByClient" });
    await answered.catch(() => undefined);
  }

  /** Remembers a redirect stopped outside the probe (a popup's, fetched by the route), as if stopped here; a document's fails the step. */
  noteStopped(method: string, url: string, stopped: StoppedRedirect, document: boolean): void {
    const key = `${method} ${url}`;
    this.stopped.set(key, [...(this.stopped.get(key) ?? []), stopped]);
    if (document) this.onNavigationStopped(stopped.message);
  }

  /** The oldest unclaimed redirect stopped for this method and URL, or null. */
  takeStopped(method: string, url: string): StoppedRedirect | null {
    return this.stopped.get(`${method} ${url}`)?.shift() ?? null;
  }

  /** The body copied for the oldest unclaimed answer to this method and URL, or null. */
  takeBody(method: string, url: string): Buffer | null {
    const queue = this.bodies.get(`${method} ${url}`);
    return queue?.shift() ?? null;
  }

  /** The latest 3xx answer to this URL, waiting up to a second for Chromium to report it. */
  async findRedirect(url: string): Promise<RedirectAnswer | null> {
    for (let waited = 0; waited <= 1000; waited += 25) {
      const found = this.redirects.get(url);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 25));
    }
    return null;
  }
}
