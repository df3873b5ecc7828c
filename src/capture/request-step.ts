/**
 * The `request` step: one same-origin HTTP request sent through the page's
 * own fetch, under every run-time rule of CONTRACTS §2. Secrets and cookies
 * are resolved here in Node; storage values are read in the page at send
 * time. Each value read from the page is handed back so it can be redacted.
 */
import type { BrowserContext, Page } from "playwright-core";
import type { HeaderValue, RequestStep, Value } from "../scenario/scenario-schema.js";
import {
  type PageSendInput,
  type PageSendResult,
  pageSend,
  type StorageHeader,
} from "./request-step-page.js";
import { StepFailure } from "./step-failure.js";
import { REQUEST_STEP_MARKER } from "./transaction-record.js";

/** A value read from the page, to be redacted as `[REDACTED:page:<step_id>.<header>]`. */
export interface PageValue {
  value: string;
  marker: string;
}

/** What a request step needs from the run. */
export interface RequestStepContext {
  page: Page;
  context: BrowserContext;
  appOrigin: string;
  secrets: ReadonlyMap<string, string>;
  /** Epoch ms after which nothing may be sent. */
  deadline: number;
  /** True once the run was cancelled; nothing is sent after. */
  cancelled(): boolean;
  /** A unique marker value for this fetch (see REQUEST_STEP_MARKER). */
  marker: string;
  /** True once the browser started the fetch carrying this marker. */
  sent(marker: string): boolean;
  /** Records the fetch with this marker (at this URL) as a refused redirect; returns the status the server gave. */
  refuseRedirect(marker: string, url: string): Promise<number | null>;
  /** Receives every value read from the page. */
  onPageValue(v: PageValue): void;
}

/** Resolves a literal or a secret reference. */
export function resolveValue(value: Value, secrets: ReadonlyMap<string, string>): string {
  if (typeof value === "string") return value;
  const v = secrets.get(value.secret);
  if (v === undefined) throw new StepFailure(`secret "${value.secret}" has no value`);
  return v;
}

/** Replaces `{ "secret": id }` objects anywhere in a JSON body by the secret's value. */
export function resolveJsonSecrets(json: unknown, secrets: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(json)) return json.map((j) => resolveJsonSecrets(j, secrets));
  if (json !== null && typeof json === "object") {
    const keys = Object.keys(json);
    const ref = (json as { secret?: unknown }).secret;
    if (keys.length === 1 && typeof ref === "string") return resolveValue({ secret: ref }, secrets);
    return Object.fromEntries(Object.entries(json).map(([k, v]) => [k, resolveJsonSecrets(v, secrets)]));
  }
  return json;
}

/** The URL of a request step: the app origin, the path, and the query encoded once, in order. */
export function requestUrl(
  appOrigin: string,
  step: RequestStep,
  secrets: ReadonlyMap<string, string>,
): string {
  const url = new URL(step.path, appOrigin).toString();
  const query = (step.query ?? [])
    .map((q) => `${encodeURIComponent(q.name)}=${encodeURIComponent(resolveValue(q.value, secrets))}`)
    .join("&");
  return query === "" ? url : `${url}?${query}`;
}

function pageMarker(stepId: string, header: string): string {
  return `[REDACTED:page:${stepId}.${header.toLowerCase()}]`;
}

async function cookieValue(ctx: RequestStepContext, name: string): Promise<string | undefined> {
  const cookies = await ctx.context.cookies(ctx.appOrigin);
  return cookies.find((c) => c.name === name)?.value;
}

/** How long past the deadline the page gets to report its own timeout before it is taken to be stuck. */
export const PAGE_REPORT_GRACE_MS = 1000;

/** Runs `pageSend` in the page, bounded by the deadline: a page whose JavaScript is stuck cannot hold the step (or the run) forever. */
async function sendFromPage(
  ctx: RequestStepContext,
  input: PageSendInput,
  what: string,
): Promise<PageSendResult> {
  const running = ctx.page.evaluate(pageSend, input);
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), Math.max(0, ctx.deadline - Date.now()) + PAGE_REPORT_GRACE_MS);
  });
  try {
    const result = await Promise.race([running, expired]);
    if (result !== null) return result;
  } finally {
    clearTimeout(timer);
  }
  // The page may wake later: pageSend then finds its deadline passed and sends nothing.
  running.catch(() => undefined);
  throw new StepFailure(
    ctx.sent(ctx.marker)
      ? `${what} was sent, but the page did not report its answer before the step's deadline (its JavaScript may be stuck)`
      : `the page did not run ${what} before the step's deadline (its JavaScript may be stuck); nothing was sent`,
  );
}

/** Runs one request step; throws a StepFailure with the reason when any rule fails. */
export async function runRequestStep(step: RequestStep, ctx: RequestStepContext): Promise<void> {
  const headers: [string, string][] = [];
  const storageHeaders: StorageHeader[] = [];
  for (const [name, hv] of Object.entries(step.headers ?? {}) as [string, HeaderValue][]) {
    if (typeof hv === "string") headers.push([name, hv]);
    else if ("secret" in hv)
      headers.push([name, (hv.prefix ?? "") + resolveValue({ secret: hv.secret }, ctx.secrets)]);
    else if ("cookie" in hv) {
      const v = await cookieValue(ctx, hv.cookie);
      if (v === undefined)
        throw new StepFailure(
          `header ${name}: the cookie "${hv.cookie}" is not set for ${ctx.appOrigin}; nothing was sent`,
        );
      ctx.onPageValue({ value: v, marker: pageMarker(step.step_id, name) });
      headers.push([name, (hv.prefix ?? "") + v]);
    } else {
      const storage = "local_storage" in hv ? "local_storage" : "session_storage";
      const key = "local_storage" in hv ? hv.local_storage : hv.session_storage;
      storageHeaders.push({ name, storage, key, pointer: hv.pointer ?? null, prefix: hv.prefix ?? "" });
    }
  }
  let body: string | null = null;
  const has = (n: string) => headers.some(([h]) => h.toLowerCase() === n);
  if (step.json !== undefined) {
    body = JSON.stringify(resolveJsonSecrets(step.json, ctx.secrets));
    if (!has("content-type")) headers.push(["content-type", "application/json"]);
  } else if (step.form !== undefined) {
    body = step.form
      .map((f) => `${encodeURIComponent(f.name)}=${encodeURIComponent(resolveValue(f.value, ctx.secrets))}`)
      .join("&");
    if (!has("content-type")) headers.push(["content-type", "application/x-www-form-urlencoded"]);
  }
  const url = requestUrl(ctx.appOrigin, step, ctx.secrets);
  const what = `${step.method} ${step.path}`;
  if (ctx.cancelled())
    throw new StepFailure(`the run was cancelled before ${what} was sent; nothing was sent`);
  if (Date.now() >= ctx.deadline)
    throw new StepFailure(`the step's deadline passed before ${what} was sent; nothing was sent`);
  const input: PageSendInput = {
    appOrigin: ctx.appOrigin,
    url,
    method: step.method,
    headers,
    storageHeaders,
    body,
    deadline: ctx.deadline,
    marker: [REQUEST_STEP_MARKER, ctx.marker],
  };
  const result = await sendFromPage(ctx, input, what);
  for (const pv of result.pageValues)
    ctx.onPageValue({ value: pv.value, marker: pageMarker(step.step_id, pv.header) });
  switch (result.kind) {
    case "origin":
      throw new StepFailure(
        `the page is on ${result.origin}, not the app (${ctx.appOrigin}); ${what} was not sent`,
      );
    case "missing":
      throw new StepFailure(`header ${result.header}: ${result.reason}; nothing was sent`);
    case "deadline":
      throw new StepFailure(`the step's deadline passed before ${what} was sent; nothing was sent`);
    case "timeout":
      throw new StepFailure(`${what} got no answer before the step's deadline; the request was aborted`);
    case "network":
      throw new StepFailure(`${what} failed: ${result.message}`);
    case "response": {
      if (result.type === "opaqueredirect") {
        const status = await ctx.refuseRedirect(ctx.marker, url);
        throw new StepFailure(
          `redirect refused: request steps never follow redirects (${what} answered ${status ?? "a redirect"})`,
        );
      }
      const ok = step.expected_status
        ? step.expected_status.includes(result.status)
        : result.status >= 200 && result.status < 300;
      if (!ok) {
        const expected = step.expected_status ? step.expected_status.join(" or ") : "2xx";
        throw new StepFailure(`${what} answered ${result.status}; expected ${expected}`);
      }
    }
  }
}
