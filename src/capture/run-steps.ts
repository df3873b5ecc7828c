/**
 * Runs a scenario's steps in order on an open page: each within its own
 * deadline and the run's, the first failure cancelling the rest, each result
 * reported as progress (its error redacted with what is known so far).
 */
import type { BrowserContext, Page } from "playwright-core";
import type { StepResult } from "../evidence/evidence-schema.js";
import { redactStepResult } from "../evidence/redaction.js";
import { DEFAULT_STEP_TIMEOUT_MS, type Step } from "../scenario/scenario-schema.js";
import { cancelledStep } from "./capture-evidence.js";
import { type CaptureRun, httpCredentials, overLimitMessage, runRedactor } from "./capture-run.js";
import type { NetworkProbe } from "./network-probe.js";
import type { NetworkRecorder } from "./network-recorder.js";
import { screenshot } from "./page-artifacts.js";
import { ACTIONS, executeStep, WATCHES } from "./step-executors.js";
import { StepFailure } from "./step-failure.js";

/** A progress event: a step starts or ends. */
export type CaptureProgress =
  | { type: "step-start"; index: number; total: number; step_id: string; action: string }
  | { type: "step-end"; index: number; total: number; result: StepResult };

/** The open browser a run's steps act on. */
export interface CaptureSession {
  page: Page;
  context: BrowserContext;
  recorder: NetworkRecorder;
  redirects: NetworkProbe;
  /** True once the page crashed. */
  crashed(): boolean;
}

/** What the steps need from the caller's options. */
export interface StepRunOptions {
  screenshotsDir?: string | undefined;
  onProgress?: ((event: CaptureProgress) => void) | undefined;
  signal?: AbortSignal | undefined;
}

/** A step's result as progress shows it: a failure's message may quote page URLs, text or values, so it is redacted with what is known so far. */
function shown(run: CaptureRun, session: CaptureSession, result: StepResult): StepResult {
  if (result.error === null || result.status === "cancelled") return result;
  return redactStepResult(result, session.recorder.finishedSince(0), runRedactor(run));
}

/** Why a step threw, as its error; notes in the run what made it incomplete (a crash, the run's time limit). */
function failureOf(run: CaptureRun, session: CaptureSession, e: unknown): string {
  const error = e instanceof StepFailure ? e.message : `internal error: ${String(e)}`;
  if (session.crashed()) run.incomplete.push("the page crashed");
  else if (e instanceof StepFailure && e.incomplete) run.incomplete.push(e.message);
  else if (Date.now() >= run.runDeadline)
    run.incomplete.push(`the run reached its time limit of ${run.limits.max_run_ms} ms`);
  return error;
}

/** Runs one step and returns its result (never throws for the step's own failure). */
async function runStep(
  run: CaptureRun,
  session: CaptureSession,
  step: Step,
  index: number,
  lastActionSeq: number,
  options: StepRunOptions,
): Promise<StepResult> {
  const { page, recorder } = session;
  const t0 = Date.now();
  const urlBefore = page.url();
  const deadline = Math.min(t0 + (step.timeout_ms ?? DEFAULT_STEP_TIMEOUT_MS), run.runDeadline);
  let error: string | null = null;
  try {
    if (options.signal?.aborted) throw new StepFailure("the run was cancelled", { incomplete: true });
    const answer = await executeStep(step, {
      page,
      context: session.context,
      appOrigin: run.appOrigin,
      secrets: run.secrets,
      basic: httpCredentials(run),
      answers: run.answers,
      keepAnswer: run.readAnswersOf.has(step.step_id),
      recorder,
      redirects: session.redirects,
      deadline,
      lastActionSeq,
      marker: `${run.nonce}.${index}`,
      cancelled: () => options.signal?.aborted === true,
      onPageValue: (v) => run.pageValues.push(v),
    });
    if (answer !== null) run.answers.set(step.step_id, answer);
  } catch (e) {
    error = failureOf(run, session, e);
  }
  // A confinement violation says why the step broke (a navigation answered in place of a redirect it refused makes goto throw).
  error = run.violations.get(step.step_id) ?? error;
  if (error === null && recorder.recordedBytes > run.limits.max_evidence_bytes) {
    error = overLimitMessage(run);
    run.incomplete.push(error);
  }
  return {
    step_id: step.step_id,
    action: step.action,
    status: error === null ? "passed" : "failed",
    started_at: t0,
    duration_ms: Date.now() - t0,
    error,
    url_before: urlBefore === "about:blank" ? null : urlBefore,
    url_after: page.url(),
  };
}

/** Runs every step of the run's scenario, appending each result to `run.steps`. */
export async function runSteps(
  run: CaptureRun,
  session: CaptureSession,
  options: StepRunOptions,
): Promise<void> {
  const total = run.scenario.steps.length;
  let lastActionSeq = 0;
  let failed: string | null = null;
  for (const [index, step] of run.scenario.steps.entries()) {
    if (failed !== null) {
      const result = cancelledStep(step.step_id, step.action, failed);
      run.steps.push(result);
      options.onProgress?.({ type: "step-end", index, total, result });
      continue;
    }
    run.current = step.step_id;
    if (!WATCHES.has(step.action) || run.recording === null) run.recording = step.step_id;
    options.onProgress?.({ type: "step-start", index, total, step_id: step.step_id, action: step.action });
    if (ACTIONS.has(step.action)) lastActionSeq = session.recorder.count;
    const result = await runStep(run, session, step, index, lastActionSeq, options);
    run.steps.push(result);
    if (options.screenshotsDir) await screenshot(session.page, options.screenshotsDir, index, step.step_id);
    options.onProgress?.({ type: "step-end", index, total, result: shown(run, session, result) });
    if (result.error !== null) failed = step.step_id;
  }
  run.current = null;
  run.recording = null;
}
