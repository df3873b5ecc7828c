/**
 * Reads from origins a scenario does not allow (issue 13): a page that loads
 * an image, an iframe and an EventSource from another origin, in a real
 * Chromium. Confinement lets reads pass, so each is recorded and warned,
 * naming the origin, and the capture is incomplete unless the scenario
 * allows the origin.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCapture } from "../src/capture/run-capture.js";
import { pageScenario } from "./capture-scenarios.js";

async function listen(
  body: (url: string) => { type: string; text: string },
): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    const { type, text } = body(req.url ?? "/");
    res.writeHead(200, { "content-type": type, "access-control-allow-origin": "*" });
    res.end(text);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

let app: { server: Server; origin: string };
let other: { server: Server; origin: string };

beforeAll(async () => {
  other = await listen((url) =>
    url.startsWith("/events")
      ? { type: "text/event-stream", text: "data: hi\n\n" }
      : { type: "text/plain", text: "elsewhere" },
  );
  app = await listen(() => ({
    type: "text/html",
    text: `<h1>Home</h1><img src="${other.origin}/pixel.png"><iframe src="${other.origin}/frame"></iframe>
<script>const es = new EventSource("${other.origin}/events"); es.onmessage = () => { document.body.dataset.got = "1"; es.close(); };</script>`,
  }));
});

afterAll(async () => {
  await Promise.all([app, other].filter(Boolean).map((s) => new Promise((r) => s.server.close(r))));
});

const steps = [
  { step_id: "home", action: "navigate" as const, path: "/" },
  { step_id: "shown", action: "expect-text" as const, text: "Home" },
];

describe("reads from an origin the scenario does not allow", () => {
  it("are recorded and warned, naming the origin, and leave the capture incomplete", async () => {
    const { evidence } = await runCapture({
      scenario: pageScenario(app.origin, "off-origin", steps),
      env: {},
    });
    expect(evidence.steps.map((s) => s.status)).toEqual(["passed", "passed"]);
    expect(evidence.verdict).toBe("incomplete");
    expect(evidence.limitations).toContain(
      `the page read from origins the scenario does not allow: ${other.origin}`,
    );
    const warned = evidence.warnings.filter((w) => w.code === "origin_not_allowed");
    expect(warned.length).toBeGreaterThan(0);
    for (const w of warned) expect(w.message).toContain(`from ${other.origin} (GET)`);
    const kinds = warned.map((w) => /read a (\S+)/.exec(w.message)?.[1]);
    expect(kinds).toContain("image");
    expect(kinds).toContain("document"); // the iframe
    for (const w of warned) {
      const seq = Number(w.pointer?.split("/")[2]);
      expect(evidence.records[seq]?.request.url.startsWith(other.origin)).toBe(true);
    }
  }, 60_000);

  it("pass without a word when the scenario allows the origin", async () => {
    const scenario = { ...pageScenario(app.origin, "allowed", steps), allowed_origins: [other.origin] };
    const { evidence } = await runCapture({ scenario, env: {} });
    expect(evidence.warnings.filter((w) => w.code === "origin_not_allowed")).toEqual([]);
    expect(evidence.verdict).toBe("passed");
  }, 60_000);
});
