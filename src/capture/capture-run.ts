/**
 * The state of one capture run, planned before the browser starts: the
 * secrets (read first, so a missing variable fails at once), the limits and
 * deadlines, the origins, and what the steps accumulate as they run (results,
 * reasons the run is incomplete, values to redact, confinement violations,
 * the answers later steps read).
 */
import type { StepResult } from "../evidence/evidence-schema.js";
import { createRedactor, type Redactor } from "../evidence/redaction.js";
import { type ResolvedLimits, resolveLimits } from "../scenario/limits.js";
import type { Scenario } from "../scenario/scenario-schema.js";
import { valuePositions } from "../scenario/value-positions.js";
import { resolveSecrets } from "./resolve-secrets.js";
import type { PageValue } from "./resolve-values.js";
import type { StepAnswer } from "./step-answers.js";

/** One capture run: fixed facts first, then what the steps add. */
export interface CaptureRun {
  scenario: Scenario;
  secrets: ReadonlyMap<string, string>;
  limits: ResolvedLimits;
  appOrigin: string;
  allowedOrigins: string[];
  startedAt: number;
  runDeadline: number;
  /** A random per-run part of each request-step marker, so the page cannot forge one. */
  nonce: string;
  /** The request steps whose answers later steps read. */
  readAnswersOf: ReadonlySet<string>;
  steps: StepResult[];
  incomplete: string[];
  pageValues: PageValue[];
  violations: Map<string | null, string>;
  answers: Map<string, StepAnswer>;
  /** The step running now, null outside steps. */
  current: string | null;
  /**
   * The step the page's own requests started now belong to: the running step,
   * or during a step that only watches (expect-request, expect-url,
   * expect-text) the latest action before it, because the page acts only on
   * actions and a click's fetch can start after the click has returned.
   */
  recording: string | null;
  sawWebSocket: boolean;
}

/** The request steps a later value reads the answer of. */
function answersRead(scenario: Scenario): Set<string> {
  const read = new Set<string>();
  for (const { value } of valuePositions(scenario as unknown as Record<string, unknown>)) {
    const ref = value as { response?: unknown };
    if (ref !== null && typeof ref === "object" && typeof ref.response === "string") read.add(ref.response);
  }
  return read;
}

/** The scenario's HTTP Basic credentials, resolved, for the start origin only (null when it has none). */
export function httpCredentials(
  run: CaptureRun,
): { username: string; password: string; origin: string } | null {
  const basic = run.scenario.http_credentials;
  if (!basic) return null;
  const secret = (id: string) => run.secrets.get(id) ?? "";
  const username = typeof basic.username === "string" ? basic.username : secret(basic.username.secret);
  return { username, password: secret(basic.password.secret), origin: run.appOrigin };
}

/** Plans a run: throws a UserError for a missing secret before anything starts. */
export function planRun(
  scenario: Scenario,
  env: Record<string, string | undefined>,
  file?: string,
): CaptureRun {
  const limits = resolveLimits(scenario);
  const startedAt = Date.now();
  return {
    scenario,
    secrets: resolveSecrets(scenario, env, file),
    limits,
    appOrigin: new URL(scenario.start_url).origin,
    allowedOrigins: scenario.allowed_origins ?? [],
    startedAt,
    runDeadline: startedAt + limits.max_run_ms,
    nonce: Math.random().toString(36).slice(2),
    readAnswersOf: answersRead(scenario),
    steps: [],
    incomplete: [],
    pageValues: [],
    violations: new Map(),
    answers: new Map(),
    current: null,
    recording: null,
    sawWebSocket: false,
  };
}

/** The message of a run whose evidence outgrew its limit. */
export function overLimitMessage(run: CaptureRun): string {
  return `the evidence grew past its limit of ${run.limits.max_evidence_bytes} bytes`;
}

/** A redactor that knows the run's secrets and every value read from the page so far. */
export function runRedactor(run: CaptureRun): Redactor {
  const redactor = createRedactor({ secrets: [...run.secrets].map(([id, value]) => ({ id, value })) });
  for (const pv of run.pageValues) redactor.addPageValue(pv.value, pv.marker);
  return redactor;
}

/** Records the first confinement violation seen during a step. */
export function noteViolation(run: CaptureRun, stepId: string | null, message: string): void {
  if (!run.violations.has(stepId)) run.violations.set(stepId, message);
}

/**
 * Fails the step a violation belongs to when it was noted only after that
 * step had ended passed (a popup's route fetch that outlasted its step, or
 * the last step); one noted after every step ended fails the last step that
 * ran. Each step fails once, with the first violation noted for it.
 */
export function failLateViolations(run: CaptureRun): void {
  const last = run.steps.findLast((s) => s.status !== "cancelled");
  for (const [stepId, message] of run.violations) {
    const step = (stepId === null ? undefined : run.steps.find((s) => s.step_id === stepId)) ?? last;
    if (step?.status === "passed") Object.assign(step, { status: "failed", error: message });
  }
}
