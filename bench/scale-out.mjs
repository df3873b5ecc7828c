#!/usr/bin/env node
// The cost of keeping episodes in Redis, in one run: requests per second of
// `apptwin serve` on the items bundle with its episodes in memory (1 replica,
// the baseline), with `--store redis://…` (1 replica) and with two replicas
// on one Redis, reported as ratios to the baseline. Each replica is the real
// CLI in its own process; Debian's redis-server runs on a free loopback port
// (nothing saved; one database per configuration). Load: autocannon,
// BENCH_CONNECTIONS (10) connections for BENCH_SECONDS (5) per case after a
// 1 s warm-up, each connection an agent on its own episode
// (x-apptwin-episode); two replicas get half the connections each, from two
// loaders at once, so no load balancer's cost is counted. Cases: reading an
// item, creating one, and creating with every connection on one episode (two
// replicas then race on it). The configurations take turns, BENCH_ROUNDS (3)
// rounds, and each figure is the median. On a 2-core machine two replicas
// cannot add CPU, so the point is the store's cost per request, not scaling.
// Needs `npm run build` (runs bin/run.js on dist/). Every process it starts is
// stopped by its PID; every wait is bounded.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { startProcess, startRedis, stopAll } from "../scripts/lib/processes.mjs";
import { CREDENTIAL } from "./lib/bench-servers.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..");
const bin = join(root, "bin/run.js");
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const EPISODES = Array.from({ length: CONNECTIONS }, (_, i) => `bench-${i}`);
const REDIS_SERVER = ["/usr/bin/redis-server", "/usr/sbin/redis-server"].find((p) => existsSync(p));

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** `apptwin serve` on the bundle (a free port); its URL once it listens. */
async function startReplica(bundleDir, extra) {
  const { child, got } = await startProcess(
    process.execPath,
    [bin, "serve", bundleDir, "--port", "0", "--json", "--max-episodes", "64", ...extra],
    (out) => /^\{.*"url":"([^"]+)".*\}$/m.exec(out)?.[1],
    "apptwin serve",
    { cwd: root },
  );
  return { child, url: got };
}

async function post(url, body) {
  const res = await fetch(url, { method: "POST", body: JSON.stringify(body) });
  if (res.status !== 201) throw new Error(`POST ${url}: ${res.status} ${await res.text()}`);
}

/**
 * Loads every URL at once (the connections split between them) for `seconds`, after a one-second warm-up that
 * is not counted (the JIT, Redis's script cache). Each connection is one agent on its own episode (bench-<n>),
 * sending its next request once the last is answered; or all on one (`shared`). Returns the 2xx answers per
 * second, and the answers that were not 2xx (a count and the first one's status and body) with errors and
 * timeouts: reported, never counted as throughput.
 */
async function load(urls, c, seconds = SECONDS) {
  const per = Math.max(1, Math.floor(CONNECTIONS / urls.length));
  // A write carries a credential, as every write the items recording accepted did (bench/lib/bench-servers.mjs).
  const headers = c.body ? { "content-type": "application/json", ...CREDENTIAL } : {};
  let first = null;
  const run = (duration) =>
    Promise.all(
      urls.map((url, i) => {
        let next = i * per;
        return autocannon({
          url: url + c.path,
          method: c.method,
          connections: per,
          duration,
          ...(c.body ? { body: JSON.stringify(c.body) } : {}),
          headers,
          setupClient: (client) =>
            client.setHeaders({
              ...headers,
              "x-apptwin-episode": c.shared ? EPISODES[0] : EPISODES[next++ % EPISODES.length],
            }),
          requests: [
            {
              onResponse: (status, body) => {
                if ((status < 200 || status > 299) && !first)
                  first = `${status} ${String(body).slice(0, 300)}`;
              },
            },
          ],
        });
      }),
    );
  await run(1);
  first = null;
  const results = await run(seconds);
  let ok = 0;
  let bad = 0;
  for (const r of results) {
    ok += r["2xx"];
    bad += r.non2xx + r.errors + r.timeouts;
  }
  return { rps: ok / seconds, bad, first };
}

const CASES = [
  { label: "read an item", method: "GET", path: "/api/items/1" },
  { label: "create an item", method: "POST", path: "/api/items", body: { title: "bench" } },
  // Every connection on one episode: with two replicas, writes race on it (a step run again on the newer state).
  {
    label: "create, 1 episode",
    method: "POST",
    path: "/api/items",
    body: { title: "bench" },
    shared: true,
  },
];

async function main() {
  if (!existsSync(join(root, "dist/commands/serve.js"))) {
    console.error("bench/scale-out.mjs runs the compiled CLI: run `npm run build` first");
    process.exit(1);
  }
  if (!REDIS_SERVER) {
    console.error("bench/scale-out.mjs needs Debian's redis-server (apt-get install -y redis-server)");
    process.exit(1);
  }
  const dir = mkdtempSync(join(tmpdir(), "apptwin-bench-scale-out-"));
  const bundleDir = join(dir, "items-bundle");
  const evidence = join(root, "test/fixtures/evidence/items.capture.json");
  const built = spawnSync(process.execPath, [bin, "build", "--evidence", evidence, "--out", bundleDir], {
    cwd: root,
    encoding: "utf8",
    timeout: 120_000,
  });
  if (built.status !== 0) throw new Error(`apptwin build failed: ${built.stderr}`);
  console.log(
    `items bundle, ${CONNECTIONS} connections, ${SECONDS} s per case, median of ${ROUNDS} rounds, ${EPISODES.length} episodes, node ${process.version}`,
  );
  // Every configuration runs at once (idle but for its turn), and the cases take turns round by round, so a
  // spell of load from elsewhere on the machine falls on all of them alike; each figure is the median of ROUNDS.
  const figures = {};
  try {
    const redis = await startRedis(REDIS_SERVER);
    const configs = {
      "memory, 1 replica": [[]],
      "redis, 1 replica": [["--store", `${redis.url.replace(/\/0$/, "/1")}`]],
      "redis, 2 replicas": [
        ["--store", `${redis.url.replace(/\/0$/, "/2")}`],
        ["--store", `${redis.url.replace(/\/0$/, "/2")}`],
      ],
    };
    const urls = {};
    for (const [config, replicas] of Object.entries(configs)) {
      urls[config] = [];
      for (const extra of replicas) urls[config].push((await startReplica(bundleDir, extra)).url);
      for (const episode of EPISODES) await post(`${urls[config][0]}/__apptwin/episodes`, { id: episode });
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const c of CASES) {
        for (const config of Object.keys(configs)) {
          figures[config] ??= {};
          figures[config][c.label] ??= { runs: [], bad: 0, first: null };
          const f = figures[config][c.label];
          const got = await load(urls[config], c);
          f.runs.push(got.rps);
          f.bad += got.bad;
          f.first ??= got.first;
        }
      }
    }
    for (const f of Object.values(figures)) {
      for (const [label, g] of Object.entries(f)) f[label] = { ...g, rps: median(g.runs) };
    }
  } finally {
    await stopAll();
    rmSync(dir, { recursive: true, force: true });
  }
  for (const c of CASES) {
    const base = figures["memory, 1 replica"][c.label].rps;
    const parts = Object.entries(figures).map(
      ([config, f]) =>
        `${config} ${f[c.label].rps.toFixed(0).padStart(6)} req/s (${(f[c.label].rps / base).toFixed(2)}x)`,
    );
    console.log(`${c.label.padEnd(18)} ${parts.join(" | ")}`);
  }
  for (const [config, f] of Object.entries(figures)) {
    for (const [label, g] of Object.entries(f)) {
      if (g.bad > 0)
        console.log(
          `not 2xx: ${config}, ${label}: ${g.bad} answers or errors; first: ${g.first ?? "(an error or timeout)"}`,
        );
    }
  }
  const worst = Math.min(
    ...CASES.filter((c) => !c.shared).map(
      (c) => figures["redis, 1 replica"][c.label].rps / figures["memory, 1 replica"][c.label].rps,
    ),
  );
  console.log(
    `the store's cost: 1 replica on Redis answers ${worst.toFixed(2)}x the in-memory replica's 2xx requests per second (worst of the own-episode cases)`,
  );
}

await main();
