#!/usr/bin/env node
// Peak memory of `apptwin build` against the size of its evidence: synthetic
// items-app evidence of 10k and 100k records (bench/lib/synth-evidence.mjs, as
// bench/learn.mjs learns it) written as capture writes it (canonical JSON), then the real CLI (`bin/run.js build`) in a child whose
// peak RSS (getrusage maxrss) is reported beside the evidence file's size.
// Target: at most about 3x the evidence size at 100k records. Needs
// `npm run build`. BENCH_BUILD_RECORDS picks the sizes ("10000,100000").
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { synth } from "./lib/synth-evidence.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = process.env.BENCH_ROOT ?? join(here, "..");
const SIZES = (process.env.BENCH_BUILD_RECORDS ?? "10000,100000").split(",").map(Number);

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
