/**
 * `apptwin serve` run as the real CLI (bin/run.js over dist/): HTTP with
 * --json printing the endpoints, a clean stop on SIGTERM, MCP over --stdio
 * with stdout reserved for the protocol, and the refusals (non-loopback
 * host, a directory that is not a bundle) with exit code 2.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { fetch } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBundle } from "../src/bundle/build-bundle.js";
import { writeBundle } from "../src/bundle/bundle-io.js";
import { itemsEvidence } from "./fixtures/evidence/items-evidence.js";

const root = join(import.meta.dirname, "..");
const bin = join(root, "bin", "run.js");
let dir: string;
let bundleDir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "apptwin-serve-cli-"));
  bundleDir = join(dir, "items-bundle");
  await writeBundle(bundleDir, buildBundle({ evidence: [itemsEvidence()], name: "items" }).files, {
    force: false,
  });
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

function run(args: string[]): {
  child: ChildProcess;
  exit: Promise<{ code: number | null; stdout: string; stderr: string }>;
} {
  const child = spawn(process.execPath, [bin, ...args], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d) => (stdout += d));
  child.stderr!.on("data", (d) => (stderr += d));
  const exit = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on("close", (code) => resolve({ code, stdout, stderr })),
  );
  return { child, exit };
}

describe("apptwin serve", () => {
  it("serves over HTTP, prints its endpoints as JSON, and stops cleanly on SIGTERM", async () => {
    const { child, exit } = run(["serve", bundleDir, "--port", "0", "--json", "--max-episodes", "2"]);
    const first = await new Promise<string>((resolve) =>
      createInterface({ input: child.stdout! }).once("line", resolve),
    );
    const endpoints = JSON.parse(first) as {
      name: string;
      url: string;
      mcp: string;
      control: string;
      tools: number;
    };
    expect(endpoints.name).toBe("items");
    expect(endpoints.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(endpoints.mcp).toBe(`${endpoints.url}/mcp`);
    expect(endpoints.control).toBe(`${endpoints.url}/__apptwin/`);
    const health = await (await fetch(`${endpoints.url}/__apptwin/health`)).json();
    expect(health).toEqual({
      status: "ok",
      name: "items",
      store: "memory",
      episodes: 1,
      max_episodes: 2,
      sessions: 0,
      evictions: { count: 0, last: null },
    });
    const made = async (id: string) =>
      (await fetch(`${endpoints.control}episodes`, { method: "POST", body: JSON.stringify({ id }) })).status;
    expect([await made("run-1"), await made("run-2")]).toEqual([201, 201]); // --max-episodes 2: run-1 evicted
    expect(await (await fetch(`${endpoints.control}episodes`)).json()).toEqual({
      episodes: ["default", "run-2"],
    });
    const list = (await (await fetch(`${endpoints.url}/api/items`)).json()) as { total: number };
    expect(list.total).toBe(6);
    child.kill("SIGTERM");
    expect((await exit).code).toBe(0);
  });

  it("serves MCP over stdio with stdout reserved for the protocol", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, "serve", bundleDir, "--stdio"],
      cwd: root,
      stderr: "pipe",
    });
    const client = new Client({ name: "cli-test", version: "1.0.0" });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("get_items_by_id");
    const res = await client.callTool({ name: "get_items_by_id", arguments: { id: 1 } });
    expect(res.structuredContent).toMatchObject({ status: 200, body: { id: 1 } });
    await client.close();
  });

  it("--log prints one line per request on stderr; --latency and --faults apply from the start", async () => {
    const faults = join(dir, "faults.json");
    await writeFile(
      faults,
      JSON.stringify({
        schema_version: 1,
        routes: [{ route: "DELETE /api/items/{id}", fault: { kind: "status", status: 404 } }],
      }),
    );
    const { child, exit } = run([
      "serve",
      bundleDir,
      "--port",
      "0",
      "--json",
      "--log",
      "--latency",
      "30",
      "--faults",
      faults,
    ]);
    const lines = createInterface({ input: child.stdout! });
    const { url } = JSON.parse(await new Promise<string>((resolve) => lines.once("line", resolve)));
    const logged: string[] = [];
    createInterface({ input: child.stderr! }).on("line", (l) => logged.push(l));
    const t0 = performance.now();
    expect((await fetch(`${url}/api/items?done=true`)).status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(30);
    expect((await fetch(`${url}/api/items/2`, { method: "DELETE" })).status).toBe(404);
    expect((await fetch(`${url}/api/nope`)).status).toBe(404);
    await new Promise((r) => setTimeout(r, 100));
    child.kill("SIGTERM");
    expect((await exit).code).toBe(0);
    expect(logged).toHaveLength(3);
    expect(logged[0]).toMatch(
      /^GET \/api\/items\?done=true 200 state get_items \d+(\.\d)?ms delay=30ms episode=default$/,
    );
    expect(logged[1]).toMatch(
      /^DELETE \/api\/items\/2 404 fault delete_items_by_id \d+(\.\d)?ms fault=status delay=30ms episode=default$/,
    );
    expect(logged[2]).toMatch(/^GET \/api\/nope 404 miss \d+(\.\d)?ms delay=30ms episode=default$/);
  });

  it("refuses a malformed --latency and a faults file with every problem named, exit 2", async () => {
    const bad = run(["serve", bundleDir, "--port", "0", "--latency", "fast"]);
    const r = await bad.exit;
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--latency "fast" is not a delay: give milliseconds (200), a range (100-300)');
    const faults = join(dir, "bad-faults.json");
    await writeFile(
      faults,
      JSON.stringify({ schema_version: 1, routes: [{ route: "GET /x", fault: { kind: "crash" } }] }),
    );
    const file = await run(["serve", bundleDir, "--port", "0", "--faults", faults]).exit;
    expect(file.code).toBe(2);
    expect(file.stderr).toContain(faults);
    expect(file.stderr).toContain("routes[0].fault.kind");
  });

  it("refuses a non-loopback host without --allow-remote, saying why", async () => {
    const { exit } = run(["serve", bundleDir, "--host", "0.0.0.0"]);
    const { code, stderr } = await exit;
    expect(code).toBe(2);
    expect(stderr).toContain(
      "--host 0.0.0.0 is not a loopback address. The twin has no authentication: anyone who can reach it can call its tools and reset or read every episode through /__apptwin/. Use --host 127.0.0.1, or add --allow-remote on a network you trust.",
    );
  });

  it("refuses a directory that is not a bundle with exit code 2", async () => {
    const { exit } = run(["serve", dir]);
    const { code, stderr } = await exit;
    expect(code).toBe(2);
    expect(stderr).toContain(`${dir}: has no manifest.json; is it a bundle written by apptwin build?`);
  });
});
