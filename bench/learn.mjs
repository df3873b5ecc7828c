// Learning throughput: synthetic items-app evidence of 1k, 10k and 100k records,
// learned through dist/ (run `npm run build` first). Reports records per second
// and peak heap; the target is >= 20k records/s at 100k with linear memory.
// Usage: node --expose-gc bench/learn.mjs [sizes...]
import { performance } from "node:perf_hooks";
import { learnModel } from "../dist/bundle/learn-model.js";
import { synth } from "./lib/synth-evidence.mjs";

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
