/**
 * Confinement and the fail-closed verdict in a real Chromium: a page's write
 * to another origin is refused and recorded; a request step to a redirect
 * fails without the other origin hearing anything; a request step past its
 * deadline sends nothing; later steps are cancelled and the verdict fails.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startItemsApp } from "../scripts/fixtures/items-app/server.mjs";
import { type CaptureOutcome, type CaptureProgress, runCapture } from "../src/capture/run-capture.js";
import { scenarioFor } from "./capture-scenarios.js";

const PASSWORD = "hunter2-but-longer";
const env = { ...process.env, ITEMS_PASSWORD: PASSWORD };

type App = Awaited<ReturnType<typeof startItemsApp>>;
let app: App;
let outcome: CaptureOutcome;
const progress: CaptureProgress[] = [];

beforeAll(async () => {
  app = await startItemsApp({ port: 0, password: PASSWORD });
  const scenario = scenarioFor(app.url, "confinement", [
    { step_id: "cross", action: "navigate", path: "/cross-origin" },
    { step_id: "refused-shown", action: "expect-text", text: "Cross-origin POST refused" },
    { step_id: "too-late", action: "request", method: "GET", path: "/api/deadline-probe", timeout_ms: 1 },
    { step_id: "never-run", action: "request", method: "GET", path: "/api/never" },
  ]);
  scenario.allowed_origins = [];
  outcome = await runCapture({ scenario, env, onProgress: (e) => progress.push(e) });
});

afterAll(async () => {
  await app?.close();
});

describe("confinement", () => {
  it("refuses the page's POST to the other origin and records it as refused", () => {
    const post = outcome.evidence.records.find((r) => r.request.url === `${app.other.origin}/collect`);
    expect(post?.request.method).toBe("POST");
    expect(post?.failure).toEqual({
      kind: "refused",
      message: `refused: POST to ${app.other.origin} is a write to an origin other than the app (${app.origin}); apptwin only lets writes reach the app`,
    });
    expect(post?.response).toBeNull();
    expect(app.other.requests.filter((r) => r.method === "POST")).toEqual([]);
    expect(outcome.evidence.warnings).toContainEqual({
      code: "write_refused",
      message: post!.failure!.message,
      pointer: `/records/${post!.seq}`,
    });
    expect(outcome.writesSent).toBe(0);
  });

  it("sends nothing once a request step's deadline has passed, then cancels the rest", () => {
    const { steps } = outcome.evidence;
    expect(steps.map((s) => [s.step_id, s.status])).toEqual([
      ["cross", "passed"],
      ["refused-shown", "passed"],
      ["too-late", "failed"],
      ["never-run", "cancelled"],
    ]);
    expect(steps[2]!.error).toBe(
      "the step's deadline passed before GET /api/deadline-probe was sent; nothing was sent",
    );
    expect(steps[3]!.error).toBe('cancelled: step "too-late" failed');
    expect(app.requests.map((r) => r.url)).not.toContain("/api/deadline-probe");
    expect(outcome.evidence.records.some((r) => r.request.url.includes("/api/deadline-probe"))).toBe(false);
    expect(outcome.evidence.verdict).toBe("failed");
  });

  it("reports each step as it starts and ends", () => {
    expect(
      progress.map((e) =>
        e.type === "step-start" ? `start ${e.step_id}` : `end ${e.result.step_id} ${e.result.status}`,
      ),
    ).toEqual([
      "start cross",
      "end cross passed",
      "start refused-shown",
      "end refused-shown passed",
      "start too-late",
      "end too-late failed",
      "end never-run cancelled",
    ]);
  });
});

describe("a request step to a redirect", () => {
  it("fails, records the 302, and the other origin hears nothing", async () => {
    const redirect = await runCapture({
      scenario: scenarioFor(app.url, "redirect-out", [
        { step_id: "home", action: "navigate", path: "/login" },
        { step_id: "out", action: "request", method: "GET", path: "/api/redirect-out" },
        { step_id: "after", action: "expect-url", pattern: "^/login" },
      ]),
      env,
    });
    const before = app.other.requests.length;
    const { steps, records, verdict } = redirect.evidence;
    expect(steps.map((s) => s.status)).toEqual(["passed", "failed", "cancelled"]);
    expect(steps[1]!.error).toBe(
      "redirect refused: request steps never follow redirects (GET /api/redirect-out answered 302)",
    );
    const rec = records.find((r) => r.request.url.endsWith("/api/redirect-out"))!;
    expect(rec.initiator).toBe("request-step");
    expect(rec.response?.status).toBe(302);
    expect(rec.response?.redirect_to).toBe(`${app.other.origin}/landing`);
    expect(rec.failure).toEqual({
      kind: "redirect_refused",
      message: "request steps never follow redirects",
    });
    expect(records.some((r) => r.request.url.startsWith(app.other.origin))).toBe(false);
    expect(app.other.requests).toEqual([]);
    expect(before).toBe(0);
    expect(verdict).toBe("failed");
  });
});

describe("a page navigation to a redirect that leaves the allowed origins", () => {
  it("fails the step with the exact message and records the 302", async () => {
    const page = await runCapture({
      scenario: scenarioFor(app.url, "page-redirect-out", [
        { step_id: "home", action: "navigate", path: "/login" },
        { step_id: "out", action: "navigate", path: "/api/redirect-out" },
        { step_id: "after", action: "expect-url", pattern: "^/login" },
      ]),
      env,
    });
    const { steps, records, verdict } = page.evidence;
    expect(steps.map((s) => [s.step_id, s.status, s.error])).toEqual([
      ["home", "passed", null],
      [
        "out",
        "failed",
        `redirect from ${app.origin}/api/redirect-out to ${app.other.origin} left the allowed origins (${app.origin})`,
      ],
      ["after", "cancelled", 'cancelled: step "out" failed'],
    ]);
    const rec = records.find((r) => r.request.url === `${app.origin}/api/redirect-out`);
    expect(rec?.resource_type).toBe("document");
    expect(rec?.response?.status).toBe(302);
    expect(rec?.response?.redirect_to).toBe(`${app.other.origin}/landing`);
    expect(rec?.failure).toEqual({
      kind: "redirect_refused",
      message: `redirect from ${app.origin}/api/redirect-out to ${app.other.origin} left the allowed origins (${app.origin})`,
    });
    // The redirect was seen before the browser followed it: the other origin heard nothing (no GET, no favicon).
    expect(app.other.requests).toEqual([]);
    expect(verdict).toBe("failed");
  });
});
