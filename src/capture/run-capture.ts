/**
 * Runs one scenario in a real Chromium and returns its redacted Evidence.
 * An assembly of named pieces: plan the run (secrets read before the browser
 * starts), launch, open the recording session, run the steps (run-steps.ts),
 * collect the records, and assemble the evidence (capture-evidence.ts), which
 * is redacted there. Nothing unredacted leaves this function except the
 * optional trace and screenshots the caller asked for.
 */
import { mkdir } from "node:fs/promises";
import createDebug from "debug";
import type { BrowserContext } from "playwright-core";
import { Interrupted } from "../errors/interrupted.js";
import type { Evidence } from "../evidence/evidence-schema.js";
import type { Scenario } from "../scenario/scenario-schema.js";
import { assembleEvidence } from "./capture-evidence.js";
import {
  type CaptureRun,
  failLateViolations,
  httpCredentials,
  noteViolation,
  overLimitMessage,
  planRun,
} from "./capture-run.js";
import type { SignIn } from "./confinement-route.js";
import { launchBrowser } from "./launch-browser.js";
import { NetworkProbe } from "./network-probe.js";
import { NetworkRecorder } from "./network-recorder.js";
import { escapedWebSocket, isWrite, refusedWebSocket } from "./origin-policy.js";
import { browserVersion } from "./page-artifacts.js";
import { basicAuthorization } from "./request-step.js";
import { type CaptureProgress, type CaptureSession, runSteps } from "./run-steps.js";

export type { CaptureProgress } from "./run-steps.js";

const debug = createDebug("apptwin:capture");

/** The one line an interrupted capture ends with. */
export const INTERRUPTED =
  "capture interrupted (Ctrl+C): the browser was stopped and no evidence was written";

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
  /**
   * The caller aborts `signal` on Ctrl+C: the run then stops the browser at once and throws Interrupted (no
   * evidence); otherwise an abort cancels the steps left and the evidence says so (an MCP client's cancel).
   */
  interruptible?: boolean;
  /** Called with the live context after the last step, before the browser closes (tests read its state). */
  beforeClose?: (context: BrowserContext) => Promise<void>;
}

/** The evidence of a run and the counts the summary shows. */
export interface CaptureOutcome {
  evidence: Evidence;
  /** Write requests (not GET/HEAD/OPTIONS) that reached a server. */
  writesSent: number;
}

/** The recorder of a run: its records belong to the step running, its violations fail that step. */
function createRecorder(run: CaptureRun): NetworkRecorder {
  return new NetworkRecorder({
    appOrigin: run.appOrigin,
    allowedOrigins: run.allowedOrigins,
    maxBodyBytes: run.limits.max_body_bytes,
    maxAssetBytes: run.limits.max_asset_bytes,
    currentStep: () => run.current,
    recordStep: () => run.recording,
    onViolation: (stepId, message) => noteViolation(run, stepId, message),
    signIn: signInOf(run),
  });
}

/** The scenario's HTTP Basic credentials as the Authorization the recorder sends unasked to the start origin. */
function signInOf(run: CaptureRun): SignIn | null {
  const basic = httpCredentials(run);
  return basic === null ? null : { origin: basic.origin, authorization: basicAuthorization(basic) };
}

/** Attaches the recorder and the page's watchers (crash, WebSockets, redirect probe); starts the trace. */
async function openSession(
  run: CaptureRun,
  context: BrowserContext,
  recorder: NetworkRecorder,
  options: CaptureOptions,
): Promise<CaptureSession & { browser: Evidence["browser"] }> {
  await recorder.attach(context);
  if (options.tracePath) await context.tracing.start({ screenshots: true, snapshots: true });
  const page = context.pages()[0] ?? (await context.newPage());
  let crashed = false;
  page.on("crash", () => {
    crashed = true;
  });
  page.on("websocket", (ws) => {
    run.sawWebSocket = true;
    // The WebSocket route refuses other origins in the page; one still seen here was opened where it cannot reach.
    if (refusedWebSocket(run, ws.url()) !== null) noteViolation(run, run.current, escapedWebSocket(ws.url()));
  });
  const browser = await browserVersion(page);
  const redirects = await NetworkProbe.attach(page, run, (message) =>
    noteViolation(run, run.current, message),
  );
  recorder.useProbe(redirects);
  context.on("page", (popup) => void redirects.watch(popup));
  if (options.screenshotsDir) await mkdir(options.screenshotsDir, { recursive: true });
  return { page, context, recorder, redirects, crashed: () => crashed, browser };
}

/**
 * Ends the recording: the test seam, the trace, every record (waiting for
 * those in flight). Records still in flight when the last step ended count
 * towards the evidence limit too: the last step that ran fails for them.
 */
async function finishRecording(
  run: CaptureRun,
  session: CaptureSession,
  options: CaptureOptions,
): Promise<Evidence["records"]> {
  await options.beforeClose?.(session.context);
  if (options.tracePath) await session.context.tracing.stop({ path: options.tracePath });
  const records = await session.recorder.records();
  failLateViolations(run);
  const overLimit = overLimitMessage(run);
  if (session.recorder.recordedBytes > run.limits.max_evidence_bytes && !run.incomplete.includes(overLimit)) {
    run.incomplete.push(overLimit);
    const last = run.steps.findLast((s) => s.status !== "cancelled");
    if (last?.status === "passed") Object.assign(last, { status: "failed", error: overLimit });
  }
  return records;
}

/** Runs the scenario and returns redacted evidence; throws a UserError only when it could not run at all. */
export async function runCapture(options: CaptureOptions): Promise<CaptureOutcome> {
  const run = planRun(options.scenario, options.env ?? process.env, options.file);
  const recorder = createRecorder(run);
  const launched = await launchBrowser({
    browser: options.browser,
    headed: options.headed,
    env: options.env,
    httpCredentials: httpCredentials(run) ?? undefined,
    ownSigint: options.interruptible === true,
  });
  let browser: Evidence["browser"] = null;
  let records: Evidence["records"] = [];
  // Interrupted: the browser is stopped at once (the step in flight ends with it) and no evidence is made.
  const interrupt = options.interruptible ? options.signal : undefined;
  const stop = () => void launched.close().catch(() => undefined);
  interrupt?.addEventListener("abort", stop, { once: true });
  try {
    const session = await openSession(run, launched.context, recorder, options);
    browser = session.browser;
    await runSteps(run, session, options);
    records = await finishRecording(run, session, options);
  } catch (error) {
    if (!interrupt?.aborted) throw error;
  } finally {
    interrupt?.removeEventListener("abort", stop);
    await launched.close();
  }
  if (interrupt?.aborted) throw new Interrupted(INTERRUPTED);
  const evidence = assembleEvidence(run, browser, records);
  const writesSent = records.filter((r) => isWrite(r.request.method) && r.failure?.kind !== "refused").length;
  debug("capture %s: %s, %d records", run.scenario.name, evidence.verdict, records.length);
  return { evidence, writesSent };
}
