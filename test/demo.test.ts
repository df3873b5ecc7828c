/**
 * The README's quick start: `npm run demo` (scripts/demo.mjs) as CI runs it
 * (CI set, no terminal). It captures the items app, prints the coverage,
 * builds the bundle, stops the app and ends with the twin serving: its URLs
 * and the MCP configuration printed, a request answered by the twin alone,
 * and a clean exit. The demo's own files go to a temporary folder.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCli, root } from "./support/mcp-clients.js";

let dir: string;
beforeAll(async () => {
  buildCli();
  dir = await mkdtemp(join(tmpdir(), "apptwin-demo-"));
}, 180_000);
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

function start(env: Record<string, string>) {
  const child = spawn(process.execPath, [join(root, "scripts", "demo.mjs")], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output = { text: "" };
  child.stdout.on("data", (d) => (output.text += d));
  child.stderr.on("data", (d) => (output.text += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output, exited };
}

async function demo(env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const run = start(env);
  const code = await run.exited;
  return { code, out: run.output.text };
}

const MCP_LINE = /MCP \(Streamable HTTP, one episode per session\): (http:\/\/127\.0\.0\.1:\d+)\/mcp/;

describe("npm run demo", () => {
  it("ends with the twin serving and exits cleanly under CI", { timeout: 120_000 }, async () => {
    const { code, out } = await demo({ CI: "true", APPTWIN_DEMO_DIR: dir });
    expect(code, out).toBe(0);
    expect(out).toContain("passed: 21 passed, 0 failed, 0 cancelled");
    expect(out).toMatch(/Coverage: complete/);
    expect(out).toMatch(/\nAll \d+ oracles passed\.\n/);
    expect(out).toContain("items app stopped: from here on, the twin answers on its own.");
    expect(out).toMatch(/twin GET http:\/\/127\.0\.0\.1:\d+\/api\/items -> 200: Buy coffee beans, /);
    const base = MCP_LINE.exec(out)?.[1];
    expect(base).toBeDefined();
    const mcp = `${base}/mcp`;
    expect(out).toContain(`"url": "${mcp}"`);
    expect(out.trimEnd().endsWith("Demo done (non-interactive run): stopping the twin.")).toBe(true);
    await stat(join(dir, "bundle", "manifest.json"));
    await expect(fetch(mcp)).rejects.toThrow();
  });

  it("keeps the twin serving by default until Ctrl+C", async () => {
    const run = start({ APPTWIN_DEMO_DIR: join(dir, "interactive") });
    await expect
      .poll(() => run.output.text, { timeout: 90_000, interval: 200 })
      .toContain("Press Ctrl+C to stop the twin.");
    const base = MCP_LINE.exec(run.output.text)?.[1] ?? "http://127.0.0.1:1";
    await new Promise((r) => setTimeout(r, 500));
    const res = await fetch(`${base}/api/items/1`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: 1, title: "Buy coffee beans" });
    run.child.kill("SIGINT");
    expect(await run.exited).toBe(0);
    await expect(fetch(`${base}/api/items/1`)).rejects.toThrow();
  }, 120_000);
});
