/**
 * Capture hardening in a real Chromium against tiny loopback apps: WebSockets
 * to other origins are refused (the other server hears no handshake, no
 * frame), one opened where interception cannot reach (a worker) fails the
 * step; a page stuck in `while(true)` cannot hang a request step; a
 * `location.href` to another origin fails the step; a catastrophic URL
 * pattern cannot hang the capture; the run time and evidence size limits
 * make the verdict `incomplete`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CaptureOutcome, runCapture } from "../src/capture/run-capture.js";
import { pageScenario } from "./capture-scenarios.js";
import { type LoopbackApp, startLoopbackApp } from "./fixtures/capture/loopback-app.js";

let app: LoopbackApp;
let other: LoopbackApp;

const statusScript = `const show = (id, t) => { document.getElementById(id).textContent = id + ": " + t; };`;

beforeAll(async () => {
  other = await startLoopbackApp();
  app = await startLoopbackApp({
    "/ws": {
      body: `<p id="same">same: waiting</p><p id="cross">cross: waiting</p><script>${statusScript}
const same = new WebSocket("ws://" + location.host + "/socket");
same.onopen = () => same.send("hello-same");
same.onmessage = (e) => show("same", e.data);
const cross = new WebSocket("${other.wsOrigin}/socket");
cross.onopen = () => { try { cross.send("hello-cross"); } catch {} };
cross.onmessage = (e) => show("cross", "got " + e.data);
cross.onclose = (e) => show("cross", "closed");
</script>`,
    },
    "/ws-worker": {
      body: `<p id="worker">worker: waiting</p><script>${statusScript}
const w = new Worker("/socket-worker.js");
w.onmessage = (e) => show("worker", e.data);
</script>`,
    },
    "/socket-worker.js": {
      type: "text/javascript",
      body: `const s = new WebSocket("${other.wsOrigin}/from-worker");
s.onopen = () => { s.send("hello-worker"); postMessage("sent"); };`,
    },
    "/stuck": {
      // After the click the page's fetch never returns: the request step's send runs into while(true).
      body: `<button onclick="window.fetch = () => { for (;;) {} }">Freeze</button>`,
    },
    "/leave": {
      body: `<button onclick="location.href = '${other.origin}/landing'">Leave</button>`,
    },
    "/big": { body: `<p>big</p><!--${"x".repeat(100_000)}-->` },
  });
});

afterAll(async () => {
  await app?.close();
  await other?.close();
});

describe("WebSockets", () => {
  let outcome: CaptureOutcome;
  beforeAll(async () => {
    outcome = await runCapture({
      scenario: pageScenario(app.origin, "websockets", [
        { step_id: "open", action: "navigate", path: "/ws" },
        { step_id: "same-acked", action: "expect-text", text: "same: ack" },
        { step_id: "cross-closed", action: "expect-text", text: "cross: closed" },
      ]),
    });
  });

  it("lets a same-origin socket through and notes that frames are not recorded", () => {
    expect(outcome.evidence.steps.map((s) => [s.step_id, s.status, s.error])).toEqual([
      ["open", "passed", null],
      ["same-acked", "passed", null],
      ["cross-closed", "passed", null],
    ]);
    expect(app.upgrades).toEqual(["/socket"]);
    expect(app.frames).toEqual(["hello-same"]);
    expect(outcome.evidence.limitations).toContain(
      "WebSocket frames are not recorded; only the WebSocket handshake URL was seen",
    );
  });

  it("refuses a socket to another origin: no handshake, no frame, a refused record", () => {
    expect(other.upgrades).toEqual([]);
    expect(other.frames).toEqual([]);
    const refused = outcome.evidence.records.find((r) => r.request.url === `${other.wsOrigin}/socket`);
    expect(refused?.resource_type).toBe("websocket");
    expect(refused?.response).toBeNull();
    expect(refused?.failure).toEqual({
      kind: "refused",
      message: `refused: a WebSocket to ${other.wsOrigin} is a channel to an origin other than the app (${app.origin}); apptwin only lets WebSockets reach the app`,
    });
    expect(outcome.evidence.verdict).toBe("passed");
  });

  it("fails the step when a socket to another origin is opened where it cannot be intercepted (a worker)", async () => {
    const worker = await runCapture({
      scenario: pageScenario(app.origin, "websocket-worker", [
        { step_id: "open", action: "navigate", path: "/ws-worker" },
        { step_id: "sent", action: "expect-text", text: "worker: sent" },
        { step_id: "settle", action: "wait", text: "worker: sent" },
      ]),
    });
    const failed = worker.evidence.steps.filter((s) => s.status === "failed");
    expect(failed.map((s) => s.error)).toEqual([
      `a WebSocket to ${other.wsOrigin} was opened where apptwin cannot intercept it (a worker); its frames may have reached that origin`,
    ]);
    expect(worker.evidence.verdict).toBe("failed");
  });
});

describe("a page stuck in while(true)", () => {
  it("fails the request step at its deadline, sends nothing, and the run ends", async () => {
    const t0 = Date.now();
    const stuck = await runCapture({
      scenario: pageScenario(app.origin, "stuck", [
        { step_id: "open", action: "navigate", path: "/stuck" },
        { step_id: "freeze", action: "click", target: 'role=button[name="Freeze"]' },
        {
          step_id: "send",
          action: "request",
          method: "POST",
          path: "/api/after",
          json: {},
          timeout_ms: 2000,
        },
        { step_id: "never", action: "request", method: "GET", path: "/api/never" },
      ]),
    });
    expect(Date.now() - t0).toBeLessThan(30_000);
    expect(stuck.evidence.steps.map((s) => [s.step_id, s.status])).toEqual([
      ["open", "passed"],
      ["freeze", "passed"],
      ["send", "failed"],
      ["never", "cancelled"],
    ]);
    expect(stuck.evidence.steps[2]!.error).toBe(
      "the page did not run POST /api/after before the step's deadline (its JavaScript may be stuck); nothing was sent",
    );
    expect(app.requests.filter((r) => r.includes("/api/"))).toEqual([]);
    expect(stuck.evidence.verdict).toBe("failed");
  });
});

describe("navigation and patterns", () => {
  it("fails the step when the page sets location.href to another origin", async () => {
    const leave = await runCapture({
      scenario: pageScenario(app.origin, "leave", [
        { step_id: "open", action: "navigate", path: "/leave" },
        { step_id: "leave", action: "click", target: 'role=button[name="Leave"]' },
      ]),
    });
    expect(leave.evidence.steps.map((s) => [s.step_id, s.status, s.error])).toEqual([
      ["open", "passed", null],
      [
        "leave",
        "failed",
        `navigation to ${other.origin} left the allowed origins (${app.origin}); add it to allowed_origins only if the app truly lives there`,
      ],
    ]);
    expect(other.requests).toEqual([]);
    expect(leave.evidence.verdict).toBe("failed");
  });

  it("fails a catastrophic expect-url pattern in bounded time instead of hanging", async () => {
    const path = `/${"a".repeat(40)}!`;
    const t0 = Date.now();
    const redos = await runCapture({
      scenario: pageScenario(app.origin, "redos", [
        { step_id: "open", action: "navigate", path },
        { step_id: "match", action: "expect-url", pattern: "^/(a+)+$", timeout_ms: 3000 },
      ]),
    });
    expect(Date.now() - t0).toBeLessThan(30_000);
    expect(redos.evidence.steps[1]!.status).toBe("failed");
    expect(redos.evidence.steps[1]!.error).toBe(
      `the pattern /^/(a+)+$/ took more than 1000 ms on ${path}; it backtracks without end (nested quantifiers such as (a+)+), so simplify it`,
    );
  });
});

describe("limits", () => {
  it("is incomplete when the run reaches max_run_ms", async () => {
    const slow = await runCapture({
      scenario: pageScenario(
        app.origin,
        "run-limit",
        [
          { step_id: "open", action: "navigate", path: "/stuck" },
          { step_id: "never", action: "expect-text", text: "never shown", timeout_ms: 60_000 },
        ],
        { max_run_ms: 1000 },
      ),
    });
    expect(slow.evidence.steps.some((s) => s.status === "failed")).toBe(true);
    expect(slow.evidence.verdict).toBe("incomplete");
  });

  it("is incomplete when the evidence passes max_evidence_bytes, even on the last step", async () => {
    const big = await runCapture({
      scenario: pageScenario(
        app.origin,
        "evidence-limit",
        [{ step_id: "open", action: "navigate", path: "/big" }],
        {
          max_evidence_bytes: 65_536,
        },
      ),
    });
    expect(big.evidence.steps[0]!.error).toBe("the evidence grew past its limit of 65536 bytes");
    expect(big.evidence.verdict).toBe("incomplete");
  });
});
