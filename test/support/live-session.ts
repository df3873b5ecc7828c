/**
 * Reads the live credentials of a captured items-app session from the browser
 * before it closes, so tests can search the written evidence for them.
 */
import type { BrowserContext } from "playwright-core";

/** The session cookie, the CSRF cookie and the bearer token the page stored ("" when absent). */
export interface LiveSession {
  session: string;
  csrf: string;
  bearer: string;
}

/** The live session values of the items app at `url`, read from the capture's context (use in `beforeClose`). */
export async function readLiveSession(context: BrowserContext, url: string): Promise<LiveSession> {
  const cookies = await context.cookies(url);
  const session = cookies.find((c) => c.name === "session")?.value ?? "";
  const csrf = cookies.find((c) => c.name === "csrftoken")?.value ?? "";
  const auth = await context.pages()[0]!.evaluate(() => localStorage.getItem("auth"));
  return { session, csrf, bearer: JSON.parse(auth ?? "{}").token ?? "" };
}
