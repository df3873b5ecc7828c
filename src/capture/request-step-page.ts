/**
 * The function a request step runs inside the page. It is serialised by
 * Playwright, so it must not close over anything: every input comes in as
 * the argument. It re-checks the page's origin, resolves storage-backed
 * header values, refuses to send past the deadline, and fetches with
 * `redirect: "manual"` so a redirect is seen, never followed.
 */

/** A header whose value is read from the page's storage at send time. */
export interface StorageHeader {
  name: string;
  storage: "local_storage" | "session_storage";
  key: string;
  pointer: string | null;
  prefix: string;
}

/** Everything the in-page sender needs; values from secrets and cookies are already resolved in Node. */
export interface PageSendInput {
  appOrigin: string;
  url: string;
  method: string;
  headers: [string, string][];
  storageHeaders: StorageHeader[];
  body: string | null;
  deadline: number;
  marker: [string, string];
}

/** What the in-page sender reports back; `pageValues` lists every value it read from storage. */
export type PageSendResult = { pageValues: { header: string; value: string }[] } & (
  | { kind: "response"; status: number; type: string }
  | { kind: "origin"; origin: string }
  | { kind: "missing"; header: string; reason: string }
  | { kind: "deadline" }
  | { kind: "timeout" }
  | { kind: "network"; message: string }
);

/** Runs in the page: resolve, check, send once, report. */
export async function pageSend(input: PageSendInput): Promise<PageSendResult> {
  const pageValues: { header: string; value: string }[] = [];
  if (location.origin !== input.appOrigin) return { kind: "origin", origin: location.origin, pageValues };
  const headers = new Headers();
  for (const [name, value] of input.headers) headers.set(name, value);
  for (const h of input.storageHeaders) {
    const store = h.storage === "local_storage" ? localStorage : sessionStorage;
    const raw = store.getItem(h.key);
    const where = `${h.storage === "local_storage" ? "localStorage" : "sessionStorage"}["${h.key}"]`;
    if (raw === null) return { kind: "missing", header: h.name, reason: `${where} is not set`, pageValues };
    let value: unknown = raw;
    if (h.pointer !== null) {
      try {
        value = JSON.parse(raw);
      } catch {
        return {
          kind: "missing",
          header: h.name,
          reason: `${where} is not JSON, so pointer ${h.pointer} cannot apply`,
          pageValues,
        };
      }
      const parts = h.pointer === "" ? [] : h.pointer.slice(1).split("/");
      for (const part of parts) {
        const token = part.replace(/~1/g, "/").replace(/~0/g, "~");
        if (value !== null && typeof value === "object" && Object.hasOwn(value, token)) {
          value = (value as Record<string, unknown>)[token];
        } else {
          return {
            kind: "missing",
            header: h.name,
            reason: `${where} has nothing at ${h.pointer}`,
            pageValues,
          };
        }
      }
    }
    const text = typeof value === "string" ? value : JSON.stringify(value);
    pageValues.push({ header: h.name, value: text });
    headers.set(h.name, h.prefix + text);
  }
  headers.set(input.marker[0], input.marker[1]);
  const remaining = input.deadline - Date.now();
  if (remaining <= 0) return { kind: "deadline", pageValues };
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
    await response.arrayBuffer().catch(() => undefined);
    return { kind: "response", status: response.status, type: response.type, pageValues };
  } catch (error) {
    if (controller.signal.aborted) return { kind: "timeout", pageValues };
    return { kind: "network", message: String(error), pageValues };
  } finally {
    clearTimeout(timer);
  }
}
