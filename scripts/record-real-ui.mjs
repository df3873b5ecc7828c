#!/usr/bin/env node
// Re-records the real apps' UI scenarios (examples/real/<app>.ui.scenario.json) into the fixtures
// test/real-ui.test.ts reads (test/fixtures/real-ui/<app>.ui.evidence.json). The apps must be running
// (../shared/real-apps/<app>/start.sh); this script starts and stops nothing. Not part of `npm test`.
//
//   node scripts/record-real-ui.mjs [--apps wordpress,redmine] [--port-base 3300] [--out DIR]
//
// --port-base  app i listens on N+i (wordpress 1, redmine 2, jupyter 3, loopback-todo 4), as
//              `PORT=N+i ./start.sh` started it; default: each app's own port (3201..3204).
// --out        where the recordings go (default test/fixtures/real-ui).
//
// The scenarios sign in with the lab apps' documented fixture credentials (real-apps README), passed
// as declared secrets; every written recording is searched for each of them byte by byte. Each run
// deletes what it created, so it can be repeated on the same data; the ids it gets then are new.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const APPS = {
  wordpress: { offset: 1, env: { WP_EDITOR_PASSWORD: "wp-editor-pass-1" } },
  redmine: {
    offset: 2,
    env: {
      RM_ADMIN_PASSWORD: "redmine-admin-1",
      RM_ADMIN_API_KEY: "realappsRedmineAdminApiKey00000000000001",
    },
  },
  jupyter: {
    offset: 3,
    env: { JUPYTER_PASSWORD: "jupyter-pass-1", JUPYTER_TOKEN: "realappsjupytertoken0001" },
  },
  "loopback-todo": { offset: 4, env: {} },
};
const SECRETS = Object.values(APPS).flatMap((a) => Object.values(a.env));

const o = { apps: Object.keys(APPS), out: join(root, "test", "fixtures", "real-ui") };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  const v = argv[++i];
  if (v === undefined) throw new Error(`${a} needs a value`);
  if (a === "--apps") o.apps = v.split(",").filter(Boolean);
  else if (a === "--port-base") o.portBase = Number(v);
  else if (a === "--out") o.out = resolve(v);
  else throw new Error(`unknown argument ${a}`);
}
for (const app of o.apps)
  if (!APPS[app]) throw new Error(`unknown app ${app}; the apps are ${Object.keys(APPS).join(", ")}`);

mkdirSync(o.out, { recursive: true });
const work = mkdtempSync(join(tmpdir(), "apptwin-record-ui-"));
let failed = 0;
try {
  for (const app of o.apps) {
    const { offset, env } = APPS[app];
    const scenario = JSON.parse(
      readFileSync(join(root, "examples", "real", `${app}.ui.scenario.json`), "utf8"),
    );
    if (o.portBase !== undefined) scenario.start_url = `http://127.0.0.1:${o.portBase + offset}/`;
    const file = join(work, `${app}.ui.scenario.json`);
    writeFileSync(file, JSON.stringify(scenario, null, 2));
    const out = join(o.out, `${app}.ui.evidence.json`);
    const run = spawnSync(
      process.execPath,
      [join(root, "bin", "run.js"), "capture", file, "--out", out, "--force"],
      {
        env: { ...process.env, ...env },
        stdio: ["ignore", "inherit", "inherit"],
      },
    );
    if (!existsSync(out)) {
      process.stderr.write(`${app}: capture exited ${run.status} and wrote nothing\n`);
      failed++;
      continue;
    }
    const bytes = readFileSync(out, "utf8");
    const leaked = SECRETS.filter((s) => bytes.includes(s));
    if (leaked.length > 0) {
      rmSync(out);
      process.stderr.write(`${app}: the recording held ${leaked.length} credential(s); removed ${out}\n`);
      failed++;
    } else if (run.status !== 0) {
      process.stderr.write(`${app}: capture exited ${run.status}\n`);
      failed++;
    } else process.stdout.write(`${app}: ${out}\n`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exitCode = failed > 0 ? 1 : 0;
