#!/usr/bin/env node
// The quick start's main job, on the built-in items app: start the app on
// loopback, capture the checked-in example scenario in a real Chromium,
// print the coverage, build the bundle, grade its tasks with apptwin eval
// (every oracle on a fresh episode), stop the app, and serve the twin
// (which needs no access to the app), printing its URLs and the MCP
// configuration to paste into a client. Uses the CLI exactly as a user would.
//
// By default the twin keeps serving until Ctrl+C. With --exit, or
// APPTWIN_DEMO_EXIT=1, or CI set (CI and other non-interactive runs), it
// asks the twin one question, prints the URLs and stops cleanly.
// Everything lands in .apptwin/demo/ (git-ignored), or APPTWIN_DEMO_DIR.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { startItemsApp } from "./fixtures/items-app/server.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bin = join(root, "bin", "run.js");
const out = resolve(process.env.APPTWIN_DEMO_DIR ?? join(root, ".apptwin", "demo"));
const password = process.env.ITEMS_PASSWORD ?? "demo-password-not-secret";
const truthy = (v) => v !== undefined && v !== "" && v !== "0" && v !== "false";
const exitAfter =
  process.argv.includes("--exit") || truthy(process.env.APPTWIN_DEMO_EXIT) || truthy(process.env.CI);

// Asynchronous on purpose: the items app runs in this process, so a
// synchronous spawn would block the very server the capture talks to.
function apptwin(args, env = {}) {
  console.log(`\n$ apptwin ${args.join(" ")}`);
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, ...env },
    });
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolvePromise() : reject(new Error(`apptwin ${args[0]} exited ${code}`)),
    );
  });
}

/** Starts `apptwin serve` and resolves with the endpoints it prints as JSON. */
function serve(bundle) {
  console.log(`\n$ apptwin serve ${bundle} --port 0`);
  const twin = spawn(process.execPath, [bin, "serve", bundle, "--port", "0", "--json"], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const endpoints = new Promise((resolvePromise, reject) => {
    let buf = "";
    twin.stdout.on("data", (d) => {
      buf += d;
      const line = buf.split("\n").find((l) => l.startsWith("{"));
      if (line) resolvePromise(JSON.parse(line));
    });
    twin.on("exit", (code) => reject(new Error(`serve exited ${code}`)));
    setTimeout(() => reject(new Error("serve did not start within 20 s")), 20_000).unref();
  });
  return { twin, endpoints };
}

function stopped(child) {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((r) => {
        child.once("exit", r);
        child.kill("SIGTERM");
      });
}

mkdirSync(out, { recursive: true });
const app = await startItemsApp({ port: 0, password });
let appOpen = true;
let twin;
try {
  console.log(`items app running at ${app.url}`);
  const scenario = JSON.parse(readFileSync(join(root, "examples", "items.scenario.json"), "utf8"));
  delete scenario.$schema;
  scenario.start_url = `${app.url}/`;
  const scenarioPath = join(out, "items.scenario.json");
  writeFileSync(scenarioPath, `${JSON.stringify(scenario, null, 2)}\n`);

  const evidence = join(out, "evidence.json");
  const bundle = join(out, "bundle");
  await apptwin(["validate", scenarioPath]);
  await apptwin(["capture", scenarioPath, "--out", evidence, "--force"], { ITEMS_PASSWORD: password });
  await apptwin(["coverage", "--evidence", evidence]);
  await apptwin(["build", "--evidence", evidence, "--out", bundle, "--force"]);
  await apptwin(["eval", bundle]);

  await app.close();
  appOpen = false;
  console.log("\nitems app stopped: from here on, the twin answers on its own.");

  const started = serve(bundle);
  twin = started.twin;
  const e = await started.endpoints;
  const res = await fetch(`${e.url}/api/items`);
  const { data } = await res.json();
  console.log(`twin GET ${e.url}/api/items -> ${res.status}: ${data.map((i) => i.title).join(", ")}`);
  const config = { mcpServers: { "items-twin": { type: "http", url: e.mcp } } };
  console.log(
    [
      "",
      `Twin of the items app serving (${e.tools} tools):`,
      `  HTTP twin (the app's paths and its UI): ${e.url}/items`,
      `  MCP (Streamable HTTP, one episode per session): ${e.mcp}`,
      `  Control plane (reset, state, diff): ${e.control}`,
      "",
      "MCP configuration to paste into a client (e.g. a project's .mcp.json):",
      JSON.stringify(config, null, 2),
      "",
      `Bundle: ${bundle}`,
      "To drive apptwin itself from a coding agent: apptwin setup --client claude-code|codex|cursor",
    ].join("\n"),
  );
  if (exitAfter) {
    console.log("\nDemo done (non-interactive run): stopping the twin.");
  } else {
    console.log("\nPress Ctrl+C to stop the twin.");
    await new Promise((r) => {
      process.once("SIGINT", r);
      process.once("SIGTERM", r);
      twin.once("exit", r);
    });
  }
} finally {
  if (twin) await stopped(twin);
  if (appOpen) await app.close();
}
