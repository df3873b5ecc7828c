/**
 * Which step a page request belongs to: a click whose fetch starts only after
 * Playwright's click has returned (here on purpose, 400 ms later; on a loaded
 * machine by accident) still belongs to the click, not to the expect-request
 * that watches for it; a request started during a `wait` belongs to the wait.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CaptureOutcome, runCapture } from "../src/capture/run-capture.js";
import { pageScenario } from "./capture-scenarios.js";

const PAGE = `<!doctype html><title>late fetch</title>
<button id="go">Send</button><p id="out">idle</p><p id="later"></p>
<script>
document.getElementById("go").addEventListener("click", () => {
  setTimeout(() => fetch("/api/late", { method: "POST", body: "{}" })
    .then(() => { document.getElementById("out").textContent = "sent"; }), 400);
  setTimeout(() => fetch("/api/during-wait")
    .then(() => { document.getElementById("later").textContent = "polled"; }), 1200);
});
</script>`;

let server: Server;
let origin: string;
let outcome: CaptureOutcome;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === "/") res.writeHead(200, { "content-type": "text/html" }).end(PAGE);
    else res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  outcome = await runCapture({
    scenario: pageScenario(origin, "late-fetch", [
      { step_id: "open", action: "navigate", path: "/" },
      { step_id: "send", action: "click", target: 'role=button[name="Send"]' },
      { step_id: "sent", action: "expect-request", request: "POST /api/late", timeout_ms: 5000 },
      { step_id: "shown", action: "expect-text", target: "css=#out", text: "sent", timeout_ms: 5000 },
      { step_id: "settle", action: "wait", text: "polled", timeout_ms: 5000 },
    ]),
    env: {},
  });
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("step attribution of page requests", () => {
  it("gives a fetch that starts after its click has returned to the click, and a wait's own request to the wait", () => {
    expect(outcome.evidence.verdict).toBe("passed");
    const of = (path: string) =>
      outcome.evidence.records.find((r) => new URL(r.request.url).pathname === path)?.step_id;
    expect(of("/")).toBe("open");
    expect(of("/api/late")).toBe("send");
    expect(of("/api/during-wait")).toBe("settle");
  });
});
