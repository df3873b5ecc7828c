#!/usr/bin/env node
// Records the real evidence fixtures the learn golden tests assert on:
// starts a fresh items app and a fresh boards app on loopback (port 0), points
// each example scenario at its app, captures it with the real CLI, and writes
// test/fixtures/evidence/{items,boards}.capture.json. Fails if a file holds
// the password or the API key (redacted by construction, checked by bytes).
// Run `npm run build` first: the CLI runs dist.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startBoardsApp } from "./fixtures/boards-app/server.mjs";
import { startItemsApp } from "./fixtures/items-app/server.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bin = join(root, "bin", "run.js");
const outDir = join(root, "test", "fixtures", "evidence");
// Not secrets: fixture credentials, long enough to be found if they leaked.
const PASSWORD = "record-fixtures-password-7c1e";
const API_KEY = "record-fixtures-api-key-3b9d2f";

// Asynchronous on purpose: the apps run in this process, so a synchronous
// spawn would block the very servers the capture talks to.
function capture(scenarioPath, out, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, "capture", scenarioPath, "--out", out, "--force"], {
      cwd: root,
      stdio: ["ignore", "inherit", "inherit"],
      env: { ...process.env, ...env },
    });
    const timer = setTimeout(() => child.kill("SIGTERM"), 180_000);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(timer);
      code === 0 ? resolve() : reject(new Error(`apptwin capture ${scenarioPath} exited ${code}`));
    });
  });
}

async function record(example, startApp, env, secrets, outName, tmp) {
  const app = await startApp();
  try {
    const scenario = JSON.parse(readFileSync(join(root, "examples", example), "utf8"));
    scenario.start_url = `${app.url}/`;
    // The scenario sits beside the examples' schema reference only in examples/; drop it here.
    delete scenario.$schema;
    const scenarioPath = join(tmp, example);
    writeFileSync(scenarioPath, `${JSON.stringify(scenario, null, 2)}\n`);
    const out = join(outDir, outName);
    await capture(scenarioPath, out, env);
    const bytes = readFileSync(out, "utf8");
    for (const s of secrets)
      if (bytes.includes(s)) throw new Error(`${out} holds a secret value; it must not be checked in`);
    console.log(`wrote ${out}`);
  } finally {
    await app.close();
  }
}

const tmp = mkdtempSync(join(tmpdir(), "apptwin-record-"));
try {
  await record(
    "items.scenario.json",
    () => startItemsApp({ port: 0, password: PASSWORD }),
    { ITEMS_PASSWORD: PASSWORD },
    [PASSWORD],
    "items.capture.json",
    tmp,
  );
  await record(
    "boards.scenario.json",
    () => startBoardsApp({ port: 0, apiKey: API_KEY }),
    { BOARDS_API_KEY: API_KEY },
    [API_KEY],
    "boards.capture.json",
    tmp,
  );
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
