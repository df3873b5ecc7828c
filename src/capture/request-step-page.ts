/**
 * The function a request step runs inside the page. It is serialised by
 * Playwright, so it must not close over anything: every input comes in as
 * the argument. It re-checks the page's origin, refuses to send past the
 * deadline, fetches with `redirect: "manual"` so a redirect is seen, never
 * followed, and hands back the answer when a later step reads from it.
 * `pageStorage` reads one storage key the same way, for values resolved in Node.
 */

/** Everything the in-page sender needs; every value is already resolved in Node. */
export interface PageSendInput {
  appOrigin: string;
  url: string;
  method: string;
  headers: [string, string][];
  body: string | null;
  deadline: number;
  marker: [string, string];
  /** Return the answer's headers and body text (a later step reads values from them). */
  keepAnswer: boolean;
}

/** What the in-page sender reports back. */
export type PageSendResult =
  | {
      kind: "response";
      status: number;
      type: string;
      answer: { headers: [string, string][]; body: string } | null;
    }
  | { kind: "origin"; origin: string }
  | { kind: "deadline" }
  | { kind: "timeout" }
  | { kind: "network"; message: string };

/** Runs in the page: reads one storage key, or reports the origin the page is on when it is not the app's. */
export function pageStorage(input: {
  appOrigin: string;
  kind: "local_storage" | "session_storage";
  key: string;
}): { origin: string } | { value: string | null } {
  if (location.origin !== input.appOrigin) return { origin: location.origin };
  const store = input.kind === "local_storage" ? localStorage : sessionStorage;
  return { value: store.getItem(input.key) };
}

/** Runs in the page: check, send once, report. */
export async function pageSend(input: PageSendInput): Promise<PageSendResult> {
  if (location.origin !== input.appOrigin) return { kind: "origin", origin: location.origin };
  const headers = new Headers();
  for (const [name, value] of input.headers) headers.set(name, value);
  headers.set(input.marker[0], input.marker[1]);
  const remaining = input.deadline - Date.now();
  if (remaining <= 0) return { kind: "deadline" };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), remaining);
  try {
    const response = await fetch(input.url, {
      method: input.method,
      headers,
      body: input.body,
      redirect: "manual",
      credentials: "same-origin",
      cache: "no-store",
      signal: controller.signal,
    });
    // Read the body so the transaction completes before the step ends.
    let answer: { headers: [string, string][]; body: string } | null = null;
    if (input.keepAnswer) {
      const body = await response.text().catch(() => "");
      const list: [string, string][] = [];
      response.headers.forEach((value, name) => {
        list.push([name, value]);
      });
      answer = { headers: list, body };
    } else await response.arrayBuffer().catch(() => undefined);
    return { kind: "response", status: response.status, type: response.type, answer };
  } catch (error) {
    if (controller.signal.aborted) return { kind: "timeout" };
    return { kind: "network", message: String(error) };
  } finally {
    clearTimeout(timer);
  }
}
