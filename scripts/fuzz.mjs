#!/usr/bin/env node
/**
 * The long fuzz run of scenario, HAR and evidence parsing (test/fuzz-documents.test.ts):
 * `npm run fuzz [-- --runs N --seed S]`, default 5000 inputs per document kind and a
 * seed from the clock (printed, so a crash can be replayed with --seed). `npm test`
 * runs the same test with a fixed seed and 200 inputs each.
 */
import { spawnSync } from "node:child_process";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: { runs: { type: "string", default: "5000" }, seed: { type: "string" } },
});
const seed = values.seed ?? String(Date.now() % 2 ** 31);
process.stdout.write(`fuzz: ${values.runs} inputs per document kind, seed ${seed}\n`);
const r = spawnSync("npx", ["vitest", "run", "test/fuzz-documents.test.ts"], {
  stdio: "inherit",
  env: {
    ...process.env,
    APPTWIN_FUZZ_RUNS: values.runs,
    APPTWIN_FUZZ_SEED: seed,
    APPTWIN_FUZZ_REPORT: "1",
    // Thousands of inputs take minutes, not the default test timeout.
    APPTWIN_FUZZ_TIMEOUT_MS: String(Math.max(60_000, Number(values.runs) * 200)),
  },
});
process.exit(r.status ?? 1);
