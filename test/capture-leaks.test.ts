/**
 * Ways a secret could slip past redaction in a real Chromium, and ways the
 * page could reach another origin, against a small hostile app written here:
 * a sign-in form without `method` (the password lands in the URL), a failing
 * step whose error quotes that URL, an API that echoes the password with
 * `\u` escapes and in a path, a WebSocket, a beacon and a form post to
 * another origin. Every check searches the bytes.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { progressLine } from "../src/capture/progress-reporter.js";
import { type CaptureOutcome, type CaptureProgress, runCapture } from "../src/capture/run-capture.js";
import type { Scenario } from "../src/scenario/scenario-schema.js";
import { canonicalJson } from "../src/util/canonical-json.js";

const PASSWORD = "Pä$s w@rd-9f3k";
const pythonStyle = JSON.stringify(PASSWORD).replace(
  /[^\x20-\x7e]/g,
  (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
);

interface Site {
  server: Server;
  origin: string;
  seen: { method: string; url: string; upgrade: boolean }[];
}

async function listen(handle: (req: IncomingMessage) => { type: string; body: string }): Promise<Site> {
  const seen: Site["seen"] = [];
  const server = createServer((req, res) => {
    seen.push({ method: req.method ?? "", url: req.url ?? "", upgrade: false });
    const { type, body } = handle(req);
    res.writeHead(200, { "content-type": type, "access-control-allow-origin": "*" });
    res.end(body);
  });
  server.on("upgrade", (req, socket) => {
    seen.push({ method: req.method ?? "", url: req.url ?? "", upgrade: true });
    socket.destroy();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return { server, origin: `http://127.0.0.1:${port}`, seen };
}

let app: Site;
let other: Site;
let outcome: CaptureOutcome;
const progress: CaptureProgress[] = [];

beforeAll(async () => {
  other = await listen(() => ({ type: "text/plain", body: "ok" }));
  app = await listen((req) => {
    if (req.url?.startsWith("/api/echo"))
      return { type: "application/json", body: `{"echo": ${pythonStyle}}` };
    if (req.url?.startsWith("/login"))
      return {
        type: "text/html",
        body: `<form><label>Password <input name="password" type="password"></label><button>Sign in</button></form>
<script>document.querySelector("form").addEventListener("submit", async (e) => {
  e.preventDefault();
  await (await fetch("/api/echo/" + document.querySelector("input").value)).text();
  e.target.submit();
});</script>`,
      };
    return {
      type: "text/html",
      body: `<h1>Home</h1><form method="post" action="${other.origin}/form"><input name="x" value="1"><button>Send away</button></form>
<script>
  navigator.sendBeacon("${other.origin}/beacon", "hello");
  const ws = new WebSocket("${other.origin.replace("http", "ws")}/ws");
</script>`,
    };
  });
  const scenario: Scenario = {
    schema_version: 1,
    name: "leaks",
    start_url: `${app.origin}/`,
    // A read origin: writes to it are still refused, and so is the WebSocket (only the app gets one).
    allowed_origins: [other.origin],
    secrets: [{ id: "password", env: "LEAK_PASSWORD" }],
    steps: [
      { step_id: "home", action: "navigate", path: "/" },
      { step_id: "send-away", action: "click", target: 'role=button[name="Send away"]' },
      { step_id: "login-page", action: "navigate", path: "/login" },
      { step_id: "password", action: "fill", target: "label=Password", value: { secret: "password" } },
      { step_id: "submit", action: "click", target: 'role=button[name="Sign in"]' },
      { step_id: "echoed", action: "expect-request", request: "GET /api/echo/*", timeout_ms: 3000 },
      { step_id: "landed", action: "expect-url", pattern: "^/items", timeout_ms: 500 },
    ],
  };
  outcome = await runCapture({
    scenario,
    env: { ...process.env, LEAK_PASSWORD: PASSWORD },
    onProgress: (e) => progress.push(e),
  });
}, 60_000);

afterAll(async () => {
  await Promise.all([app, other].filter(Boolean).map((s) => new Promise((r) => s.server.close(r))));
});

/** Every form the password could take in bytes a user sees or keeps. */
function leaks(text: string): string[] {
  const forms = [PASSWORD, encodeURIComponent(PASSWORD), "w@rd-9f3k", "w%40rd-9f3k", "rd-9f3k"];
  return forms.filter((f) => text.includes(f));
}

describe("capture leaks nothing", () => {
  it("the failing step's error quotes the URL the GET form made, redacted in the evidence", () => {
    const landed = outcome.evidence.steps.find((s) => s.step_id === "landed");
    expect(landed?.status).toBe("failed");
    expect(landed?.error).toBe(
      "the URL did not match /^/items/ in time; it is /login?password=[REDACTED:secret:password]",
    );
    expect(leaks(canonicalJson(outcome.evidence))).toEqual([]);
  });

  it("the progress lines (stderr of the CLI) carry no secret either", () => {
    const lines = progress.map(progressLine).join("\n");
    expect(lines).toContain("/login?password=[REDACTED:secret:password]");
    expect(leaks(lines)).toEqual([]);
  });

  it("the echoed password, \\u-escaped in JSON and in a URL path, is redacted", () => {
    const echo = outcome.evidence.records.find((r) => r.request.url.includes("/api/echo/"));
    expect(echo?.request.url).toBe(`${app.origin}/api/echo/[REDACTED:secret:password]`);
    expect(echo?.response?.body?.text).toBe('{"echo": "[REDACTED:secret:password]"}');
  });

  it("lets no write reach the other origin: form post, beacon and WebSocket refused", () => {
    expect(other.seen.filter((r) => r.method !== "GET")).toEqual([]);
    expect(other.seen.some((r) => r.url.startsWith("/ws"))).toBe(false);
    const refused = outcome.evidence.records.filter((r) => r.failure?.kind === "refused");
    expect(refused.map((r) => `${r.request.method} ${new URL(r.request.url).pathname}`).sort()).toEqual([
      "GET /ws",
      "POST /beacon",
      "POST /form",
    ]);
  });
});
