/**
 * Chromium's own view of fetch/XHR answers, for what Playwright's events
 * cannot give reliably. Each fetch/XHR answer is held at the response stage
 * just long enough to copy its body, so a body survives the page navigating
 * away right after (a login that redirects to the app would otherwise lose
 * it). A fetch with `redirect: "manual"` ends as an opaque redirect that
 * Playwright reports without a response; the 3xx status and headers seen
 * here let a request step's refused redirect be recorded as it was.
 */
import type { CDPSession, Page } from "playwright-core";
import type { Header } from "../evidence/evidence-schema.js";

/** What the server answered with a redirect. */
export interface RedirectAnswer {
  status: number;
  headers: Header[];
  location: string | null;
}

interface Paused {
  requestId: string;
  request: { url: string; method: string };
  responseStatusCode?: number;
  responseHeaders?: Header[];
}

/** Holds fetch/XHR answers of one page at the response stage, copying bodies and remembering redirects. */
export class NetworkProbe {
  private readonly bodies = new Map<string, Buffer[]>();
  private readonly redirects = new Map<string, RedirectAnswer>();

  private constructor(private readonly cdp: CDPSession) {}

  /** Starts holding the page's fetch and XHR answers. */
  static async attach(page: Page): Promise<NetworkProbe> {
    const cdp = await page.context().newCDPSession(page);
    const probe = new NetworkProbe(cdp);
    cdp.on("Fetch.requestPaused", (e: Paused) => void probe.onPaused(e));
    await cdp.send("Fetch.enable", {
      patterns: [
        { resourceType: "Fetch", requestStage: "Response" },
        { resourceType: "XHR", requestStage: "Response" },
      ],
    });
    return probe;
  }

  private async onPaused(e: Paused): Promise<void> {
    const status = e.responseStatusCode ?? 0;
    const key = `${e.request.method} ${e.request.url}`;
    if (status >= 300 && status < 400) {
      const headers = e.responseHeaders ?? [];
      const location = headers.find((h) => h.name.toLowerCase() === "location")?.value ?? null;
      this.redirects.set(e.request.url, { status, headers, location });
    } else {
      try {
        const b = (await this.cdp.send("Fetch.getResponseBody", { requestId: e.requestId })) as {
          body: string;
          base64Encoded: boolean;
        };
        const bytes = Buffer.from(b.body, b.base64Encoded ? "base64" : "utf8");
        this.bodies.set(key, [...(this.bodies.get(key) ?? []), bytes]);
      } catch {
        // No body to copy (a HEAD, a 204); Playwright's view stands.
      }
    }
    await this.cdp.send("Fetch.continueResponse", { requestId: e.requestId }).catch(() => undefined);
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
