#!/usr/bin/env node
// Re-records every lab app of ../shared/real-apps from scratch and measures the twin on it:
// for each app, start it on a fresh seed, capture examples/real/<app>.train.scenario.json and then
// <app>.heldout.scenario.json against it (the held-out run sees what the training left), build a
// bundle from the training evidence, run `apptwin fidelity` on the held-out evidence, stop the app,
// and print one row per app. A benchmark, not part of `npm test` (it needs the apps and minutes).
//
//   npm run fidelity:real -- [--apps wordpress,redmine] [--apps-dir DIR] [--port-base N]
//                            [--copy] [--write-fixtures] [--keep DIR] [--json]
//
// --apps-dir   the real-apps folder (else $REAL_APPS_DIR, else ../shared/real-apps or ../../shared/real-apps
//              from the checkout). An app folder that is not writable is copied to a temporary
//              folder first and run there, as that folder's README says; --copy always copies.
// --port-base  run app i on N+i (wordpress 1, redmine 2, jupyter 3, loopback-todo 4, its geocoder stub 14),
//              so several people can run the lab at once; default: each app's own port (3201..3204).
// --write-fixtures  copy the two recordings to test/fixtures/real/<app>/{train,heldout}.evidence.json.
// --suite NAME  record examples/real/<app>.NAME-train/-heldout.scenario.json instead (e.g. `review`: a
//               new user's scenarios over endpoints the main pair never covers; only apps that have them),
//               written by --write-fixtures as <app>/NAME-{train,heldout}.evidence.json.
// --keep DIR   keep the recordings, bundles and fidelity reports in DIR/<app>/.
//
// The credentials are the lab apps' own documented fixture credentials (README of real-apps), passed
// to capture as declared secrets; every written recording is searched for them byte by byte.
import { spawn } from "node:child_process";
import {
  accessSync,
  constants,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bin = join(root, "bin", "run.js");

const APPS = {
  wordpress: {
    offset: 1,
    env: { WP_BASIC_AUTH: Buffer.from("admin:realappsAdminAppPass0001").toString("base64") },
    secrets: ["realappsAdminAppPass0001", "realappsEditorAppPass001", "wp-admin-pass-1", "wp-editor-pass-1"],
  },
  redmine: {
    offset: 2,
    env: { REDMINE_API_KEY: "realappsRedmineAdminApiKey00000000000001" },
    secrets: ["realappsRedmineAdminApiKey00000000000001", "realappsRedmineJsmithApiKey0000000000001"],
  },
  jupyter: {
    offset: 3,
    env: { JUPYTER_TOKEN: "realappsjupytertoken0001" },
    secrets: ["realappsjupytertoken0001", "jupyter-pass-1"],
  },
  "loopback-todo": { offset: 4, env: {}, secrets: [] },
};

/** The scenario pair a run records: train/heldout, or NAME-train/NAME-heldout with --suite NAME. */
function kinds(o) {
  return o.suite ? [`${o.suite}-train`, `${o.suite}-heldout`] : ["train", "heldout"];
}

function parseArgs(argv) {
  const o = { apps: Object.keys(APPS), copy: false, writeFixtures: false, json: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === "--apps") o.apps = value().split(",").filter(Boolean);
    else if (a === "--apps-dir") o.appsDir = resolve(value());
    else if (a === "--port-base") o.portBase = Number(value());
    else if (a === "--keep") o.keep = resolve(value());
    else if (a === "--copy") o.copy = true;
    else if (a === "--write-fixtures") o.writeFixtures = true;
    else if (a === "--json") o.json = true;
    else if (a === "--suite") o.suite = value();
    else throw new Error(`unknown argument ${a}`);
  }
  for (const app of o.apps)
    if (!APPS[app]) throw new Error(`unknown app ${app}; the lab apps are ${Object.keys(APPS).join(", ")}`);
  const scenarioOf = (app, kind) => join(root, "examples", "real", `${app}.${kind}.scenario.json`);
  const [trainKind] = kinds(o);
  if (o.suite && !argv.includes("--apps"))
    o.apps = o.apps.filter((app) => existsSync(scenarioOf(app, trainKind)));
  for (const app of o.apps)
    for (const kind of kinds(o))
      if (!existsSync(scenarioOf(app, kind))) throw new Error(`no scenario ${scenarioOf(app, kind)}`);
  if (o.portBase !== undefined && !(Number.isInteger(o.portBase) && o.portBase > 1024 && o.portBase < 65000))
    throw new Error(`--port-base must be a port number, e.g. 3300 (got ${o.portBase})`);
  return o;
}

function findAppsDir(given) {
  const candidates = given
    ? [given]
    : [
        process.env.REAL_APPS_DIR,
        join(root, "..", "shared", "real-apps"),
        join(root, "..", "..", "shared", "real-apps"),
      ];
  for (const c of candidates.filter(Boolean)) if (existsSync(join(c, "README.md"))) return c;
  throw new Error(
    `no real-apps folder found (tried ${candidates.filter(Boolean).join(", ")}); pass --apps-dir`,
  );
}

function writable(dir) {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

// Asynchronous so a hung step cannot outlive its budget; stdout collected, stderr passed through on failure.
function sh(cmd, args, { cwd, env, timeoutMs }) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => {
      out += d;
    });
    child.stderr.on("data", (d) => {
      err += d;
    });
    const timer = setTimeout(() => child.kill("SIGTERM"), timeoutMs);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(timer);
      if (code === 0) resolvePromise(out);
      else reject(new Error(`${cmd} ${args.join(" ")} exited ${code}\n${err.slice(-4000)}`));
    });
  });
}

async function startApp(dir, ports) {
  await sh("bash", ["stop.sh"], { cwd: dir, env: ports, timeoutMs: 60_000 }).catch(() => undefined);
  // One retry: a seed step can lose a race on a loaded machine (Redmine's SQLite "database is locked").
  const out = await sh("bash", ["start.sh"], { cwd: dir, env: ports, timeoutMs: 600_000 }).catch(
    async (e) => {
      process.stderr.write(
        `${dir}: start.sh failed once, retrying from a fresh seed (${String(e.message).split("\n")[0]})\n`,
      );
      await sh("bash", ["stop.sh"], { cwd: dir, env: ports, timeoutMs: 60_000 }).catch(() => undefined);
      return sh("bash", ["start.sh"], { cwd: dir, env: ports, timeoutMs: 600_000 });
    },
  );
  const url = out.trim().split("\n").at(-1);
  if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(url))
    throw new Error(`${dir}/start.sh printed no base URL (got ${url})`);
  return url;
}

async function capture(app, kind, url, env, work) {
  const scenario = JSON.parse(
    readFileSync(join(root, "examples", "real", `${app}.${kind}.scenario.json`), "utf8"),
  );
  scenario.start_url = `${url}/`;
  delete scenario.$schema;
  const scenarioPath = join(work, `${kind}.scenario.json`);
  writeFileSync(scenarioPath, `${JSON.stringify(scenario, null, 2)}\n`);
  const out = join(work, `${kind}.evidence.json`);
  // Exit 1 is a failed step: the evidence is still written, and the report below says which step.
  await sh(process.execPath, [bin, "capture", scenarioPath, "--out", out, "--force", "--json"], {
    cwd: root,
    env,
    timeoutMs: 600_000,
  }).catch((e) => {
    if (!existsSync(out)) throw e;
  });
  const evidence = JSON.parse(readFileSync(out, "utf8"));
  const failed = evidence.steps.filter((s) => s.status !== "passed");
  return {
    out,
    failed: failed.map((s) => `${s.step_id} ${s.status}${s.error ? `: ${s.error.message ?? s.error}` : ""}`),
  };
}

function assertNoSecret(file, secrets) {
  const bytes = readFileSync(file, "utf8");
  for (const s of secrets)
    if (bytes.includes(s)) throw new Error(`${file} holds a lab credential; refusing to keep it`);
}

async function measure(app, o, appsDir) {
  const spec = APPS[app];
  const given = join(appsDir, app);
  const work = o.keep ? join(o.keep, app) : mkdtempSync(join(tmpdir(), `apptwin-real-${app}-`));
  mkdirSync(work, { recursive: true });
  let dir = given;
  let copied = null;
  if (o.copy || !writable(given)) {
    copied = mkdtempSync(join(tmpdir(), `apptwin-realapp-${app}-`));
    dir = join(copied, app);
    // run/ and data/ are the source folder's live state; the copy starts from its own fresh seed.
    // verbatimSymlinks: Node otherwise rewrites a relative link to the source's absolute path, so a built
    // app's `instances -> ../../data/instances` would point the copy at the source folder's live database.
    cpSync(given, dir, {
      recursive: true,
      verbatimSymlinks: true,
      filter: (src) => !/\/(run|data)(\/|$)/.test(src.slice(given.length)),
    });
  }
  const ports =
    o.portBase === undefined
      ? {}
      : { PORT: String(o.portBase + spec.offset), GEO_PORT: String(o.portBase + spec.offset + 10) };
  const t0 = Date.now();
  try {
    const url = await startApp(dir, ports);
    const env = { ...spec.env };
    const [trainKind, heldoutKind] = kinds(o);
    const train = await capture(app, trainKind, url, env, work);
    const heldout = await capture(app, heldoutKind, url, env, work);
    for (const f of [train.out, heldout.out])
      assertNoSecret(f, [...spec.secrets, ...Object.values(spec.env)]);
    const bundle = join(work, "bundle");
    rmSync(bundle, { recursive: true, force: true });
    await sh(process.execPath, [bin, "build", "--evidence", train.out, "--out", bundle], {
      cwd: root,
      env: {},
      timeoutMs: 300_000,
    });
    const report = JSON.parse(
      await sh(
        process.execPath,
        [bin, "fidelity", bundle, "--evidence", heldout.out, "--json", "--max-differences", "200"],
        {
          cwd: root,
          env: {},
          timeoutMs: 300_000,
        },
      ),
    );
    writeFileSync(join(work, "fidelity.json"), `${JSON.stringify(report, null, 2)}\n`);
    if (o.writeFixtures) {
      const dest = join(root, "test", "fixtures", "real", app);
      mkdirSync(dest, { recursive: true });
      cpSync(train.out, join(dest, `${trainKind}.evidence.json`));
      cpSync(heldout.out, join(dest, `${heldoutKind}.evidence.json`));
    }
    return {
      app,
      url,
      matched: report.matched,
      requests: report.requests,
      score: report.score,
      report,
      failed: [...train.failed.map((f) => `train ${f}`), ...heldout.failed.map((f) => `heldout ${f}`)],
      seconds: (Date.now() - t0) / 1000,
      work,
    };
  } finally {
    await sh("bash", ["stop.sh"], { cwd: dir, env: ports, timeoutMs: 60_000 }).catch(() => undefined);
    if (copied) rmSync(copied, { recursive: true, force: true });
    if (!o.keep) rmSync(work, { recursive: true, force: true });
  }
}

const pct = (m, n) => (n === 0 ? "0.0" : ((100 * m) / n).toFixed(1));

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const appsDir = findAppsDir(o.appsDir);
  const rows = [];
  for (const app of o.apps) {
    try {
      rows.push(await measure(app, o, appsDir));
    } catch (e) {
      rows.push({ app, error: String(e.message ?? e) });
    }
    const r = rows.at(-1);
    if (!o.json) {
      if (r.error) process.stderr.write(`${app}: ${r.error}\n`);
      else for (const f of r.failed) process.stderr.write(`${app}: step ${f}\n`);
    }
  }
  const ok = rows.filter((r) => !r.error);
  const total = {
    matched: ok.reduce((a, r) => a + r.matched, 0),
    requests: ok.reduce((a, r) => a + r.requests, 0),
  };
  if (o.json) {
    const slim = rows.map(({ report, ...r }) => ({ ...r, tools: report?.tools }));
    process.stdout.write(`${JSON.stringify({ apps: slim, ...total }, null, 2)}\n`);
  } else {
    const w = Math.max(...o.apps.map((a) => a.length), 5);
    console.log(`${"app".padEnd(w)}  matched / total      %`);
    for (const r of rows)
      console.log(
        r.error
          ? `${r.app.padEnd(w)}  error (see above)`
          : `${r.app.padEnd(w)}  ${String(r.matched).padStart(7)} / ${String(r.requests).padEnd(5)} ${pct(r.matched, r.requests).padStart(6)}${r.failed.length ? `  (${r.failed.length} steps not passed)` : ""}`,
      );
    console.log(
      `${"all".padEnd(w)}  ${String(total.matched).padStart(7)} / ${String(total.requests).padEnd(5)} ${pct(total.matched, total.requests).padStart(6)}`,
    );
  }
  if (rows.some((r) => r.error)) process.exitCode = 1;
}

main().catch((e) => {
  process.stderr.write(`fidelity-real: ${e.message ?? e}\n`);
  process.exitCode = 2;
});
