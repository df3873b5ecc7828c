/**
 * `apptwin serve` run as the real CLI (bin/run.js over dist/): HTTP with
 * --json printing the endpoints, a clean stop on SIGTERM, MCP over --stdio
 * with stdout reserved for the protocol, and the refusals (non-loopback
 * host, a directory that is not a bundle) with exit code 2.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
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
