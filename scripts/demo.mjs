#!/usr/bin/env node
// The quick start's main job, on the built-in items app: start the app on
// loopback, capture the example scenario in a real Chromium, report coverage,
// build a bundle, serve it and ask the twin one question. Everything lands in
// .apptwin/demo/ (git-ignored). Uses the CLI exactly as a user would.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startItemsApp } from "./fixtures/items-app/server.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bin = join(root, "bin", "run.js");
const out = join(root, ".apptwin", "demo");
const password = process.env.ITEMS_PASSWORD ?? "demo-password-not-secret";

// Asynchronous on purpose: the items app runs in this process, so a
// synchronous spawn would block the very server the capture talks to.
function apptwin(args, env = {}) {
  console.log(`\n$ apptwin ${args.join(" ")}`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, ...env },
    });
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`apptwin ${args[0]} exited ${code}`)),
    );
  });
}

mkdirSync(out, { recursive: true });
const app = await startItemsApp({ port: 0, password });
let twin;
try {
  console.log(`items app running at ${app.url}`);
  const scenario = JSON.parse(readFileSync(join(root, "examples", "items.scenario.json"), "utf8"));
  scenario.start_url = `${app.url}/`;
  const scenarioPath = join(out, "items.scenario.json");
  writeFileSync(scenarioPath, `${JSON.stringify(scenario, null, 2)}\n`);

  const evidence = join(out, "evidence.json");
  const bundle = join(out, "bundle");
  await apptwin(["validate", scenarioPath]);
  await apptwin(["capture", scenarioPath, "--out", evidence, "--force"], { ITEMS_PASSWORD: password });
  await apptwin(["coverage", "--evidence", evidence]);
  await apptwin(["build", "--evidence", evidence, "--out", bundle, "--force"]);

  console.log(`\n$ apptwin serve ${bundle} --port 0`);
  twin = spawn(process.execPath, [bin, "serve", bundle, "--port", "0", "--json"], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise((resolve, reject) => {
    let buf = "";
    twin.stdout.on("data", (d) => {
      buf += d;
      const m = buf.match(/http:\/\/127\.0\.0\.1:\d+/);
      if (m) resolve(m[0]);
    });
    twin.on("exit", (code) => reject(new Error(`serve exited ${code}`)));
    setTimeout(() => reject(new Error("serve did not start within 15 s")), 15_000).unref();
  });
  const res = await fetch(`${url}/api/items`);
  console.log(`twin ${url}/api/items -> ${res.status}`);
  console.log(JSON.stringify(await res.json(), null, 2));
  console.log(`\nDone. Bundle: ${bundle}\nServe it yourself: node bin/run.js serve ${bundle}`);
} finally {
  if (twin && twin.exitCode === null) twin.kill("SIGTERM");
  await app.close();
}
