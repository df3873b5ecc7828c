// Learning throughput: synthetic items-app evidence of 1k, 10k and 100k records,
// learned through dist/ (run `npm run build` first). Reports records per second
// and peak heap; the target is >= 20k records/s at 100k with linear memory.
// Usage: node --expose-gc bench/learn.mjs [sizes...]
import { performance } from "node:perf_hooks";
import { learnModel } from "../dist/bundle/learn-model.js";

const ORIGIN = "http://127.0.0.1:4010";
const T0 = Date.UTC(2026, 2, 1, 10, 0, 0);
const body = (v) => {
  const text = JSON.stringify(v);
  return { encoding: "utf8", text, size: text.length, truncated: false, mime_type: "application/json" };
};
const json = [{ name: "content-type", value: "application/json" }];

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

/** A recording that creates, reads back, patches and deletes items, with a full list every 50 records. */
function synth(n) {
  const records = [];
  const items = new Map();
  let next = 1;
  const iso = (seq) => new Date(T0 + seq * 10 + 1).toISOString();
  while (records.length < n) {
    const seq = records.length;
    const k = seq % 10;
    const ids = () => [...items.keys()];
    if (k < 2 || items.size < 3) {
      const item = {
        id: next++,
        title: `Item ${seq}`,
        done: false,
        created_at: iso(seq),
        updated_at: iso(seq),
      };
      items.set(item.id, item);
      records.push(rec(seq, "POST", "/api/items", 201, { title: item.title }, item));
    } else if ((k === 3 || k === 7) && items.size > 40) {
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
    } else if (k >= 8) {
      records.push(
        rec(seq, "GET", "/api/items", 200, undefined, { data: [...items.values()], total: items.size }),
      );
    } else {
      const id = ids()[(seq * 7) % items.size];
      records.push(rec(seq, "GET", `/api/items/${id}`, 200, undefined, items.get(id)));
    }
  }
  return {
    schema_version: 1,
    evidence_id: "ev_bench",
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

const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((x) => x > 0);
const results = [];
for (const n of sizes.length > 0 ? sizes : [1_000, 10_000, 100_000]) {
  const evidence = synth(n);
  globalThis.gc?.();
  const base = process.memoryUsage().heapUsed;
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 5);
  const t = performance.now();
  const { coverage } = learnModel(evidence);
  const ms = performance.now() - t;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().heapUsed);
  results.push({
    records: n,
    ms: Math.round(ms),
    records_per_s: Math.round(n / (ms / 1000)),
    peak_heap_mb: Math.round((peak - base) / 1e5) / 10,
    kb_per_record: Math.round((peak - base) / n / 100) / 10,
    status: coverage.status,
    served: coverage.writes.served.length,
  });
}
console.table(results);
const largest = results.at(-1);
const mid = results.find((r) => r.records === 10_000);
console.log(
  `target: >= 20k records/s at ${largest.records} -> ${largest.records_per_s >= 20_000 ? "met" : "NOT met"} (${largest.records_per_s}/s)`,
);
if (mid && largest !== mid) {
  const growth = largest.kb_per_record / mid.kb_per_record;
  console.log(
    `memory per record at ${largest.records} vs 10000: x${growth.toFixed(2)} (linear growth keeps this near 1; ${growth <= 2 ? "met" : "NOT met"})`,
  );
}
