/**
 * Sees the 3xx answers Playwright does not report. A fetch with
 * `redirect: "manual"` ends as an opaque redirect, which Playwright reports
 * as an aborted request with no response; Chromium's own network events
 * still carry the status and headers, so a request step's refused redirect
 * is recorded with what the server actually said.
 */
import type { Page } from "playwright-core";
import type { Header } from "../evidence/evidence-schema.js";

/** What the server answered with a redirect. */
export interface RedirectAnswer {
  status: number;
  headers: Header[];
  location: string | null;
}

interface ExtraInfo {
  requestId: string;
  statusCode: number;
  headers: Record<string, string>;
}

/** Listens to Chromium's network events on one page and remembers every 3xx answer by URL. */
export class RedirectProbe {
  private readonly urls = new Map<string, string>();
  private readonly answers = new Map<string, RedirectAnswer>();

  /** Starts listening on the page. */
  static async attach(page: Page): Promise<RedirectProbe> {
    const probe = new RedirectProbe();
    const cdp = await page.context().newCDPSession(page);
    cdp.on("Network.requestWillBeSent", (e: { requestId: string; request: { url: string } }) => {
      probe.urls.set(e.requestId, e.request.url);
    });
    cdp.on("Network.responseReceivedExtraInfo", (e: ExtraInfo) => {
      if (e.statusCode < 300 || e.statusCode >= 400) return;
      const headers: Header[] = Object.entries(e.headers).flatMap(([name, value]) =>
        value.split("\n").map((v) => ({ name, value: v })),
      );
      const location = headers.find((h) => h.name.toLowerCase() === "location")?.value ?? null;
      probe.answers.set(e.requestId, { status: e.statusCode, headers, location });
    });
    await cdp.send("Network.enable");
    return probe;
  }

  /** The latest 3xx answer to this URL, waiting up to a second for Chromium to report it. */
  async find(url: string): Promise<RedirectAnswer | null> {
    for (let waited = 0; waited <= 1000; waited += 25) {
      let found: RedirectAnswer | null = null;
      for (const [id, answer] of this.answers) if (this.urls.get(id) === url) found = answer;
      if (found) return found;
      await new Promise((r) => setTimeout(r, 25));
    }
    return null;
  }
}
