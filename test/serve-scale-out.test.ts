/**
 * Scale-out, end to end with real processes: Debian's redis-server on a free
 * loopback port, two `apptwin serve --store redis://…` replicas of one bundle
 * (the real CLI), and Debian's nginx round-robin in front (or the test's own
 * round-robin client where nginx is missing). An HTTP episode and an MCP
 * session whose calls alternate between the replicas answer exactly as one
 * in-memory replica does for the same calls; a replica killed mid-episode
 * loses nothing (the other goes on, nginx passing the dead one's share to it,
 * and a restarted one sees it all); two replicas creating in one episode at
 * once give distinct ids, all kept; Redis out of reach at start is exit 2,
 * and lost while serving is a 503. nginx runs the documented config
 * (docs/deploy/nginx-apptwin.conf), only its addresses swapped.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { fetch } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBundle } from "../src/bundle/build-bundle.js";
import { writeBundle } from "../src/bundle/bundle-io.js";
import { readBundle } from "../src/bundle/bundle-reader.js";
import { createTwinServer, type TwinServer } from "../src/serve/http/twin-http-server.js";
import type { TwinBundle } from "../src/serve/twin-bundle.js";
import { itemsEvidence } from "./fixtures/evidence/items-evidence.js";
import { type Started, start, stop, waitReady } from "./support/child-process.js";
import { bin, buildCli, root } from "./support/mcp-clients.js";
import { roundRobin, startNginx, type TestNginx } from "./support/nginx.js";
import { freePort, startRedis, type TestRedis } from "./support/redis-server.js";

interface Replica {
  process: Started;
  url: string;
  /** Requests it answered (its --log lines on stderr). */
  answered: () => number;
}

let dir: string;
let bundleDir: string;
let bundle: TwinBundle;
let redis: TestRedis;
let replicas: Replica[] = [];
/** Every replica started, stopped at the end by its PID (a killed one is already gone). */
const started: Started[] = [];
let nginx: TestNginx | null = null;
let memory: TwinServer;
let memoryUrl: string;
/** The base URL the next call through the load balancer goes to. */
let balanced: () => string;

/** How long a CLI replica may take to print its URL on a loaded machine. */
const READY_MS = 60_000;

/** Starts `apptwin serve` on the bundle (a free port) and waits, bounded, for the URL it prints first. */
async function serve(args: string[]): Promise<Replica> {
  const p = start(process.execPath, [bin, "serve", bundleDir, "--port", "0", "--json", "--log", ...args], {
    cwd: root,
  });
  started.push(p);
  let url = "";
  const first = () => {
    const line = /^\{.*"url".*\}$/m.exec(p.output());
    if (line) url = (JSON.parse(line[0]) as { url: string }).url;
    return url !== "";
  };
  if (!(await waitReady(p, "apptwin serve", first, READY_MS))) {
    throw new Error(`apptwin serve exited ${await p.exit}: ${p.output()}`);
  }
  return {
    process: p,
    url,
    answered: () =>
      p
        .output()
        .split("\n")
        .filter((l) => /^(?:GET|POST|PUT|PATCH|DELETE) /.test(l)).length,
  };
}

/**
 * Waits, bounded, until every replica has logged the calls it answered since `before` (a replica logs a request
 * once it has answered, so the log may trail the answer), and returns how many each answered.
 */
async function answeredSince(before: number[], calls: number): Promise<number[]> {
  const took = () => replicas.map((r, i) => r.answered() - before[i]!);
  const until = Date.now() + 10_000;
  while (took().reduce((a, b) => a + b, 0) < calls && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 50));
  }
  return took();
}

beforeAll(async () => {
  buildCli();
  dir = await mkdtemp(join(tmpdir(), "apptwin-scale-out-"));
  bundleDir = join(dir, "items-bundle");
  await writeBundle(bundleDir, buildBundle({ evidence: [itemsEvidence()], name: "items" }).files, {
    force: false,
  });
  bundle = await readBundle(bundleDir);
  redis = await startRedis();
  replicas = await Promise.all([serve(["--store", redis.url]), serve(["--store", redis.url])]);
  nginx = await startNginx(replicas.map((r) => new URL(r.url).host));
  balanced = nginx ? () => nginx!.url : roundRobin(replicas.map((r) => r.url));
  memory = createTwinServer(bundle);
  memoryUrl = await memory.listen(0, "127.0.0.1");
}, 300_000); // tsc (outside npm test), the bundle, redis-server, two CLI replicas and nginx on a loaded machine

afterAll(async () => {
  await memory?.close();
  await nginx?.stop();
  await Promise.all(started.map((p) => stop(p)));
  await redis?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface Call {
  method: string;
  path: string;
  body?: unknown;
}

/** One call as bytes: status, the headers that carry meaning, the body text. */
async function call(base: string, episode: string, c: Call) {
  const res = await fetch(`${base}${c.path}`, {
    method: c.method,
    headers: {
      "x-apptwin-episode": episode,
      // The recorded writes carried a bearer token: any value is what the twin takes for one.
      authorization: "Bearer any",
      ...(c.body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: c.body === undefined ? undefined : JSON.stringify(c.body),
  });
  return {
    status: res.status,
    type: res.headers.get("content-type"),
    served_by: res.headers.get("x-apptwin-served-by"),
    body: await res.text(),
  };
}

async function control(base: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}/__apptwin/${path}`, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.text() };
}

const CALLS: Call[] = [
  { method: "POST", path: "/api/items", body: { title: "milk" } },
  { method: "POST", path: "/api/items", body: { title: "eggs" } },
  { method: "GET", path: "/api/items/6" },
  { method: "PATCH", path: "/api/items/6", body: { done: true } },
  { method: "DELETE", path: "/api/items/3" },
  { method: "GET", path: "/api/items/3" },
  { method: "POST", path: "/api/login", body: { username: "alice", password: "pw" } },
  { method: "GET", path: "/api/items?done=true" },
  { method: "POST", path: "/api/items", body: { title: "bread" } },
  { method: "GET", path: "/api/items?limit=2&offset=1" },
  { method: "GET", path: "/api/items" },
  { method: "GET", path: "/api/itemz/4" },
];

describe("two replicas on Redis behind a round-robin load balancer", () => {
  it("answers an HTTP episode whose calls alternate between replicas exactly as one in-memory replica", async () => {
    const before = replicas.map((r) => r.answered());
    expect((await control(balanced(), "POST", "episodes", { id: "http-1", seed: 3 })).status).toBe(201);
    expect((await control(memoryUrl, "POST", "episodes", { id: "http-1", seed: 3 })).status).toBe(201);
    for (const c of CALLS) {
      expect(await call(balanced(), "http-1", c)).toEqual(await call(memoryUrl, "http-1", c));
    }
    for (const what of ["state", "diff"]) {
      expect(await control(balanced(), "GET", `episodes/http-1/${what}`)).toEqual(
        await control(memoryUrl, "GET", `episodes/http-1/${what}`),
      );
    }
    // Both replicas took a share of the calls (round-robin), so the episode really crossed between them.
    const took = await answeredSince(before, CALLS.length);
    expect(took.every((n) => n >= 4)).toBe(true);
  });

  it("answers an MCP session whose requests alternate between replicas exactly as one in-memory replica", async () => {
    const connect = async (base: string, spread: boolean) => {
      const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
        // Without nginx, the test's own round-robin: every request of the session goes to the next replica.
        ...(spread && !nginx
          ? { fetch: (url, init) => fetch(String(url).replace(base, balanced()), init as never) as never }
          : {}),
      });
      const client = new Client({ name: "scale-out-test", version: "1.0.0" });
      await client.connect(transport);
      return { client, transport };
    };
    const before = replicas.map((r) => r.answered());
    const lb = await connect(balanced(), true);
    const one = await connect(memoryUrl, false);
    const tool = (method: string, template: string) =>
      bundle.tools.find((t) => t.binding.method === method && t.binding.template === template)!.name;
    const steps: [string, Record<string, unknown>][] = [
      [tool("POST", "/api/items"), { body: { title: "tea" } }],
      [tool("POST", "/api/items"), { body: { title: "jam" } }],
      [tool("PATCH", "/api/items/{id}"), { id: "7", body: { done: true } }],
      [tool("DELETE", "/api/items/{id}"), { id: "1" }],
      [tool("GET", "/api/items/{id}"), { id: "7" }],
      [tool("GET", "/api/items"), {}],
    ];
    for (const [name, args] of steps) {
      const a = await lb.client.callTool({ name, arguments: args });
      const b = await one.client.callTool({ name, arguments: args });
      expect(a).toEqual(b);
    }
    expect((await lb.client.listTools()).tools).toEqual((await one.client.listTools()).tools);
    // The session's tool calls were answered by both replicas (each logs the calls it answered).
    expect((await answeredSince(before, steps.length)).every((n) => n >= 2)).toBe(true);
    const sid = lb.transport.sessionId!;
    const mine = await control(balanced(), "GET", `episodes/${sid}/state`);
    expect(mine).toEqual(await control(memoryUrl, "GET", `episodes/${one.transport.sessionId}/state`));
    await lb.transport.terminateSession();
    const after = await fetch(`${balanced()}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": sid,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" }),
    });
    expect(after.status).toBe(404);
    expect(await after.json()).toEqual({
      jsonrpc: "2.0",
      error: { code: -32001, message: `Unknown MCP session "${sid}"; start a new session with initialize.` },
      id: null,
    });
    await one.client.close();
  });

  it("gives two replicas creating in one episode at once distinct ids, every create visible afterwards", async () => {
    expect((await control(replicas[0]!.url, "POST", "episodes", { id: "race" })).status).toBe(201);
    const made = await Promise.all(
      Array.from({ length: 40 }, (_, n) =>
        call(replicas[n % 2]!.url, "race", { method: "POST", path: "/api/items", body: { title: `t${n}` } }),
      ),
    );
    expect(made.every((m) => m.status === 201)).toBe(true);
    const ids = made.map((m) => (JSON.parse(m.body) as { id: number }).id);
    expect(new Set(ids).size).toBe(40);
    for (const r of replicas) {
      const list = JSON.parse((await call(r.url, "race", { method: "GET", path: "/api/items" })).body) as {
        data: { id: number; title: string }[];
        total: number;
      };
      expect(list.total).toBe(bundle.seed.collections.items!.length + 40);
      const created = list.data.filter((d) => ids.includes(d.id));
      expect(created.map((d) => d.title).sort()).toEqual(
        Array.from({ length: 40 }, (_, n) => `t${n}`).sort(),
      );
    }
  });

  it("loses nothing when a replica is killed mid-episode: the other goes on, a restarted one sees it all", async () => {
    const [a, b] = replicas as [Replica, Replica];
    expect((await control(a.url, "POST", "episodes", { id: "kill-1" })).status).toBe(201);
    expect((await control(memoryUrl, "POST", "episodes", { id: "kill-1" })).status).toBe(201);
    const [first, rest] = [CALLS.slice(0, 5), CALLS.slice(5)];
    for (const [i, c] of first.entries()) {
      expect(await call(i % 2 === 0 ? a.url : b.url, "kill-1", c)).toEqual(
        await call(memoryUrl, "kill-1", c),
      );
    }
    await stop(a.process, "SIGKILL");
    // Through nginx (its documented config passes a request a dead replica refused to the next one), else to b.
    const on = nginx ? nginx.url : b.url;
    for (const c of rest) expect(await call(on, "kill-1", c)).toEqual(await call(memoryUrl, "kill-1", c));
    const restarted = await serve(["--store", redis.url]);
    replicas = [restarted, b];
    expect(await control(restarted.url, "GET", "episodes/kill-1/state")).toEqual(
      await control(memoryUrl, "GET", "episodes/kill-1/state"),
    );
    expect(await control(restarted.url, "GET", "episodes/kill-1/diff")).toEqual(
      await control(memoryUrl, "GET", "episodes/kill-1/diff"),
    );
  });

  it("refuses to start when Redis is out of reach (exit 2), and answers 503 with the reason while it is lost", async () => {
    const port = await freePort();
    const refused = start(
      process.execPath,
      [bin, "serve", bundleDir, "--port", "0", "--store", `redis://127.0.0.1:${port}/0`],
      { cwd: root },
    );
    started.push(refused);
    // Bounded: a replica that does not give up within the minute fails the test (and is stopped by its PID).
    expect(await waitReady(refused, "apptwin serve (refusing)", () => false, READY_MS)).toBe(false);
    const code = await refused.exit;
    const err = refused.output();
    expect(code).toBe(2);
    expect(err).toContain(
      `Cannot reach the episode store redis://127.0.0.1:${port}/0: connect ECONNREFUSED 127.0.0.1:${port}. Start Redis there (redis-server --port ${port}), fix --store, or serve without --store to keep the episodes in this process.`,
    );

    const own = await startRedis();
    try {
      const replica = await serve(["--store", own.url]);
      expect((await call(replica.url, "default", CALLS[0]!)).status).toBe(201);
      await own.stop();
      const lost = await call(replica.url, "default", CALLS[1]!);
      expect(lost.status).toBe(503);
      const body = JSON.parse(lost.body) as Record<string, string>;
      expect([body.error, body.store]).toEqual(["store_unavailable", own.url]);
      expect(body.message).toMatch(
        /^The episode store \(redis:\/\/127\.0\.0\.1:\d+\/0\) cannot be reached: .+\. The twin does not answer without the episode's state; retry once the store is back\.$/,
      );
      const health = await control(replica.url, "GET", "health");
      expect(health.status).toBe(503);
      await stop(replica.process);
    } finally {
      await own.stop();
    }
  });
});
