#!/usr/bin/env node
// Runs the benchmarks under bench/ (never part of `npm test`): each script
// prints its own figures as ratios against a peer or a baseline measured in
// the same run. `npm run bench -- cli-start learn` runs only those.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const scripts = readdirSync(here)
  .filter((f) => f.endsWith(".mjs") && f !== "run.mjs")
  .filter((f) => wanted.length === 0 || wanted.includes(f.replace(/\.mjs$/, "")))
  .sort();

let failed = 0;
for (const script of scripts) {
  console.log(`\n== ${script} ==`);
  // --expose-gc lets a bench settle the heap before it measures memory.
  const r = spawnSync(process.execPath, ["--expose-gc", join(here, script)], { stdio: "inherit" });
  if (r.status !== 0) failed += 1;
}
process.exit(failed ? 1 : 0);
