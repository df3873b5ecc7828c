/**
 * The `request` step: one same-origin HTTP request sent through the page's
 * own fetch, under every run-time rule of CONTRACTS §2. Every value (header,
 * path param, query, form, `$value` in a JSON body) is resolved in Node
 * before the send (resolve-values.ts); each value read from the page or
 * chained as a credential is handed back so it can be redacted; the answer is
 * handed back when a later step reads from it.
 */
import type { BrowserContext, Page } from "playwright-core";
import type { RequestStep } from "../scenario/scenario-schema.js";
import { type PageSendInput, type PageSendResult, pageSend, pageStorage } from "./request-step-page.js";
import { requestUrl, resolveRequest } from "./request-values.js";
import type { PageValue, ValueSources } from "./resolve-values.js";
import type { StepAnswer } from "./step-answers.js";
import { StepFailure } from "./step-failure.js";
import { REQUEST_STEP_MARKER } from "./transaction-record.js";

export type { PageValue } from "./resolve-values.js";

/** The scenario's HTTP Basic credentials, resolved. */
export interface BasicCredentials {
  username: string;
  password: string;
}

/** What a request step needs from the run. */
export interface RequestStepContext {
  page: Page;
  context: BrowserContext;
  appOrigin: string;
  secrets: ReadonlyMap<string, string>;
  /**
   * The scenario's `http_credentials`: sent as `Authorization: Basic` on every request step that sets no
   * Authorization of its own. The browser answers only a `WWW-Authenticate` challenge with them, and a JSON API
   * signed in by an application password answers a bare 401, so a request step would never be signed in.
   */
  basic: BasicCredentials | null;
  /** The answers of earlier request steps that later steps read. */
  answers: ReadonlyMap<string, StepAnswer>;
  /** True when a later step reads this step's answer (it is then handed back). */
  keepAnswer: boolean;
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
  /** Receives every value read from the page or chained as a credential. */
  onPageValue(v: PageValue): void;
}

/** How long past the deadline the page gets to report its own timeout before it is taken to be stuck. */
export const PAGE_REPORT_GRACE_MS = 1000;

/** Awaits work in the page, bounded by the deadline: a page whose JavaScript is stuck cannot hold the step (or the run) forever. */
async function withinDeadline<T>(
  ctx: Pick<RequestStepContext, "deadline">,
  running: Promise<T>,
  stuck: () => string,
): Promise<T> {
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
  throw new StepFailure(stuck());
}

/** The sources a request step (or a fill) reads values from: the context's cookies, the page's storage, earlier answers. */
export function valueSources(
  ctx: Pick<RequestStepContext, "page" | "context" | "appOrigin" | "secrets" | "answers" | "deadline">,
  what: string,
  notDone = "nothing was sent",
): ValueSources {
  return {
    appOrigin: ctx.appOrigin,
    notDone,
    secrets: ctx.secrets,
    answers: ctx.answers,
    cookies: async () =>
      (await ctx.context.cookies(ctx.appOrigin)).map((c) => ({ name: c.name, value: c.value })),
    storage: async (kind, key) => {
      const read = await withinDeadline(
        ctx,
        ctx.page.evaluate(pageStorage, { appOrigin: ctx.appOrigin, kind, key }),
        () =>
          `the page did not answer a storage read before the step's deadline (its JavaScript may be stuck); ${what} was not sent`,
      );
      if ("origin" in read)
        throw new StepFailure(
          `the page is on ${read.origin}, not the app (${ctx.appOrigin}); ${what} was not sent`,
        );
      return read.value;
    },
  };
}

/** The Authorization value of HTTP Basic (RFC 7617: base64 of the UTF-8 `user:password`). */
export function basicAuthorization(c: BasicCredentials): string {
  return `Basic ${Buffer.from(`${c.username}:${c.password}`, "utf8").toString("base64")}`;
}

/** Runs one request step; throws a StepFailure with the reason when any rule fails; returns the answer when it is kept. */
export async function runRequestStep(step: RequestStep, ctx: RequestStepContext): Promise<StepAnswer | null> {
  const what = `${step.method} ${step.path}`;
  const r = await resolveRequest(step, valueSources(ctx, what), ctx.onPageValue);
  const headers = r.headers;
  if (r.contentType !== null && !headers.some(([h]) => h.toLowerCase() === "content-type"))
    headers.push(["content-type", r.contentType]);
  if (ctx.basic !== null && !headers.some(([h]) => h.toLowerCase() === "authorization"))
    headers.push(["authorization", basicAuthorization(ctx.basic)]);
  const url = requestUrl(ctx.appOrigin, r.path, r.query);
  if (ctx.cancelled())
    throw new StepFailure(`the run was cancelled before ${what} was sent; nothing was sent`);
  if (Date.now() >= ctx.deadline)
    throw new StepFailure(`the step's deadline passed before ${what} was sent; nothing was sent`);
  const input: PageSendInput = {
    appOrigin: ctx.appOrigin,
    url,
    method: step.method,
    headers,
    body: r.body,
    deadline: ctx.deadline,
    marker: [REQUEST_STEP_MARKER, ctx.marker],
    keepAnswer: ctx.keepAnswer,
  };
  const result: PageSendResult = await withinDeadline(ctx, ctx.page.evaluate(pageSend, input), () =>
    ctx.sent(ctx.marker)
      ? `${what} was sent, but the page did not report its answer before the step's deadline (its JavaScript may be stuck)`
      : `the page did not run ${what} before the step's deadline (its JavaScript may be stuck); nothing was sent`,
  );
  switch (result.kind) {
    case "origin":
      throw new StepFailure(
        `the page is on ${result.origin}, not the app (${ctx.appOrigin}); ${what} was not sent`,
      );
    case "deadline":
      throw new StepFailure(`the step's deadline passed before ${what} was sent; nothing was sent`);
    case "timeout":
      throw new StepFailure(`${what} got no answer before the step's deadline; the request was aborted`);
    case "network":
      throw new StepFailure(`${what} failed: ${result.message}`);
  }
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
  if (result.answer === null) return null;
  return {
    status: result.status,
    headers: result.answer.headers,
    body: result.answer.body === "" ? null : result.answer.body,
  };
}
