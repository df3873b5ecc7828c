#!/usr/bin/env node
// Episodes at RL scale, with bare node:http and json-server 0.17 as anchors in
// the same run (each server in its own child process, the load from this one):
//  1. the write mix (POST -> PATCH -> DELETE of the created item, per
//     connection) at 1k, 10k and 100k seeded items;
//  2. item reads and list reads of 20 at BENCH_READ_ITEMS (100k) items, as
//     req/s and as the server process's own CPU per 10k requests;
//  3. the twin's RSS with 1, 100 and 1,000 episodes of a 10k and a 100k seed,
//     each episode after 10 writes;
//  4. while item reads load other episodes of a 100k seed: diff and reset
//     latency of an episode with 10 changes; the p50 and p99 of item reads on
//     other episodes at a fixed rate (BENCH_READ_RATE, 1,000/s, from a process
//     of their own) alone and while a 100k-entity state is read (at 20 MB/s and
//     as fast as it can; the same bytes from another process as the machine's
//     yardstick), in BENCH_ROUNDS (20) interleaved rounds of BENCH_PHASE_MS
//     (1000) windows, as ratios with their spread; the twin's CPU a MiB sent,
//     event-loop delay and GC pauses; the slices the twin held its event loop
//     for a streamed answer (as it publishes on its diagnostics channel), in
//     windows of their own.
// Every load is bounded: autocannon for BENCH_SECONDS (default 5) per run, the
// latency probes for a fixed count. Runs alternate servers (A B C C B A) and
// average the two, so a load change on this shared machine tilts no ratio.
// Needs `npm run build` (runs dist/). BENCH_ROOT runs another checkout's dist
// (a before/after comparison); BENCH_MEMORY picks the episode counts
// ("10000:1,100,1000 100000:1,100,1000").
import { spawn, spawnSync } from "node:child_process";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { Agent, createServer as createHttpServer, request } from "node:http";
import { connect } from "node:net";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createHistogram, monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { CREDENTIAL, firstLine, items, itemsTwinBundle, writeMixRequests } from "./lib/bench-servers.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = process.env.BENCH_ROOT ?? join(here, "..");
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const READ_N = Number(process.env.BENCH_READ_ITEMS ?? 100_000);
const WRITE_SIZES = [1_000, 10_000, 100_000];
const MEMORY = (process.env.BENCH_MEMORY ?? "10000:1,100,1000 100000:1,100,1000").split(/\s+/).map((spec) => {
  const [n, counts] = spec.split(":");
  return { n: Number(n), counts: counts.split(",").map(Number) };
});
const MAX_EPISODES = Math.max(...MEMORY.flatMap((m) => m.counts)) + 2;
const JSON_HEADERS = { "content-type": "application/json" };
/** The channel the twin publishes each slice of a streamed answer on (src/serve/send-response.ts). */
const STREAM_SLICE_CHANNEL = "apptwin:serve:stream-slice";

// ---------------------------------------------------------------- children

/** Child: the twin over `n` items (the items app's model as learned from its recording). */
async function twinChild(n, maxEpisodes, journalCapacity) {
  const { createTwinServer } = await import(join(root, "dist/serve/http/twin-http-server.js"));
  const bundle = await itemsTwinBundle(root, n);
  const twin = createTwinServer(bundle, { maxEpisodes, journalCapacity });
  const url = await twin.listen(0, "127.0.0.1");
  serveRss();
  process.stdout.write(`${url}\n`);
}

/** Child: the same items over bare node:http, as little as a server can do: a Map, JSON in and out. */
async function bareChild(n) {
  const { createServer } = await import("node:http");
  const byId = new Map(items(n).map((i) => [String(i.id), i]));
  let next = n + 1;
  const send = (res, status, value) => {
    const body = value === undefined ? "" : JSON.stringify(value);
    res.writeHead(status, value === undefined ? {} : { "content-type": "application/json" });
    res.end(body);
  };
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url, "http://bare.invalid");
      const m = /^\/api\/items(?:\/([^/]+))?$/.exec(url.pathname);
      if (!m) return send(res, 404, { error: "not_found" });
      const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : null;
      const id = m[1];
      if (id === undefined && req.method === "GET") {
        const limit = Number(url.searchParams.get("limit") ?? byId.size);
        const data = [];
        for (const item of byId.values()) {
          if (data.length >= limit) break;
          data.push(item);
        }
        return send(res, 200, { data, total: byId.size });
      }
      if (id === undefined && req.method === "POST") {
        const t = new Date().toISOString();
        const item = { id: next++, title: body.title, done: false, created_at: t, updated_at: t };
        byId.set(String(item.id), item);
        return send(res, 201, item);
      }
      const item = byId.get(id);
      if (!item) return send(res, 404, { error: "not_found" });
      if (req.method === "GET") return send(res, 200, item);
      if (req.method === "PATCH") {
        const updated = { ...item, ...body, updated_at: new Date().toISOString() };
        byId.set(id, updated);
        return send(res, 200, updated);
      }
      if (req.method === "DELETE") {
        byId.delete(id);
        return send(res, 204);
      }
      send(res, 405, { error: "method" });
    });
  });
  server.listen(0, "127.0.0.1", () => {
    serveRss();
    process.stdout.write(`http://127.0.0.1:${server.address().port}\n`);
  });
}

/**
 * A child answers on its IPC channel: "rss" with its RSS after a full GC; "loop", for the time since the previous
 * "loop": its event-loop delay (p99 and max, ms), its CPU time, its GC pauses (count, longest, total ms), and the
 * slices a streamed answer (state, diff) held the event loop for, as the twin publishes them on its diagnostics
 * channel (count, p50, p99, longest, ms; none from a twin that does not publish them, none while unsubscribed);
 * "slices-on" and "slices-off" subscribe to that channel and leave it (measuring a slice costs the twin CPU).
 */
function serveRss() {
  let loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  let cpu = process.cpuUsage();
  let slices = createHistogram();
  let sliceCpu = createHistogram();
  const onSlice = ({ ms, cpu_ms }) => {
    slices.record(Math.max(1, Math.round(ms * 1000)));
    sliceCpu.record(Math.max(1, Math.round(cpu_ms * 1000)));
  };
  let gc = { count: 0, max: 0, total: 0 };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      gc.count += 1;
      gc.max = Math.max(gc.max, e.duration);
      gc.total += e.duration;
    }
  }).observe({ entryTypes: ["gc"] });
  process.on("message", (m) => {
    if (m === "slices-on" || m === "slices-off") {
      (m === "slices-on" ? subscribe : unsubscribe)(STREAM_SLICE_CHANNEL, onSlice);
      process.send(m);
    } else if (m === "rss") {
      globalThis.gc?.();
      globalThis.gc?.();
      const { rss, heapUsed, external } = process.memoryUsage();
      process.send({ rss, heap: heapUsed + external });
    } else if (m === "loop") {
      loop.disable();
      const used = process.cpuUsage(cpu);
      const ms = (h, q) => (h.count === 0 ? 0 : (q === "max" ? h.max : h.percentile(q)) / 1000);
      process.send({
        p99: loop.percentile(99) / 1e6,
        max: loop.max / 1e6,
        cpu_ms: (used.user + used.system) / 1000,
        user_ms: used.user / 1000,
        sys_ms: used.system / 1000,
        gc,
        slices: {
          count: slices.count,
          p50: ms(slices, 50),
          p99: ms(slices, 99),
          max: ms(slices, "max"),
          cpu_p99: ms(sliceCpu, 99),
          cpu_max: ms(sliceCpu, "max"),
        },
      });
      loop = monitorEventLoopDelay({ resolution: 1 });
      loop.enable();
      cpu = process.cpuUsage();
      slices = createHistogram();
      sliceCpu = createHistogram();
      gc = { count: 0, max: 0, total: 0 };
    }
  });
  process.on("SIGTERM", () => process.exit(0));
  // The bench gone (it ended, or failed before it stopped this child): this child goes too.
  process.on("disconnect", () => process.exit(0));
}

// ---------------------------------------------------------------- servers

async function startChild(args) {
  const child = spawn(process.execPath, ["--expose-gc", fileURLToPath(import.meta.url), ...args], {
    stdio: ["ignore", "pipe", "inherit", "ipc"],
  });
  return {
    child,
    url: await firstLine(child, /^(http:\/\/\S+)$/),
    kind: args[0].replace(/^--|-child$/g, ""),
  };
}

const startTwin = (n, maxEpisodes = 64, journalCapacity = 1000) =>
  startChild(["--twin-child", String(n), String(maxEpisodes), String(journalCapacity)]);
const startBare = (n) => startChild(["--bare-child", String(n)]);

/** A helper child of this script (`flag`) that says "ready" on its IPC channel, then answers a message with a message. */
async function startHelper(flag) {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), flag], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  await new Promise((resolve) => child.once("message", resolve));
  return { child };
}

async function startJsonServer(dir, n) {
  const db = join(dir, `db-${n}.json`);
  writeFileSync(db, JSON.stringify({ items: items(n) }));
  const bin = join(here, "../node_modules/json-server/lib/cli/bin.js");
  const port = 40000 + Math.floor(Math.random() * 20000);
  const child = spawn(process.execPath, [bin, db, "--port", String(port), "--host", "127.0.0.1", "--quiet"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  await waitListening(`http://127.0.0.1:${port}/items/1`);
  return { child, url: `http://127.0.0.1:${port}`, kind: "json-server" };
}

async function waitListening(url) {
  for (let i = 0; i < 300; i++) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${url} never answered`);
}

function stop(server) {
  return new Promise((resolve) => {
    if (server.child.exitCode !== null) return resolve();
    server.child.once("exit", resolve);
    server.child.kill("SIGTERM");
  });
}

function ask(server, what) {
  return new Promise((resolve) => {
    server.child.once("message", resolve);
    server.child.send(what);
  });
}

const rssOf = async (server) => (await ask(server, "rss")).rss;
/** The JS heap and external memory in use after a full GC: what a structure holds, which RSS (pages kept from earlier loads) can hide. */
const heapOf = async (server) => (await ask(server, "rss")).heap;

// ---------------------------------------------------------------- loads

/** The paths each server serves the items at. */
const itemsPath = (s) => (s.kind === "json-server" ? "/items" : "/api/items");
const listPath = (s) => (s.kind === "json-server" ? "/items?_limit=20" : "/api/items?limit=20");

async function cannon(opts) {
  const r = await autocannon({ connections: 10, duration: SECONDS, ...opts });
  if (r.non2xx > 0 || r.errors > 0 || r.timeouts > 0) {
    throw new Error(`${opts.url}: ${r.non2xx} non-2xx answers, ${r.errors} errors, ${r.timeouts} timeouts`);
  }
  return { rps: r.requests.average, p99: r.latency.p99 };
}

/** The write mix on one connection: create, patch what was created, delete it. */
const writeMix = (s) => cannon({ url: s.url, requests: writeMixRequests(itemsPath(s)) });

/**
 * CPU ms the server process spends on 10k requests of `path` (20k sent, 10 connections, after a warm-up), or
 * of the autocannon `requests` given instead of a path.
 */
async function cpuPerRequests(server, path, requests) {
  const load = requests ? { url: server.url, requests } : { url: server.url + path };
  await autocannon({ ...load, connections: 10, amount: 2000 });
  await ask(server, "loop");
  await autocannon({ ...load, connections: 10, amount: 20_000 });
  const { cpu_ms } = await ask(server, "loop");
  // Shaped as a load's result so `alternate` pools it.
  return { rps: cpu_ms / 2, p99: 0 };
}

/** Runs `load` on each server in A B C C B A order and averages each server's two runs. */
async function alternate(servers, load) {
  const runs = new Map(servers.map((s) => [s, []]));
  for (const s of [...servers, ...[...servers].reverse()]) runs.get(s).push(await load(s));
  return servers.map((s) => {
    const [a, b] = runs.get(s);
    return { rps: (a.rps + b.rps) / 2, p99: Math.max(a.p99, b.p99) };
  });
}

const keepAlive = new Agent({ keepAlive: true, maxSockets: 64 });

/** One request over a keep-alive agent: status, body text. */
function send(base, method, path, body, headers = {}) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      `${base}${path}`,
      {
        method,
        agent: keepAlive,
        headers: payload === undefined ? headers : { ...JSON_HEADERS, ...headers },
      },
      (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString("utf8") }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

async function ok(promise, what) {
  const r = await promise;
  if (r.status >= 300) throw new Error(`${what}: ${r.status} ${r.text.slice(0, 300)}`);
  return r;
}

/** The 10 writes each measured episode makes: 3 creates, 3 patches, 1 replace, 3 deletes of seed items. */
async function tenWrites(base, episode) {
  const h = { "x-apptwin-episode": episode, ...CREDENTIAL };
  for (let i = 0; i < 3; i++) await ok(send(base, "POST", "/api/items", { title: `New ${i}` }, h), "create");
  for (const id of [1, 2, 3]) await ok(send(base, "PATCH", `/api/items/${id}`, { done: true }, h), "patch");
  await ok(send(base, "PUT", "/api/items/6", { title: "Replaced", done: true }, h), "replace");
  for (const id of [7, 8, 9]) await ok(send(base, "DELETE", `/api/items/${id}`, undefined, h), "delete");
}

/** Runs `task(i)` for i < count, `width` at a time. */
async function pool(count, width, task) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

/**
 * A closed-loop load of item reads (`connections` at once, each sending its next request when the last one
 * answered) for `ms`, on the given episodes; latencies in microseconds.
 */
async function readLoad(base, episodes, ms, connections = 8) {
  const latencies = [];
  const end = performance.now() + ms;
  await Promise.all(
    Array.from({ length: connections }, async (_, c) => {
      const h = { "x-apptwin-episode": episodes[c % episodes.length] };
      for (let i = 0; performance.now() < end && i < 1_000_000; i++) {
        const t = performance.now();
        await ok(send(base, "GET", `/api/items/${1 + ((i * 7919 + c) % 90_000)}`, undefined, h), "read");
        latencies.push((performance.now() - t) * 1000);
      }
    }),
  );
  return latencies;
}

/** Latencies (us) counted in log-spaced bins 2% wide, so windows' latencies pool by adding their bins. */
const BIN_GROWTH = 1.02;
function bins(latencies) {
  const out = new Float64Array(1000);
  for (const us of latencies)
    out[Math.min(999, Math.max(0, Math.floor(Math.log(us) / Math.log(BIN_GROWTH))))] += 1;
  return out;
}

/** The p-th percentile (us, a bin's upper edge) of the sum of `windows` (bins of each). */
function binPercentile(windows, p) {
  const sum = new Float64Array(1000);
  for (const w of windows) for (let i = 0; i < 1000; i++) sum[i] += w[i];
  const total = sum.reduce((a, b) => a + b, 0);
  let seen = 0;
  for (let i = 0; i < 1000; i++) {
    seen += sum[i];
    if (seen >= (p / 100) * total) return BIN_GROWTH ** (i + 1);
  }
  return BIN_GROWTH ** 1000;
}

/**
 * The ratio of the pooled p-th percentiles (p99) of `test` to `base` windows (one of each a round) over rounds resampled with
 * replacement, `n` times: its 5th and 95th percentiles, how far the pooled ratio moves with which rounds ran.
 */
function bootstrapRatio(test, base, p = 99, n = 1000) {
  let x = 0x9e3779b9;
  const next = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
  const ratios = [];
  for (let k = 0; k < n; k++) {
    const pick = Array.from({ length: test.length }, () => Math.floor(next() * test.length));
    ratios.push(
      binPercentile(
        pick.map((i) => test[i]),
        p,
      ) /
        binPercentile(
          pick.map((i) => base[i]),
          p,
        ),
    );
  }
  return [percentile(ratios, 5), percentile(ratios, 95)];
}

/** The median over windows (`runs`) of one figure of each (`key`). */
function medianOf(runs, key) {
  return percentile(
    runs.map((r) => r[key]),
    50,
  );
}

/**
 * The ratio of the medians of a figure (`key`) over `test` and `base` windows (one of each a round), over rounds
 * resampled with replacement `n` times: its 5th and 95th percentiles.
 */
function bootstrapMedians(test, base, key, n = 1000) {
  let x = 0x2545f491;
  const ratios = [];
  for (let k = 0; k < n; k++) {
    const pick = Array.from({ length: test.length }, () => {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      return Math.floor(((x >>> 0) / 2 ** 32) * test.length);
    });
    ratios.push(
      medianOf(
        pick.map((i) => test[i]),
        key,
      ) /
        medianOf(
          pick.map((i) => base[i]),
          key,
        ),
    );
  }
  return [percentile(ratios, 5), percentile(ratios, 95)];
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Latencies (ms) of `count` sequential calls of `fn`. */
async function timed(count, fn) {
  const out = [];
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    await fn(i);
    out.push(performance.now() - t);
  }
  return out;
}

const f0 = (x) => x.toFixed(0);
const f1 = (x) => x.toFixed(1);
const f2 = (x) => x.toFixed(2);
const mib = (bytes) => bytes / 1024 / 1024;

// ---------------------------------------------------------------- the run

async function writeMixes(dir, results) {
  console.log(`\n-- write mix: POST -> PATCH -> DELETE, 10 connections, ${SECONDS} s x 2 per server --`);
  for (const n of WRITE_SIZES) {
    const servers = [await startTwin(n), await startBare(n), await startJsonServer(dir, n)];
    try {
      const [twin, bare, js] = await alternate(servers, writeMix);
      results.write[n] = twin.rps;
      results.bare ??= {};
      results.bare[n] = bare.rps;
      console.log(
        `${String(n).padStart(6)} items: twin ${f0(twin.rps).padStart(6)} req/s p99 ${twin.p99} ms | bare node:http ${f0(bare.rps).padStart(6)} (twin ${f2(twin.rps / bare.rps)}x) | json-server ${f0(js.rps).padStart(5)} (twin ${f1(twin.rps / js.rps)}x)`,
      );
    } finally {
      for (const s of servers) await stop(s);
    }
  }
  const ratio = results.write[1_000] / results.write[100_000];
  console.log(
    `twin at 100k: ${f0(results.write[100_000])} req/s, ${f2(results.write[100_000] / results.bare[100_000])}x bare node:http in the same run (target >= 10000 req/s: ${results.write[100_000] >= 10_000 ? "met" : "NOT met"}); 100k/1k ${f2(1 / ratio)}x (target: within 2x, ${ratio <= 2 ? "met" : "NOT met"})`,
  );
}

async function reads(dir) {
  console.log(`\n-- reads at ${READ_N} items, 10 connections, ${SECONDS} s x 2 per server --`);
  const servers = [await startTwin(READ_N), await startBare(READ_N), await startJsonServer(dir, READ_N)];
  const cases = [
    ["item by id", (s) => `${itemsPath(s)}/${READ_N / 2}`, 0.7],
    ["list of 20", listPath, 0.6],
  ];
  try {
    for (const [label, path, target] of cases) {
      const [twin, bare, js] = await alternate(servers, (s) => cannon({ url: s.url + path(s) }));
      const ratio = twin.rps / bare.rps;
      console.log(
        `${label.padEnd(10)} twin ${f0(twin.rps).padStart(6)} req/s p99 ${twin.p99} ms | bare node:http ${f0(bare.rps).padStart(6)} p99 ${bare.p99} ms (twin ${f2(ratio)}x, target >= ${target}: ${ratio >= target ? "met" : "NOT met"}) | json-server ${f0(js.rps).padStart(5)} (twin ${f1(twin.rps / js.rps)}x)`,
      );
      // The server's own CPU for a fixed count of requests: what its throughput would be with a core to itself,
      // a ratio the other processes on a shared machine tilt far less than the req/s above.
      const [twinCpu, bareCpu] = await alternate(servers.slice(0, 2), (s) => cpuPerRequests(s, path(s)));
      console.log(
        `${"".padEnd(10)} server CPU per 10k requests: twin ${f0(twinCpu.rps)} ms | bare node:http ${f0(bareCpu.rps)} ms (twin ${f2(bareCpu.rps / twinCpu.rps)}x bare's throughput when CPU-bound)`,
      );
    }
  } finally {
    for (const s of servers) await stop(s);
  }
}

/**
 * The request journal (1,000 entries an episode, the default) against none (capacity 0) on the same 100k seed:
 * the twin's CPU per 10k requests with every journal full (the warm-up alone fills the default episode's), for
 * item reads and for creates with a body (whose journal copy is masked); then the heap of 100 episodes whose
 * journals are full (100 x 1,000 requests), against the same requests on a twin keeping none.
 */
async function journal() {
  const n = 100_000;
  const episodes = Number(process.env.BENCH_JOURNAL_EPISODES ?? 100);
  console.log(`\n-- request journal: 1,000 entries an episode against none, ${n} items --`);
  const servers = [await startTwin(n, episodes + 2, 1000), await startTwin(n, episodes + 2, 0)];
  const create = [
    {
      method: "POST",
      path: "/api/items",
      headers: { ...JSON_HEADERS, ...CREDENTIAL },
      body: JSON.stringify({ title: "Bench item", done: false, note: { by: "bench", tags: ["a", "b"] } }),
    },
  ];
  try {
    for (const [label, path, requests] of [
      ["item reads", `/api/items/${n / 2}`, undefined],
      ["creates", undefined, create],
    ]) {
      const [kept, none] = await alternate(servers, (s) => cpuPerRequests(s, path, requests));
      console.log(
        `${label.padEnd(10)} twin CPU per 10k requests: journal of 1,000 ${f0(kept.rps)} ms | no journal ${f0(none.rps)} ms (journal costs ${f2((kept.rps - none.rps) / 10)} us a request, ${f2(kept.rps / none.rps)}x)`,
      );
    }
    const rss = [];
    for (const s of servers) {
      const before = await heapOf(s);
      for (let i = 0; i < episodes; i++) {
        await ok(send(s.url, "POST", "/__apptwin/episodes", { id: `j-${i}` }), "create episode");
      }
      let k = 0;
      const r = await autocannon({
        url: s.url,
        connections: 10,
        amount: episodes * 1000,
        requests: [
          {
            method: "GET",
            path: "/api/items/1",
            setupRequest: (req) => ({
              ...req,
              path: `/api/items/${1 + (k % 1000)}`,
              headers: { "x-apptwin-episode": `j-${Math.floor(k++ / 1000) % episodes}` },
            }),
          },
        ],
      });
      if (r.non2xx > 0 || r.errors > 0)
        throw new Error(`journal fill: ${r.non2xx} non-2xx, ${r.errors} errors`);
      rss.push({ before, after: await heapOf(s) });
    }
    const [kept, none] = rss;
    const journals = await ok(send(servers[0].url, "GET", "/__apptwin/episodes/j-0/requests/count"), "count");
    const perJournal = (kept.after - kept.before - (none.after - none.before)) / episodes;
    console.log(
      `memory (JS heap after a full GC): ${episodes} episodes after 1,000 requests each: +${f0(mib(kept.after - kept.before))} MiB with journals (j-0 holds ${JSON.parse(journals.text).count}), +${f0(mib(none.after - none.before))} MiB without: ${f0(perJournal / 1024)} KiB a full journal (${f0(perJournal / 1000)} bytes an entry; 1,000 episodes: ${f0(mib(perJournal * 1000))} MiB at most, the bound)`,
    );
  } finally {
    for (const s of servers) await stop(s);
  }
}

async function memory() {
  console.log("\n-- memory: twin RSS after a full GC, each episode after 10 writes --");
  for (const { n, counts } of MEMORY) {
    const twin = await startTwin(n, MAX_EPISODES);
    try {
      const base = await rssOf(twin);
      const bare = await startBare(n);
      const bareRss = await rssOf(bare);
      await stop(bare);
      let made = 0;
      const line = [
        `${String(n).padStart(6)} items: at start ${f0(mib(base))} MiB (bare node:http ${f0(mib(bareRss))} MiB)`,
      ];
      for (const count of counts) {
        await pool(count - made, 8, async (i) => {
          const id = `m-${made + i}`;
          await ok(send(twin.url, "POST", "/__apptwin/episodes", { id }), "create episode");
          await tenWrites(twin.url, id);
        });
        made = count;
        const rss = await rssOf(twin);
        line.push(`${count} episodes ${f0(mib(rss))} MiB (+${f2(mib(rss - base) / count)} MiB each)`);
        if (n === 100_000 && count === 1000) {
          console.log(
            `   1,000 episodes of a 100k seed: ${f0(mib(rss))} MiB (target < 2048: ${mib(rss) < 2048 ? "met" : "NOT met"})`,
          );
        }
      }
      console.log(line.join(" | "));
    } finally {
      await stop(twin);
    }
  }
}

async function controlPlane() {
  const n = 100_000;
  const ms = SECONDS * 1000;
  console.log(
    `\n-- control plane on a ${n}-item seed while item reads load other episodes (${SECONDS} s each) --`,
  );
  const twin = await startTwin(n, 64);
  const control = (method, path) => ok(send(twin.url, method, `/__apptwin/${path}`), `${method} ${path}`);
  try {
    const readers = ["r-1", "r-2", "r-3", "r-4"];
    for (const id of [...readers, "graded", "big", "reset-me"]) {
      await ok(send(twin.url, "POST", "/__apptwin/episodes", { id }), "create episode");
    }
    await tenWrites(twin.url, "graded");
    await tenWrites(twin.url, "big");
    const changes = JSON.parse((await control("GET", "episodes/graded/diff")).text).changes.length;
    // The first state read of a seed builds the seed's text (once, shared by every episode), in slices too.
    await ask(twin, "slices-on");
    await ask(twin, "loop");
    const first = await timed(1, () => control("GET", "episodes/big/state"));
    const built = await ask(twin, "loop");
    await ask(twin, "slices-off");
    const stateText = (await control("GET", "episodes/big/state")).text;
    const stateBytes = Buffer.byteLength(stateText);
    const entities = JSON.parse(stateText).collections.items.length;
    console.log(
      `first state read of the ${n}-entity seed (builds its text): ${f0(first[0])} ms, ${built.slices.count} slices, longest ${f2(built.slices.max)} ms wall, ${f2(built.slices.cpu_max)} ms of CPU; twin event-loop delay longest ${f1(built.max)} ms, GC pause longest ${f1(built.gc.max)} ms`,
    );

    // diff and reset: alone, then probed every 10 ms while the read load runs.
    const diffAlone = await timed(200, () => control("GET", "episodes/graded/diff"));
    const diffLoaded = [];
    const resetLoaded = [];
    const probes = async () => {
      const stopAt = performance.now() + ms - 250;
      for (let i = 0; performance.now() < stopAt && i < 10_000; i++) {
        diffLoaded.push(...(await timed(1, () => control("GET", "episodes/graded/diff"))));
        await tenWrites(twin.url, "reset-me");
        resetLoaded.push(...(await timed(1, () => control("POST", "episodes/reset-me/reset"))));
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    await Promise.all([readLoad(twin.url, readers, ms), probes()]);
    const p = (xs, q) => f2(percentile(xs, q));
    console.log(
      `diff of an episode with ${changes} changes: p50 ${p(diffAlone, 50)} ms p99 ${p(diffAlone, 99)} ms alone; p50 ${p(diffLoaded, 50)} ms p99 ${p(diffLoaded, 99)} ms under the read load (target < 5 ms: ${percentile(diffAlone, 50) < 5 ? "met" : "NOT met"})`,
    );
    console.log(
      `reset of an episode after 10 writes under the read load: p50 ${p(resetLoaded, 50)} ms p99 ${p(resetLoaded, 99)} ms (${resetLoaded.length} resets)`,
    );

    // The target: p50 and p99 of item reads on other episodes alone and while the state of `big` (100k entities) is
    // read, in the same run. The reads come from a process of their own (readLoadChild) at a fixed rate, well below
    // what the twin can serve (BENCH_READ_RATE, 1,000 a second over 8 keep-alive connections, raw HTTP/1.1), so a
    // read's latency is the twin's answer time plus the time it waited for the twin's event loop, not the queue of a
    // saturating load: a read due while its connection still waited is timed from when it was due, so a stall counts
    // for every read it delayed. Windows of the kinds below run in BENCH_ROUNDS interleaved rounds (the order rotating
    // round to round); each kind's reads are pooled: its p50 and p99 against the reads alone, with a 90% interval over
    // the rounds resampled, and the median of the per-round p99 ratios with quartiles. The state is read by one
    // process started before the rounds, at 20 MB/s (a harness reading as it goes) and as fast as it can; so a
    // machine of 2 cores shows what the bytes themselves cost, the same number of bytes is read at each rate from
    // another process ("other": a node:http server answering a buffer as long as the state): what a state costs the
    // other episodes beyond that is the twin's. Nothing subscribes to the stream-slice channel in these windows (a
    // subscriber costs the twin a getrusage call a slice); the slices are measured in windows of their own after.
    const stateBytesChild = await startChild(["--bytes-child", String(stateBytes)]);
    const reader = await startHelper("--state-reader");
    const loader = await startHelper("--read-load");
    const rounds = Number(process.env.BENCH_ROUNDS ?? 20);
    const phaseMs = Number(process.env.BENCH_PHASE_MS ?? 1000);
    const readRate = Number(process.env.BENCH_READ_RATE ?? 1000);
    const stateUrl = `${twin.url}/__apptwin/episodes/big/state`;
    const phase = async (state) => {
      await ask(twin, "loop");
      await ask(stateBytesChild, "loop");
      const [load, got] = await Promise.all([
        ask(loader, { url: twin.url, episodes: readers, ms: phaseMs, rate: readRate, connections: 8 }),
        state === null ? null : ask(reader, { url: state.url, ms: phaseMs, rate: state.rate }),
      ]);
      if (load.error) throw new Error(`the read load failed: ${load.error}`);
      if (got?.error) throw new Error(`the state reader failed: ${got.error}`);
      const loop = await ask(twin, "loop");
      const other = await ask(stateBytesChild, "loop");
      const ms = (p) => percentile(load.latencies, p) / 1000;
      return {
        latencies: load.latencies,
        late: load.late,
        bins: bins(load.latencies),
        state: got,
        loop,
        other,
        p50: ms(50),
        p99: ms(99),
      };
    };
    const bytesUrl = `${stateBytesChild.url}/state`;
    const kinds = [
      ["alone", null],
      ["20 MB/s", { url: stateUrl, rate: 20 * 1024 * 1024 }],
      ["other, 20 MB/s", { url: bytesUrl, rate: 20 * 1024 * 1024 }],
      ["full speed", { url: stateUrl, rate: 0 }],
      ["other, full", { url: bytesUrl, rate: 0 }],
    ];
    const perRound = [];
    try {
      for (let round = 0; round < rounds; round++) {
        const order = kinds.map((_, i) => kinds[(i + round) % kinds.length]);
        const got = new Map();
        for (const [label, state] of order) got.set(label, await phase(state));
        perRound.push(got);
      }
      const [l1] = loadavg();
      console.log(
        `item reads on other episodes (${readRate} a second, 8 connections, from a process of their own) while a state of ${entities} entities (${f1(mib(stateBytes))} MiB) is read: ${rounds} rounds of ${kinds.length} windows, ${phaseMs} ms each, interleaved (load average ${f1(l1)} at the end):`,
      );
      const q = percentile;
      const alone = perRound.map((g) => g.get("alone"));
      const alonePooled = alone.flatMap((r) => r.latencies);
      const ratios = {};
      for (const [label, state] of kinds) {
        const runs = perRound.map((g) => g.get(label));
        const pooled = runs.flatMap((r) => r.latencies);
        const late = runs.reduce((a, r) => a + r.late, 0);
        const head = `  ${label.padEnd(12)} a window's p50 ${f2(medianOf(runs, "p50"))} ms p99 ${f2(medianOf(runs, "p99"))} ms (medians; windows' p99 ${f2(Math.min(...runs.map((r) => r.p99)))}-${f2(Math.max(...runs.map((r) => r.p99)))} ms); pooled p50 ${f2(q(pooled, 50) / 1000)} ms p99 ${f2(q(pooled, 99) / 1000)} ms (${pooled.length} reads, ${late} sent late)`;
        const loops = `twin: event-loop delay p99 ${f1(
          q(
            runs.map((r) => r.loop.p99),
            50,
          ),
        )} ms (median of windows), longest ${f1(Math.max(...runs.map((r) => r.loop.max)))} ms; GC pauses longest ${f1(Math.max(...runs.map((r) => r.loop.gc.max)))} ms; CPU ${f0(
          q(
            runs.map((r) => r.loop.cpu_ms),
            50,
          ),
        )} ms a window`;
        if (state === null) {
          console.log(`${head}; ${loops}`);
          continue;
        }
        const p99 = q(pooled, 99) / q(alonePooled, 99);
        const p50 = q(pooled, 50) / q(alonePooled, 50);
        const perWindow = runs.map((r, i) => r.p99 / alone[i].p99);
        const typical = medianOf(runs, "p99") / medianOf(alone, "p99");
        ratios[label] = { p50, p99, typical };
        const bytes = runs.reduce((a, r) => a + (r.state?.bytes ?? 0), 0);
        const [lo99, hi99] = bootstrapRatio(
          runs.map((r) => r.bins),
          alone.map((r) => r.bins),
          99,
        );
        const [lo50, hi50] = bootstrapRatio(
          runs.map((r) => r.bins),
          alone.map((r) => r.bins),
          50,
        );
        const [loT, hiT] = bootstrapMedians(runs, alone, "p99");
        console.log(
          `${head}, state read at ${f1(mib(bytes) / ((rounds * phaseMs) / 1000))} MiB/s: a window's p99 ${f2(typical)}x the reads alone's (medians of the windows; 90% of resampled rounds ${f2(loT)}-${f2(hiT)}; per round ${f2(q(perWindow, 25))}-${f2(q(perWindow, 75))}, quartiles); pooled p50 ${f2(p50)}x (${f2(lo50)}-${f2(hi50)}), p99 ${f2(p99)}x (${f2(lo99)}-${f2(hi99)})`,
        );
        // CPU a MiB the state costs its sender: the twin's beyond its CPU in the windows alone, or the other process's.
        const sender = label.startsWith("other")
          ? q(
              runs.map((r) => r.other.cpu_ms),
              50,
            ) -
            q(
              alone.map((r) => r.other.cpu_ms),
              50,
            )
          : q(
              runs.map((r) => r.loop.cpu_ms),
              50,
            ) -
            q(
              alone.map((r) => r.loop.cpu_ms),
              50,
            );
        const mibs = mib(bytes) / rounds;
        console.log(
          `  ${"".padEnd(12)} ${loops}; the sender's CPU ${f2(sender / mibs)} ms a MiB (${label.startsWith("other") ? "the other process" : "the twin"}, beyond its CPU alone; medians of windows)`,
        );
      }
      for (const [twinKind, otherKind] of [
        ["20 MB/s", "other, 20 MB/s"],
        ["full speed", "other, full"],
      ]) {
        const [t, o] = [ratios[twinKind], ratios[otherKind]];
        const [lo, hi] = bootstrapMedians(
          perRound.map((g) => g.get(twinKind)),
          perRound.map((g) => g.get(otherKind)),
          "p99",
        );
        console.log(
          `  the twin's state at ${twinKind} against the same bytes from another process: a window's p99 ${f2(t.typical / o.typical)}x (${f2(lo)}-${f2(hi)}), pooled p50 ${f2(t.p50 / o.p50)}x, p99 ${f2(t.p99 / o.p99)}x (what streaming in the twin adds to what the bytes cost this machine)`,
        );
      }
      const { typical, p99 } = ratios["20 MB/s"];
      console.log(
        `  target: p99 within 20% while a state is read (20 MB/s) -> a window's p99 ${f2(typical)}x: ${typical <= 1.2 ? "met" : "NOT met"}; pooled p99 ${f2(p99)}x: ${p99 <= 1.2 ? "met" : "NOT met"} (${rounds} rounds)`,
      );

      // The slices the stream held the twin's event loop for, with the read load on: windows of their own, subscribed.
      await ask(twin, "slices-on");
      for (const [label, state] of kinds.filter(([k]) => k === "20 MB/s" || k === "full speed")) {
        const runs = [];
        for (let i = 0; i < 3; i++) runs.push(await phase(state));
        const s = runs.map((r) => r.loop.slices);
        console.log(
          `  stream slices (${label}, 3 windows): ${s.reduce((a, x) => a + x.count, 0)}, p50 ${f2(
            q(
              s.map((x) => x.p50),
              50,
            ),
          )} ms p99 ${f2(
            q(
              s.map((x) => x.p99),
              50,
            ),
          )} ms wall (median of windows), longest ${f2(Math.max(...s.map((x) => x.max)))} ms wall, ${f2(Math.max(...s.map((x) => x.cpu_max)))} ms of CPU`,
        );
      }
      await ask(twin, "slices-off");
    } finally {
      for (const s of [reader, loader, stateBytesChild]) await stop(s);
    }
  } finally {
    await stop(twin);
  }
}

/** The parts of the run, in order; each runs in a process of its own. */
const PARTS = {
  writes: (dir) => writeMixes(dir, { write: {} }),
  reads: (dir) => reads(dir),
  memory: () => memory(),
  journal: () => journal(),
  control: () => controlPlane(),
};

/** Child: one part of the run. */
async function part(name) {
  const dir = mkdtempSync(join(tmpdir(), "apptwin-bench-episodes-"));
  try {
    await PARTS[name](dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    keepAlive.destroy();
  }
}

async function main() {
  if (!existsSync(join(root, "dist/serve/http/twin-http-server.js"))) {
    console.error(`bench/episodes.mjs runs the compiled twin: run \`npm run build\` first (in ${root})`);
    process.exit(1);
  }
  const [l1, l5] = loadavg();
  console.log(
    `node ${process.version}, ${cpus().length} cores, load average ${f1(l1)} (1 min) ${f1(l5)} (5 min), twin from ${root}`,
  );
  const only = (process.env.BENCH_PARTS ?? Object.keys(PARTS).join(",")).split(",");
  const unknown = only.filter((p) => !(p in PARTS));
  if (unknown.length > 0)
    throw new Error(`BENCH_PARTS: no part ${unknown.join(", ")} (${Object.keys(PARTS).join(", ")})`);
  // Each part in a fresh process: what one part's load left in this process (its heap, its timers, the JIT's state)
  // once made the next part's twin cost a third more CPU a request than the same part run alone.
  let failed = 0;
  for (const name of Object.keys(PARTS).filter((p) => only.includes(p))) {
    const r = spawnSync(process.execPath, ["--expose-gc", fileURLToPath(import.meta.url), "--part", name], {
      stdio: "inherit",
    });
    if (r.status !== 0) failed += 1;
  }
  const [e1] = loadavg();
  console.log(`\nload average at the end ${f1(e1)} (1 min)`);
  if (failed > 0) process.exit(1);
}

/**
 * Child: on each IPC message {url, ms, rate}, reads `url` over and over for `ms` at most `rate` bytes/s (0: as fast
 * as it can), discarding the bytes, abandons a read still going when the time is up, and answers {reads (whole
 * states), bytes}; says "ready" once it listens.
 */
function stateReaderChild() {
  process.on("message", async ({ url, ms, rate }) => {
    try {
      process.send(await stateReader(url, ms, rate));
    } catch (err) {
      process.send({ error: String(err) });
    }
  });
  process.on("SIGTERM", () => process.exit(0));
  // The bench gone (it ended, or failed before it stopped this child): this child goes too.
  process.on("disconnect", () => process.exit(0));
  process.send("ready");
}

/**
 * Child: on each IPC message {url, episodes, ms, rate, connections}, reads items at `rate` a second for `ms` over
 * `connections` keep-alive connections (raw HTTP/1.1, opened on the first message and kept), each connection sending
 * its next read when it is due (its share of the rate, the connections' times staggered) or, when its previous read
 * was still waiting then, as soon as that read is answered; answers {latencies (us), late}: a read is timed from when
 * it was sent, or from when it was due when it was sent late (a stall counts for every read it held back).
 */
function readLoadChild() {
  let conns = null;
  process.on("message", async ({ url, episodes, ms, rate, connections }) => {
    try {
      conns ??= await Promise.all(Array.from({ length: connections }, () => rawConnection(url)));
      process.send(await openLoop(conns, episodes, ms, rate));
    } catch (err) {
      process.send({ error: String(err?.stack ?? err) });
    }
  });
  process.on("SIGTERM", () => process.exit(0));
  process.on("disconnect", () => process.exit(0));
  process.send("ready");
}

async function openLoop(conns, episodes, ms, rate) {
  const every = (1000 * conns.length) / rate;
  const start = performance.now() + 5;
  const latencies = [];
  let late = 0;
  await Promise.all(
    conns.map(async (conn, c) => {
      const episode = episodes[c % episodes.length];
      for (let i = 0; ; i++) {
        const due = start + ((c + i * conns.length) * every) / conns.length;
        if (due >= start + ms) break;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        else late += 1;
        const sent = wait > 0 ? performance.now() : due;
        const status = await conn.get(`/api/items/${1 + ((i * 7919 + c) % 90_000)}`, episode);
        if (status !== 200) throw new Error(`item read answered ${status}`);
        latencies.push((performance.now() - sent) * 1000);
      }
    }),
  );
  return { latencies, late };
}

/** A keep-alive HTTP/1.1 connection for GETs whose answers carry a Content-Length: get(path, episode) -> status. */
async function rawConnection(url) {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port), noDelay: true });
  await new Promise((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  let buf = Buffer.alloc(0);
  let waiting = null;
  socket.on("data", (chunk) => {
    buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
    const head = buf.indexOf("\r\n\r\n");
    if (head < 0 || waiting === null) return;
    const length = /\r\ncontent-length: *(\d+)/i.exec(buf.toString("latin1", 0, head));
    if (!length) return waiting.reject(new Error("an answer without Content-Length"));
    const end = head + 4 + Number(length[1]);
    if (buf.length < end) return;
    const status = Number(buf.toString("latin1", 9, 12));
    buf = buf.subarray(end);
    const w = waiting;
    waiting = null;
    w.resolve(status);
  });
  socket.on("error", (err) => waiting?.reject(err));
  const host = `host: ${hostname}:${port}\r\n`;
  return {
    get: (path, episode) =>
      new Promise((resolve, reject) => {
        waiting = { resolve, reject };
        socket.write(`GET ${path} HTTP/1.1\r\n${host}x-apptwin-episode: ${episode}\r\n\r\n`);
      }),
  };
}

/** Child: a node:http server answering any GET with `size` bytes (one buffer): a state's bytes, sent by another process. */
function bytesChild(size) {
  const body = Buffer.alloc(size, 0x20);
  const server = createHttpServer((req, res) => {
    req.resume();
    res.writeHead(200, { "content-type": "application/json", "content-length": String(size) });
    res.end(body);
  });
  server.listen(0, "127.0.0.1", () => {
    serveRss();
    process.stdout.write(`http://127.0.0.1:${server.address().port}\n`);
  });
}

async function stateReader(url, ms, rate) {
  const agent = new Agent({ keepAlive: true });
  const stopAt = performance.now() + ms;
  let reads = 0;
  let bytes = 0;
  while (performance.now() < stopAt && reads < 10_000) {
    const t = performance.now();
    await new Promise((resolve, reject) => {
      const req = request(url, { agent }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`${url}: ${res.statusCode}`));
        let got = 0;
        res.on("data", (chunk) => {
          got += chunk.length;
          bytes += chunk.length;
          const ahead = rate > 0 ? (got / rate) * 1000 - (performance.now() - t) : 0;
          if (ahead > 1) {
            res.pause();
            setTimeout(() => res.resume(), ahead);
          }
        });
        res.on("end", () => {
          reads += 1;
          resolve();
        });
        res.on("error", resolve);
        res.on("aborted", resolve);
      });
      // The window over: a read still going is abandoned (its socket closed, so the twin stops streaming it).
      let abandoned = false;
      const cut = setTimeout(
        () => {
          abandoned = true;
          req.destroy();
        },
        Math.max(0, stopAt - performance.now()),
      );
      req.on("close", () => {
        clearTimeout(cut);
        resolve();
      });
      req.on("error", (err) => (abandoned ? resolve() : reject(err)));
      req.end();
    });
  }
  agent.destroy();
  return { reads, bytes };
}

if (process.argv[2] === "--state-reader") stateReaderChild();
else if (process.argv[2] === "--read-load") readLoadChild();
else if (process.argv[2] === "--bytes-child") bytesChild(Number(process.argv[3]));
else if (process.argv[2] === "--twin-child")
  await twinChild(Number(process.argv[3]), Number(process.argv[4]), Number(process.argv[5] ?? 1000));
else if (process.argv[2] === "--bare-child") await bareChild(Number(process.argv[3]));
else if (process.argv[2] === "--part") await part(process.argv[3]);
else await main();
