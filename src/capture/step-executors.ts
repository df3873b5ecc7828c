/**
 * One executor per scenario action. Each runs within the step's deadline and
 * throws a StepFailure whose message is the step's error in the evidence.
 */
import type { BrowserContext, Page } from "playwright-core";
import type { RequestStep, Step, Value } from "../scenario/scenario-schema.js";
import type { NetworkProbe } from "./network-probe.js";
import type { NetworkRecorder } from "./network-recorder.js";
import { type BasicCredentials, type PageValue, runRequestStep, valueSources } from "./request-step.js";
import { resolveValue } from "./resolve-values.js";
import type { StepAnswer } from "./step-answers.js";
import { StepFailure } from "./step-failure.js";
import { locatorFor } from "./target-locator.js";
import { matchesExpectation, parseRequestExpectation, pathPatternTest, pathQueryHash } from "./url-match.js";

/** What every executor may use. */
export interface StepContext {
  page: Page;
  context: BrowserContext;
  appOrigin: string;
  secrets: ReadonlyMap<string, string>;
  /** The scenario's `http_credentials`, resolved (request steps send them unasked). */
  basic: BasicCredentials | null;
  /** The answers of earlier request steps that later steps read. */
  answers: ReadonlyMap<string, StepAnswer>;
  /** True when a later step reads this step's answer. */
  keepAnswer: boolean;
  recorder: NetworkRecorder;
  redirects: NetworkProbe;
  deadline: number;
  /** The recorder's count when the last action step started (expect-request looks from there). */
  lastActionSeq: number;
  marker: string;
  cancelled(): boolean;
  onPageValue(v: PageValue): void;
}

/** Actions that act on the page (expect-request looks at what happened since the latest of these). */
export const ACTIONS = new Set([
  "navigate",
  "click",
  "fill",
  "select",
  "press",
  "check",
  "uncheck",
  "request",
]);

/** Steps that only watch the page: the page's requests started during one belong to the action before it. */
export const WATCHES = new Set(["expect-request", "expect-url", "expect-text"]);

const remaining = (ctx: StepContext) => Math.max(1, ctx.deadline - Date.now());

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (text.split("\n")[0] ?? text).trim();
}

async function waitForPath(ctx: StepContext, pattern: string): Promise<void> {
  const test = pathPatternTest(pattern);
  let stopped: StepFailure | null = null;
  try {
    await ctx.page.waitForURL(
      (u) => {
        try {
          return test(u.href);
        } catch (error) {
          stopped = error instanceof StepFailure ? error : new StepFailure(String(error));
          return true;
        }
      },
      { timeout: remaining(ctx), waitUntil: "commit" },
    );
  } catch {
    stopped ??= new StepFailure(
      `the URL did not match /${pattern}/ in time; it is ${pathQueryHash(ctx.page.url())}`,
    );
  }
  if (stopped) throw stopped;
}

async function waitForRequest(ctx: StepContext, request: string, status?: number | string): Promise<void> {
  const e = parseRequestExpectation(request, status);
  for (;;) {
    const seen = ctx.recorder.finishedSince(ctx.lastActionSeq);
    if (seen.some((r) => matchesExpectation(e, r, ctx.appOrigin))) return;
    if (Date.now() >= ctx.deadline) {
      const list = seen
        .filter((r) => r.resource_type === "fetch" || r.resource_type === "xhr" || r.request.method !== "GET")
        .map(
          (r) =>
            `${r.request.method} ${pathQueryHash(r.request.url)} ${r.response?.status ?? r.failure?.kind}`,
        );
      const want = `${request}${status !== undefined ? ` answered ${status}` : ""}`;
      throw new StepFailure(
        `no ${want} since the last action (seen: ${list.length > 0 ? list.join(", ") : "no API requests"})`,
      );
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The text a fill or select types or chooses; a value read from the page is passed on for redaction. */
async function typedValue(step: Step & { value: Value; target: string }, ctx: StepContext): Promise<string> {
  const src = valueSources(ctx, `${step.action} ${step.target}`, "nothing was typed");
  const r = await resolveValue(step.value, { stepId: step.step_id, label: "value", marker: "value" }, src);
  if (r.redact) ctx.onPageValue(r.redact);
  return r.text;
}

/** Runs one step; resolves when it passed (with the answer of a request step a later step reads), throws a StepFailure when it failed. */
export async function executeStep(step: Step, ctx: StepContext): Promise<StepAnswer | null> {
  try {
    if (step.action === "request") return await sendRequest(step, ctx);
    await act(step, ctx);
    return null;
  } catch (error) {
    if (error instanceof StepFailure) throw error;
    throw new StepFailure(`${step.action} failed: ${firstLine(error)}`);
  }
}

function sendRequest(step: RequestStep, ctx: StepContext): Promise<StepAnswer | null> {
  return runRequestStep(step, {
    page: ctx.page,
    context: ctx.context,
    appOrigin: ctx.appOrigin,
    secrets: ctx.secrets,
    basic: ctx.basic,
    answers: ctx.answers,
    keepAnswer: ctx.keepAnswer,
    deadline: ctx.deadline,
    cancelled: ctx.cancelled,
    marker: ctx.marker,
    onPageValue: ctx.onPageValue,
    sent: (marker) => ctx.recorder.sawMarker(marker),
    refuseRedirect: async (marker, url) => {
      const answer = await ctx.redirects.findRedirect(url);
      ctx.recorder.refuseRedirect(marker, answer);
      return answer?.status ?? null;
    },
  });
}

/** Runs a step that acts on or looks at the page. */
async function act(step: Exclude<Step, RequestStep>, ctx: StepContext): Promise<void> {
  const { page } = ctx;
  const timeout = remaining(ctx);
  switch (step.action) {
    case "navigate":
      await page.goto(new URL(step.path, ctx.appOrigin).toString(), { timeout });
      return;
    case "click":
      await locatorFor(page, step.target).click({ timeout });
      return;
    case "fill":
      await locatorFor(page, step.target).fill(await typedValue(step, ctx), { timeout });
      return;
    case "select":
      await locatorFor(page, step.target).selectOption(await typedValue(step, ctx), { timeout });
      return;
    case "press":
      if (step.target !== undefined) await locatorFor(page, step.target).press(step.key, { timeout });
      else await page.keyboard.press(step.key);
      return;
    case "check":
      await locatorFor(page, step.target).check({ timeout });
      return;
    case "uncheck":
      await locatorFor(page, step.target).uncheck({ timeout });
      return;
    case "wait":
      if (step.url !== undefined) return await waitForPath(ctx, step.url);
      if (step.text !== undefined) {
        await page.getByText(step.text).first().waitFor({ state: "visible", timeout });
        return;
      }
      if (step.target !== undefined)
        await locatorFor(page, step.target).first().waitFor({ state: "visible", timeout });
      return;
    case "expect-text": {
      const scope = step.target !== undefined ? locatorFor(page, step.target) : page.locator("body");
      try {
        await scope.getByText(step.text).first().waitFor({ state: "visible", timeout });
      } catch {
        throw new StepFailure(`the text ${JSON.stringify(step.text)} was not shown within ${timeout} ms`);
      }
      return;
    }
    case "expect-url":
      return await waitForPath(ctx, step.pattern);
    case "expect-request":
      return await waitForRequest(ctx, step.request, step.status);
  }
}
