#!/usr/bin/env node
// The twin's state-backed reads against json-server 0.17 serving the same
// items on the same machine in the same run: autocannon, 10 connections,
// BENCH_SECONDS (default 10) per URL, requests per second and p99 latency for
// both and the ratio; then the twin's RSS with 100k seeded items. Each server
// runs in its own child process. Needs `npm run build` (runs dist/).
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { firstLine, items, itemsTwinBundle } from "./lib/bench-servers.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..");
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const N = Number(process.env.BENCH_ITEMS ?? 10_000);
const MEMORY_N = 100_000;

/** Child mode: start the twin over `n` items and print its URL. */
async function twinChild(n) {
  const { createTwinServer } = await import(join(root, "dist/serve/http/twin-http-server.js"));
  const bundle = await itemsTwinBundle(root, n);
  const twin = createTwinServer(bundle);
  const url = await twin.listen(0, "127.0.0.1");
  globalThis.gc?.();
  process.stdout.write(`${url}\n`);
  process.on("SIGTERM", () => twin.close().then(() => process.exit(0)));
}

async function startTwin(n) {
  const child = spawn(
    process.execPath,
    ["--expose-gc", fileURLToPath(import.meta.url), "--twin-child", String(n)],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  return { child, url: await firstLine(child, /^(http:\/\/\S+)$/) };
}

async function startJsonServer(dir, n) {
  const db = join(dir, "db.json");
  writeFileSync(db, JSON.stringify({ items: items(n) }));
  const bin = join(root, "node_modules/json-server/lib/cli/bin.js");
  const port = 40000 + Math.floor(Math.random() * 20000);
  const child = spawn(process.execPath, [bin, db, "--port", String(port), "--host", "127.0.0.1"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  await firstLine(child, /(Resources|http:\/\/127\.0\.0\.1:\d+)/);
  return { child, url: `http://127.0.0.1:${port}` };
}

function stop(child) {
  return new Promise((resolve) => {
    child.once("exit", resolve);
    child.kill("SIGTERM");
  });
}

async function load(url) {
  const r = await autocannon({ url, connections: 10, duration: SECONDS });
  if (r.non2xx > 0 || r.errors > 0)
    throw new Error(`${url}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
  return { rps: r.requests.average, p99: r.latency.p99 };
}

function rssMiB(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

async function main() {
  if (!existsSync(join(root, "dist/serve/http/twin-http-server.js"))) {
    console.error("bench/serve.mjs runs the compiled twin: run `npm run build` first");
    process.exit(1);
  }
  const dir = mkdtempSync(join(tmpdir(), "apptwin-bench-serve-"));
  const twin = await startTwin(N);
  const js = await startJsonServer(dir, N);
  const cases = [
    ["item by id", "/api/items/1", "/items/1"],
    ["list, 20 per page", "/api/items?limit=20", "/items?_limit=20"],
  ];
  console.log(`${N} items each, 10 connections, ${SECONDS} s per URL, node ${process.version}`);
  let worst = Number.POSITIVE_INFINITY;
  try {
    for (const [label, twinPath, jsPath] of cases) {
      const a = await load(twin.url + twinPath);
      const b = await load(js.url + jsPath);
      const ratio = a.rps / b.rps;
      worst = Math.min(worst, ratio);
      console.log(
        `${label.padEnd(18)} twin ${a.rps.toFixed(0).padStart(7)} req/s p99 ${String(a.p99).padStart(3)} ms | ` +
          `json-server ${b.rps.toFixed(0).padStart(7)} req/s p99 ${String(b.p99).padStart(3)} ms | ratio ${ratio.toFixed(2)}x`,
      );
    }
  } finally {
    await stop(twin.child);
    await stop(js.child);
    rmSync(dir, { recursive: true, force: true });
  }
  const big = await startTwin(MEMORY_N);
  const idle = rssMiB(big.child.pid);
  const afterReads = await autocannon({
    url: `${big.url}/api/items/${MEMORY_N}`,
    connections: 10,
    duration: 2,
  });
  const busy = rssMiB(big.child.pid);
  await stop(big.child);
  console.log(
    `memory: twin with ${MEMORY_N} seeded items: RSS ${idle.toFixed(0)} MiB after start, ${busy.toFixed(0)} MiB after ${afterReads.requests.total} item reads`,
  );
  console.log(
    `target: at least 2x json-server's throughput -> ${worst >= 2 ? "met" : "NOT met"} (worst ${worst.toFixed(2)}x)`,
  );
}

if (process.argv[2] === "--twin-child") await twinChild(Number(process.argv[3]));
else await main();
