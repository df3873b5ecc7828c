#!/usr/bin/env node
// Cold start of the CLI: median wall time of `apptwin --help` and
// `apptwin validate examples/items.scenario.json`, each a fresh process,
// against a baseline of `node -e 0` measured in the same run (the floor no
// Node CLI can beat). Target: under 400 ms on the 2-core dev machine.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bin = join(root, "bin", "run.js");
const RUNS = Number(process.env.BENCH_RUNS ?? 15);

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function time(args) {
  const samples = [];
  for (let i = 0; i < RUNS; i += 1) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, args, { cwd: root, encoding: "utf8" });
    samples.push(performance.now() - t0);
    if (r.status !== 0 && r.status !== 2)
      throw new Error(`${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  }
  return { median: median(samples), min: Math.min(...samples), max: Math.max(...samples) };
}

if (!existsSync(join(root, "dist", "commands"))) {
  console.error("cli-start: build first (npm run build)");
  process.exit(1);
}
const cases = [
  ["node -e 0 (baseline)", ["-e", "0"]],
  ["apptwin --help", [bin, "--help"]],
  [
    "apptwin validate examples/items.scenario.json",
    [bin, "validate", join(root, "examples", "items.scenario.json")],
  ],
];
const results = cases.map(([name, args]) => ({ name, ...time(args) }));
const base = results[0].median;
console.log(`runs per case: ${RUNS}`);
for (const r of results) {
  console.log(
    `${r.name.padEnd(50)} median ${r.median.toFixed(0).padStart(5)} ms  (min ${r.min.toFixed(0)}, max ${r.max.toFixed(0)})  x${(r.median / base).toFixed(2)} of node -e 0`,
  );
}
const worst = Math.max(...results.slice(1).map((r) => r.median));
console.log(`target: under 400 ms median -> ${worst < 400 ? "met" : "NOT met"} (${worst.toFixed(0)} ms)`);
