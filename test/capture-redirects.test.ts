/**
 * Redirects confinement stops before the browser follows them (issue 13): a
 * page's write answered 307/308 to another origin, and a navigation
 * redirected off the allowed origins, never reach that origin — not the
 * write's body, not the GET, not the landing page's favicon. A redirect that
 * stays on the app is followed as the browser would.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCapture } from "../src/capture/run-capture.js";
import { pageScenario } from "./capture-scenarios.js";

interface Heard {
  method: string;
  url: string;
  body: string;
}

type Answer = [number, Record<string, string>, string];

interface Loopback {
  origin: string;
  heard: Heard[];
  close(): Promise<void>;
}

async function loopback(answer: (req: IncomingMessage, body: string) => Answer | Promise<Answer>) {
  const heard: Heard[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const body = Buffer.concat(chunks).toString("utf8");
      heard.push({ method: req.method ?? "", url: req.url ?? "", body });
      const [status, headers, text] = await answer(req, body);
      res.writeHead(status, headers).end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    heard,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  } satisfies Loopback;
}

const HTML = { "content-type": "text/html; charset=utf-8" };
const BODY = "posted-body-the-other-origin-must-never-hear";

let other: Loopback;
let app: Loopback;

beforeAll(async () => {
  other = await loopback(() => [200, HTML, "<!doctype html><title>elsewhere</title><p>elsewhere</p>"]);
  app = await loopback(async (req) => {
    switch (req.url) {
      case "/bounce307":
        return [307, { location: `${other.origin}/collect` }, ""];
      case "/bounce308":
        return [308, { location: `${other.origin}/collect` }, ""];
      case "/stay307":
        return [307, { location: "/landed" }, ""];
      case "/landed":
        return [201, { "content-type": "application/json" }, '{"ok":true}'];
      case "/alias":
        return [
          200,
          HTML,
          `<!doctype html><title>alias</title><p id="out">…</p><script>
fetch(location.origin.replace("localhost", "127.0.0.1") + "/aliased", { method: "POST", body: "x" })
  .then(() => "sent", () => "refused").then((t) => { document.getElementById("out").textContent = t; });
</script>`,
        ];
      case "/away":
        return [302, { location: `${other.origin}/landing` }, ""];
      case "/slow-away":
        // Answers after the scenario's last step has ended (as any popup may on a loaded machine).
        await new Promise((r) => setTimeout(r, 1500));
        return [302, { location: `${other.origin}/landing` }, ""];
      case "/opens-slow-away":
        return [
          200,
          HTML,
          `<!doctype html><title>opener</title><p>opener</p><button onclick="window.open('/slow-away')">Away</button>`,
        ];
      case "/opens-away":
        return [
          200,
          HTML,
          `<!doctype html><title>opener</title><p>opener</p><p id="out"></p><button onclick="window.open('/away'); setTimeout(() => { document.getElementById('out').textContent = 'opened'; }, 1000)">Away</button>`,
        ];
      case "/opens-stay":
        return [
          200,
          HTML,
          `<!doctype html><title>opener</title><p>opener</p><button onclick="window.open('/popup-page')">Stay</button>`,
        ];
      case "/posts-into-popup":
        return [
          200,
          HTML,
          `<!doctype html><title>opener</title><p id="out"></p><button onclick="window.open('about:blank', 'p'); const f = document.createElement('form'); f.method = 'post'; f.target = 'p'; f.action = '/bounce307'; f.innerHTML = '<input name=a value=${BODY}>'; document.body.append(f); f.submit(); setTimeout(() => { document.getElementById('out').textContent = 'opened'; }, 1000)">Post</button>`,
        ];
      case "/popup-page":
        return [
          200,
          HTML,
          `<!doctype html><title>popup</title><p>popup page</p><script>fetch("/landed", { method: "POST", body: "p" })</script>`,
        ];
      case "/writes":
        return [
          200,
          HTML,
          `<!doctype html><title>writes</title><p id="out">…</p><script>
const send = (path) => fetch(path, { method: "POST", headers: { "content-type": "text/plain" }, body: ${JSON.stringify(BODY)} })
  .then((r) => r.status, (e) => "failed: " + e.message);
Promise.all(["/bounce307", "/bounce308", "/stay307"].map(send)).then((r) => { document.getElementById("out").textContent = "done " + r.join(" "); });
</script>`,
        ];
      default:
        return [200, HTML, "<!doctype html><title>app</title><p>app home</p>"];
    }
  });
});

afterAll(async () => {
  await app?.close();
  await other?.close();
});

describe("a page's write answered 307/308 to another origin", () => {
  it("is not followed: the other origin hears nothing, the record keeps the answer and says why", async () => {
    const { evidence } = await runCapture({
      scenario: pageScenario(app.origin, "write-redirects", [
        { step_id: "writes", action: "navigate", path: "/writes" },
        { step_id: "done", action: "expect-text", text: "done" },
        { step_id: "landed", action: "expect-request", request: "POST /landed", status: 201 },
      ]),
    });
    expect(other.heard).toEqual([]);
    expect(app.heard.filter((h) => h.method === "POST").map((h) => [h.url, h.body])).toEqual(
      expect.arrayContaining([
        ["/bounce307", BODY],
        ["/bounce308", BODY],
        ["/stay307", BODY],
        ["/landed", BODY],
      ]),
    );
    for (const [path, status] of [
      ["/bounce307", 307],
      ["/bounce308", 308],
    ] as const) {
      const rec = evidence.records.find((r) => r.request.url === `${app.origin}${path}`);
      const message = `redirect refused: POST ${app.origin}${path} answered ${status} to ${other.origin}, which would resend the write to an origin other than the app (${app.origin}); apptwin only lets writes reach the app`;
      expect(rec?.failure).toEqual({ kind: "redirect_refused", message });
      expect(rec?.response?.status).toBe(status);
      expect(rec?.response?.redirect_to).toBe(`${other.origin}/collect`);
      expect(evidence.warnings).toContainEqual({
        code: "redirect_refused",
        message,
        pointer: `/records/${rec!.seq}`,
      });
    }
    // A redirect that stays on the app is followed, as the browser would: the write lands and is recorded.
    const landed = evidence.records.find((r) => r.request.url === `${app.origin}/landed`);
    expect(landed?.request.method).toBe("POST");
    expect(landed?.response?.status).toBe(201);
    expect(evidence.steps.map((s) => s.status)).toEqual(["passed", "passed", "passed"]);
    expect(evidence.records.some((r) => r.request.url.startsWith(other.origin))).toBe(false);
  });
});

describe("a navigation redirected off the allowed origins", () => {
  it("is not followed: the step fails with the exact message, the other origin hears nothing (no GET, no favicon)", async () => {
    other.heard.length = 0;
    const { evidence } = await runCapture({
      scenario: pageScenario(app.origin, "nav-redirect", [
        { step_id: "home", action: "navigate", path: "/" },
        { step_id: "out", action: "navigate", path: "/away" },
        { step_id: "after", action: "expect-text", text: "app home" },
      ]),
    });
    const message = `redirect from ${app.origin}/away to ${other.origin} left the allowed origins (${app.origin})`;
    expect(evidence.steps.map((s) => [s.step_id, s.status, s.error])).toEqual([
      ["home", "passed", null],
      ["out", "failed", message],
      ["after", "cancelled", 'cancelled: step "out" failed'],
    ]);
    const rec = evidence.records.find((r) => r.request.url === `${app.origin}/away`);
    expect(rec?.response?.status).toBe(302);
    expect(rec?.response?.redirect_to).toBe(`${other.origin}/landing`);
    expect(rec?.failure).toEqual({ kind: "redirect_refused", message });
    expect(evidence.verdict).toBe("failed");
    // Give a late favicon or a follow-up the time to arrive, then prove none did.
    await new Promise((r) => setTimeout(r, 300));
    expect(other.heard).toEqual([]);
  });
});

describe("a popup's first document", () => {
  it("redirected off the allowed origins is not followed either: the step fails with the redirect's message, the other origin hears nothing", async () => {
    other.heard.length = 0;
    const { evidence } = await runCapture({
      scenario: pageScenario(app.origin, "popup-redirect", [
        { step_id: "home", action: "navigate", path: "/opens-away" },
        { step_id: "open", action: "click", target: 'role=button[name="Away"]' },
        { step_id: "settle", action: "wait", text: "opened" },
      ]),
    });
    const message = `redirect from ${app.origin}/away to ${other.origin} left the allowed origins (${app.origin})`;
    const rec = evidence.records.find((r) => r.request.url === `${app.origin}/away`);
    expect(rec?.response?.status).toBe(302);
    expect(rec?.failure).toEqual({ kind: "redirect_refused", message });
    expect(evidence.steps.some((s) => s.error === message)).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    expect(other.heard).toEqual([]);
  });

  it("still being fetched when the last step ends is waited for: the capture does not end before it knows, and the last step fails", async () => {
    other.heard.length = 0;
    const { evidence } = await runCapture({
      scenario: pageScenario(app.origin, "popup-slow-redirect", [
        { step_id: "home", action: "navigate", path: "/opens-slow-away" },
        { step_id: "open", action: "click", target: 'role=button[name="Away"]' },
      ]),
    });
    const message = `redirect from ${app.origin}/slow-away to ${other.origin} left the allowed origins (${app.origin})`;
    const rec = evidence.records.find((r) => r.request.url === `${app.origin}/slow-away`);
    expect(rec?.response?.status).toBe(302);
    expect(rec?.failure).toEqual({ kind: "redirect_refused", message });
    expect(evidence.steps.map((s) => [s.step_id, s.status, s.error])).toEqual([
      ["home", "passed", null],
      ["open", "failed", message],
    ]);
    expect(evidence.verdict).toBe("failed");
    await new Promise((r) => setTimeout(r, 300));
    expect(other.heard).toEqual([]);
  });

  it("that is a form posted into a blank popup and answered 307 to another origin is not resent there", async () => {
    other.heard.length = 0;
    const { evidence } = await runCapture({
      scenario: pageScenario(app.origin, "popup-post-307", [
        { step_id: "home", action: "navigate", path: "/posts-into-popup" },
        { step_id: "post", action: "click", target: 'role=button[name="Post"]' },
        { step_id: "settle", action: "expect-request", request: "POST /bounce307" },
      ]),
    });
    const rec = evidence.records.find((r) => r.request.url === `${app.origin}/bounce307`);
    expect(rec?.request.method).toBe("POST");
    expect(rec?.response?.status).toBe(307);
    expect(rec?.failure?.kind).toBe("redirect_refused");
    expect(evidence.records.some((r) => r.request.url.startsWith(other.origin))).toBe(false);
    await new Promise((r) => setTimeout(r, 300));
    expect(other.heard).toEqual([]);
  });

  it("that stays on the app loads with the app's answer, and its own requests are recorded", async () => {
    const { evidence } = await runCapture({
      scenario: pageScenario(app.origin, "popup-stay", [
        { step_id: "home", action: "navigate", path: "/opens-stay" },
        { step_id: "open", action: "click", target: 'role=button[name="Stay"]' },
        { step_id: "sent", action: "expect-request", request: "POST /landed", status: 201 },
      ]),
    });
    expect(evidence.steps.map((s) => [s.step_id, s.status])).toEqual([
      ["home", "passed"],
      ["open", "passed"],
      ["sent", "passed"],
    ]);
    const doc = evidence.records.find((r) => r.request.url === `${app.origin}/popup-page`);
    expect(doc?.response?.status).toBe(200);
    expect(doc?.response?.body?.text).toContain("popup page");
  });
});

describe("localhost and 127.0.0.1 (issue 13)", () => {
  it("are two origins, as in the browser: a write from a localhost page to 127.0.0.1 is refused, and the message says why", async () => {
    const local = app.origin.replace("127.0.0.1", "localhost");
    const { evidence } = await runCapture({
      scenario: pageScenario(local, "alias", [
        { step_id: "open", action: "navigate", path: "/alias" },
        { step_id: "shown", action: "expect-text", text: "refused" },
      ]),
    });
    const rec = evidence.records.find((r) => r.request.url === `${app.origin}/aliased`);
    expect(rec?.failure).toEqual({
      kind: "refused",
      message: `refused: POST to ${app.origin} is a write to an origin other than the app (${local}); apptwin only lets writes reach the app (127.0.0.1 and localhost are this same machine and port, but different origins to the browser and to apptwin; use one host name, the one the scenario starts on, everywhere)`,
    });
    expect(app.heard.some((h) => h.url === "/aliased")).toBe(false);
  });
});
