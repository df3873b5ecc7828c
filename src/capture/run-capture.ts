/**
 * Runs one scenario in a real Chromium and returns its redacted Evidence.
 * Secrets are read before the browser starts; steps run in order, each
 * within its deadline and the run's; the first failure cancels the rest; the
 * verdict fails closed. Nothing unredacted leaves this function except the
 * optional trace and screenshots the caller asked for.
 */
import { mkdir } from "node:fs/promises";
import createDebug from "debug";
import type { BrowserContext, Page } from "playwright-core";
import type { Evidence, StepResult } from "../evidence/evidence-schema.js";
import { createRedactor, redactEvidence, redactStepResult } from "../evidence/redaction.js";
import { resolveLimits } from "../scenario/limits.js";
import { scenarioDigest } from "../scenario/scenario-digest.js";
import { DEFAULT_STEP_TIMEOUT_MS, type Scenario } from "../scenario/scenario-schema.js";
import { cancelledStep, recordWarnings } from "./capture-evidence.js";
import { launchBrowser } from "./launch-browser.js";
import { NetworkProbe } from "./network-probe.js";
import { NetworkRecorder } from "./network-recorder.js";
import { escapedWebSocket, isWrite, refusedWebSocket } from "./origin-policy.js";
import { browserVersion, screenshot } from "./page-artifacts.js";
import type { PageValue } from "./request-step.js";
import { resolveSecrets } from "./resolve-secrets.js";
import { ACTIONS, executeStep } from "./step-executors.js";
import { StepFailure } from "./step-failure.js";
import { captureLimitations, captureVerdict } from "./verdict.js";

const debug = createDebug("apptwin:capture");

/** A progress event: a step starts or ends. */
export type CaptureProgress =
  | { type: "step-start"; index: number; total: number; step_id: string; action: string }
  | { type: "step-end"; index: number; total: number; result: StepResult };

/** Options of {@link runCapture}. */
export interface CaptureOptions {
  scenario: Scenario;
  /** The scenario's file name, for messages. */
  file?: string;
  /** Where secrets are read from (default process.env). */
  env?: Record<string, string | undefined>;
  browser?: string | undefined;
  headed?: boolean;
  /** Write a Playwright trace here (it holds unredacted data). */
  tracePath?: string | undefined;
  /** Write one PNG per step here (unredacted pixels). */
  screenshotsDir?: string | undefined;
  onProgress?: (event: CaptureProgress) => void;
  signal?: AbortSignal;
  /** Called with the live context after the last step, before the browser closes (tests read its state). */
  beforeClose?: (context: BrowserContext) => Promise<void>;
}

/** The evidence of a run and the counts the summary shows. */
export interface CaptureOutcome {
  evidence: Evidence;
  /** Write requests (not GET/HEAD/OPTIONS) that reached a server. */
  writesSent: number;
}

/** Runs the scenario and returns redacted evidence; throws a UserError only when it could not run at all. */
export async function runCapture(options: CaptureOptions): Promise<CaptureOutcome> {
  const { scenario } = options;
  const secrets = resolveSecrets(scenario, options.env ?? process.env, options.file);
  const limits = resolveLimits(scenario);
  const appOrigin = new URL(scenario.start_url).origin;
  const allowedOrigins = scenario.allowed_origins ?? [];
  const startedAt = Date.now();
  const runDeadline = startedAt + limits.max_run_ms;
  const steps: StepResult[] = [];
  const incomplete: string[] = [];
  const pageValues: PageValue[] = [];
  const violations = new Map<string | null, string>();
  let current: string | null = null;
  let sawWebSocket = false;
  const nonce = Math.random().toString(36).slice(2);
  const overLimit = `the evidence grew past its limit of ${limits.max_evidence_bytes} bytes`;
  const secretList = [...secrets].map(([id, value]) => ({ id, value }));
  /** A step's result as progress shows it: a failure's message may quote page URLs, text or values, so it is redacted with what is known so far. */
  const shown = (result: StepResult): StepResult => {
    if (result.error === null || result.status === "cancelled") return result;
    const redactor = createRedactor({ secrets: secretList });
    for (const pv of pageValues) redactor.addPageValue(pv.value, pv.marker);
    return redactStepResult(result, recorder.finishedSince(0), redactor);
  };
  const recorder = new NetworkRecorder({
    appOrigin,
    allowedOrigins,
    maxBodyBytes: limits.max_body_bytes,
    currentStep: () => current,
    onViolation: (stepId, message) => {
      if (!violations.has(stepId)) violations.set(stepId, message);
    },
  });
  const browser = await launchBrowser({ browser: options.browser, headed: options.headed, env: options.env });
  let browserInfo: Evidence["browser"] = null;
  let records: Evidence["records"] = [];
  try {
    const { context } = browser;
    await recorder.attach(context);
    if (options.tracePath) await context.tracing.start({ screenshots: true, snapshots: true });
    const page: Page = context.pages()[0] ?? (await context.newPage());
    let crashed = false;
    page.on("crash", () => {
      crashed = true;
    });
    page.on("websocket", (ws) => {
      sawWebSocket = true;
      // The WebSocket route refuses other origins in the page; one still seen here was opened where it cannot reach.
      if (refusedWebSocket({ appOrigin, allowedOrigins }, ws.url()) !== null) {
        const stepId = current;
        if (!violations.has(stepId)) violations.set(stepId, escapedWebSocket(ws.url()));
      }
    });
    browserInfo = await browserVersion(page);
    const redirects = await NetworkProbe.attach(page);
    recorder.useProbe(redirects);
    if (options.screenshotsDir) await mkdir(options.screenshotsDir, { recursive: true });
    let lastActionSeq = 0;
    let failed: string | null = null;
    const total = scenario.steps.length;
    for (const [index, step] of scenario.steps.entries()) {
      if (failed !== null) {
        const result = cancelledStep(step.step_id, step.action, failed);
        steps.push(result);
        options.onProgress?.({ type: "step-end", index, total, result });
        continue;
      }
      current = step.step_id;
      options.onProgress?.({ type: "step-start", index, total, step_id: step.step_id, action: step.action });
      if (ACTIONS.has(step.action)) lastActionSeq = recorder.count;
      const t0 = Date.now();
      const urlBefore = page.url();
      const stepDeadline = Math.min(t0 + (step.timeout_ms ?? DEFAULT_STEP_TIMEOUT_MS), runDeadline);
      let error: string | null = null;
      try {
        if (options.signal?.aborted) throw new StepFailure("the run was cancelled", { incomplete: true });
        await executeStep(step, {
          page,
          context,
          appOrigin,
          secrets,
          recorder,
          redirects,
          deadline: stepDeadline,
          lastActionSeq,
          marker: `${nonce}.${index}`,
          cancelled: () => options.signal?.aborted === true,
          onPageValue: (v) => pageValues.push(v),
        });
      } catch (e) {
        error = e instanceof StepFailure ? e.message : `internal error: ${String(e)}`;
        if (crashed) incomplete.push("the page crashed");
        else if (e instanceof StepFailure && e.incomplete) incomplete.push(e.message);
        else if (Date.now() >= runDeadline)
          incomplete.push(`the run reached its time limit of ${limits.max_run_ms} ms`);
      }
      error ??= violations.get(step.step_id) ?? null;
      if (error === null && recorder.recordedBytes > limits.max_evidence_bytes) {
        error = overLimit;
        incomplete.push(error);
      }
      const result: StepResult = {
        step_id: step.step_id,
        action: step.action,
        status: error === null ? "passed" : "failed",
        started_at: t0,
        duration_ms: Date.now() - t0,
        error,
        url_before: urlBefore === "about:blank" ? null : urlBefore,
        url_after: page.url(),
      };
      steps.push(result);
      if (options.screenshotsDir) await screenshot(page, options.screenshotsDir, index, step.step_id);
      options.onProgress?.({ type: "step-end", index, total, result: shown(result) });
      if (error !== null) failed = step.step_id;
    }
    current = null;
    await options.beforeClose?.(context);
    if (options.tracePath) await context.tracing.stop({ path: options.tracePath });
    records = await recorder.records();
    // Records still in flight when the last step ended count too: the step that made them fails.
    if (recorder.recordedBytes > limits.max_evidence_bytes && !incomplete.includes(overLimit)) {
      incomplete.push(overLimit);
      const last = steps.findLast((s) => s.status !== "cancelled");
      if (last?.status === "passed") Object.assign(last, { status: "failed", error: overLimit });
    }
  } finally {
    await browser.close();
  }
  const redactor = createRedactor({ secrets: secretList });
  for (const pv of pageValues) redactor.addPageValue(pv.value, pv.marker);
  const evidence = redactEvidence(
    {
      schema_version: 1,
      source: {
        kind: "capture",
        scenario: { name: scenario.name, digest: scenarioDigest(scenario) },
        har: null,
        merged: null,
      },
      app_origin: appOrigin,
      allowed_origins: allowedOrigins,
      browser: browserInfo,
      started_at: startedAt,
      finished_at: Date.now(),
      verdict: captureVerdict(steps, incomplete),
      steps,
      records,
      warnings: recordWarnings(records),
      limitations: captureLimitations(
        scenario.steps.map((s) => s.action),
        sawWebSocket,
      ),
    },
    redactor,
  );
  const writesSent = records.filter((r) => isWrite(r.request.method) && r.failure?.kind !== "refused").length;
  debug("capture %s: %s, %d records", scenario.name, evidence.verdict, records.length);
  return { evidence, writesSent };
}
