#!/usr/bin/env node
// Peak memory of `apptwin build` against the size of its evidence: synthetic
// items-app evidence of 10k and 100k records (creates, reads, patches, deletes
// and a full list every few records, as bench/learn.mjs makes it) written as
// capture writes it, then the real CLI (`bin/run.js build`) in a child whose
// peak RSS (getrusage maxrss) is reported beside the evidence file's size.
// Target: at most about 3x the evidence size at 100k records. Needs
// `npm run build`. BENCH_BUILD_RECORDS picks the sizes ("10000,100000").
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = process.env.BENCH_ROOT ?? join(here, "..");
const SIZES = (process.env.BENCH_BUILD_RECORDS ?? "10000,100000").split(",").map(Number);

const ORIGIN = "http://127.0.0.1:4010";
const T0 = Date.UTC(2026, 2, 1, 10, 0, 0);
const json = [{ name: "content-type", value: "application/json" }];
const body = (v) => {
  const text = JSON.stringify(v);
  return { encoding: "utf8", text, size: text.length, truncated: false, mime_type: "application/json" };
};

function rec(seq, method, path, status, req, res) {
  return {
    seq,
    step_id: null,
    started_at: T0 + seq * 10,
    duration_ms: 3,
    resource_type: "fetch",
    initiator: "page",
    request: {
      method,
      url: ORIGIN + path,
      headers: req === undefined ? [] : json,
      body: req === undefined ? null : body(req),
    },
    response: {
      status,
      status_text: "",
      headers: res === undefined ? [] : json,
      body: res === undefined ? null : body(res),
      redirect_to: null,
    },
    failure: null,
    origin: null,
  };
}

/** A recording of `n` records: creates, reads back, patches, deletes, and a page of the list every 10 records. */
function synth(n) {
  const records = [];
  const items = new Map();
  let next = 1;
  const iso = (seq) => new Date(T0 + seq * 10 + 1).toISOString();
  while (records.length < n) {
    const seq = records.length;
    const k = seq % 10;
    const ids = () => [...items.keys()];
    if (k < 3 || items.size < 3) {
      const item = {
        id: next++,
        title: `Item ${seq}`,
        done: false,
        created_at: iso(seq),
        updated_at: iso(seq),
      };
      items.set(item.id, item);
      records.push(rec(seq, "POST", "/api/items", 201, { title: item.title }, item));
    } else if (k === 3 && items.size > 40) {
      const id = ids()[(seq * 5) % items.size];
      items.delete(id);
      records.push(rec(seq, "DELETE", `/api/items/${id}`, 204));
    } else if (k === 5) {
      const id = ids()[(seq * 3) % items.size];
      const item = { ...items.get(id), done: true, updated_at: iso(seq) };
      items.set(id, item);
      records.push(rec(seq, "PATCH", `/api/items/${id}`, 200, { done: true }, item));
    } else if (k === 6) {
      records.push(rec(seq, "GET", `/api/items/${next + 1000}`, 404, undefined, { error: "not_found" }));
    } else if (k === 9) {
      const all = [...items.values()];
      const offset = Math.max(0, all.length - 20);
      records.push(
        rec(seq, "GET", `/api/items?limit=20&offset=${offset}`, 200, undefined, {
          data: all.slice(offset),
          total: all.length,
        }),
      );
    } else {
      const id = ids()[(seq * 7) % items.size];
      records.push(rec(seq, "GET", `/api/items/${id}`, 200, undefined, items.get(id)));
    }
  }
  return {
    schema_version: 1,
    evidence_id: `ev_bench_${n}`,
    source: { kind: "capture", scenario: null, har: null, merged: null },
    app_origin: ORIGIN,
    allowed_origins: [],
    browser: null,
    started_at: T0,
    finished_at: T0 + n * 10,
    verdict: "passed",
    steps: [],
    records,
    redactions: [],
    warnings: [],
    limitations: [],
  };
}

const [l1, l5] = loadavg();
console.log(
  `node ${process.version}, ${cpus().length} cores, load average ${l1.toFixed(1)} (1 min) ${l5.toFixed(1)} (5 min), apptwin from ${root}`,
);
const dir = mkdtempSync(join(tmpdir(), "apptwin-bench-build-"));
const report = join(dir, "maxrss.cjs");
writeFileSync(
  report,
  'process.on("exit", () => require("node:fs").writeSync(2, "maxrss " + process.resourceUsage().maxRSS + "\\n"));\n',
);
let last = null;
try {
  for (const n of SIZES) {
    const evidence = join(dir, `evidence-${n}.json`);
    // Written as capture writes evidence (canonical JSON, two-space indent): what a user's file looks like.
    const { canonicalJson } = await import(join(root, "dist/util/canonical-json.js"));
    writeFileSync(evidence, canonicalJson(synth(n)));
    const size = statSync(evidence).size;
    const t = performance.now();
    const r = spawnSync(
      process.execPath,
      [
        "--require",
        report,
        join(root, "bin/run.js"),
        "build",
        "--evidence",
        evidence,
        "--out",
        join(dir, `out-${n}`),
      ],
      { encoding: "utf8" },
    );
    const ms = performance.now() - t;
    if (r.status !== 0) throw new Error(`build of ${n} records failed (${r.status}): ${r.stderr}`);
    const peak = Number(/maxrss (\d+)/.exec(r.stderr)?.[1]) * 1024;
    last = { n, size, peak };
    console.log(
      `${String(n).padStart(6)} records: evidence ${(size / 1048576).toFixed(1)} MiB, build peak RSS ${(peak / 1048576).toFixed(0)} MiB = ${(peak / size).toFixed(2)}x the evidence, ${(ms / 1000).toFixed(1)} s`,
    );
    rmSync(join(dir, `out-${n}`), { recursive: true, force: true });
    rmSync(evidence, { force: true });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (last) {
  const ratio = last.peak / last.size;
  console.log(
    `target: peak RSS at most about 3x the evidence at ${last.n} records -> ${ratio <= 3.2 ? "met" : "NOT met"} (${ratio.toFixed(2)}x)`,
  );
}
