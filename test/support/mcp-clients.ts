/**
 * Real MCP SDK clients of `apptwin mcp` as a coding agent runs it: the built
 * CLI spawned over stdio, or `apptwin mcp --http 0` reached over Streamable
 * HTTP. Every notification a client receives is kept, so tests can search
 * them (for the secret, for list_changed).
 */
import { spawn, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Notification } from "@modelcontextprotocol/sdk/types.js";

export const root = join(import.meta.dirname, "..", "..");
export const bin = join(root, "bin", "run.js");

const STAMP = join(root, "dist", ".test-build-stamp");
const LOCK = join(root, ".test-build.lock");

/** The newest change to what the CLI is built from (src outside tests, the build config, the manifest script). */
function newestSource(): number {
  let newest = 0;
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else if (e.name.endsWith(".ts") && !e.name.endsWith(".test.ts"))
        newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  walk(join(root, "src"));
  for (const f of ["tsconfig.build.json", "package.json", "scripts/gen-manifest.mjs"])
    newest = Math.max(newest, statSync(join(root, f)).mtimeMs);
  return newest;
}

/** True when a build this helper made is newer than every source it was made from. */
function fresh(): boolean {
  return existsSync(STAMP) && statSync(STAMP).mtimeMs >= newestSource();
}

/** Waits (bounded) for the build lock; a lock whose builder is gone is taken over. */
function takeLock(): void {
  const deadline = Date.now() + 15 * 60_000;
  for (;;) {
    try {
      mkdirSync(LOCK);
      writeFileSync(join(LOCK, "pid"), String(process.pid));
      return;
    } catch {
      let holder = Number.NaN;
      try {
        holder = Number(readFileSync(join(LOCK, "pid"), "utf8"));
        process.kill(holder, 0);
      } catch {
        // No pid yet (just taken) or its builder has exited: give it a moment, then take it over.
        if (Number.isFinite(holder)) rmSync(LOCK, { recursive: true, force: true });
      }
      if (Date.now() > deadline) throw new Error(`${LOCK} has been held for 15 minutes (pid ${holder})`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
    }
  }
}

/**
 * Compiles the CLI the child processes run and its command manifest (type
 * errors elsewhere do not stop tsc from emitting). Under `npm test` the
 * build step has just done it, so it is not done again in every file. Run
 * alone (`npx vitest run test/…`), one build serves every file of the run
 * and later runs until a source changes: test files in parallel workers take
 * turns, and the ones after the first find dist fresh (several tsc at once
 * on a loaded machine pushed beforeAll hooks past their timeout).
 */
export function buildCli(): void {
  if (process.env.npm_lifecycle_event === "test" || fresh()) return;
  takeLock();
  try {
    if (fresh()) return;
    const started = Date.now();
    spawnSync(
      process.execPath,
      [join(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json"],
      {
        cwd: root,
      },
    );
    spawnSync(process.execPath, [join(root, "scripts/gen-manifest.mjs")], { cwd: root });
    // Stamped with the start, so a source saved during the build is built again next time.
    writeFileSync(STAMP, "");
    utimesSync(STAMP, started / 1000, started / 1000);
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/** A connected client, the notifications it received, and how to end it. */
export interface McpHandle {
  client: Client;
  notifications: Notification[];
  stderr: () => string;
  close: () => Promise<void>;
}

function newClient(notifications: Notification[]): Client {
  const client = new Client({ name: "apptwin-test-agent", version: "1.0.0" });
  client.fallbackNotificationHandler = async (n) => {
    notifications.push(n);
  };
  return client;
}

/** Spawns `apptwin mcp` over stdio with `env` and connects a client. */
export async function stdioClient(env: Record<string, string>): Promise<McpHandle> {
  const notifications: Notification[] = [];
  const client = newClient(notifications);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, "mcp"],
    env,
    cwd: root,
    stderr: "pipe",
  });
  let err = "";
  transport.stderr?.on("data", (d) => (err += d));
  await client.connect(transport);
  return { client, notifications, stderr: () => err, close: () => client.close() };
}

/** Starts `apptwin mcp --http 0 --json` with `env` and connects a client over Streamable HTTP. */
export async function httpClient(env: Record<string, string>): Promise<McpHandle & { url: string }> {
  const child = spawn(process.execPath, [bin, "mcp", "--http", "0", "--json"], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  child.stderr.on("data", (d) => (err += d));
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line) resolve(JSON.parse(line).mcp);
    });
    child.on("exit", (code) => reject(new Error(`apptwin mcp --http exited ${code}: ${err}`)));
    setTimeout(() => reject(new Error(`apptwin mcp --http did not start: ${err}`)), 20_000).unref();
  });
  const notifications: Notification[] = [];
  const client = newClient(notifications);
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return {
    client,
    notifications,
    url,
    stderr: () => err,
    close: async () => {
      await client.close();
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}
