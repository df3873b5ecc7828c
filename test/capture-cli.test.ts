/**
 * `apptwin capture` as a user runs it: the built CLI in a child process
 * against the items app, with its exit codes, its `--json` summary, its
 * progress lines, its screenshots, and the evidence and HAR it leaves behind.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startItemsApp } from "../scripts/fixtures/items-app/server.mjs";
import { readEvidence } from "../src/evidence/evidence-io.js";
import { evidenceToHar } from "../src/evidence/har-export.js";
import { crudSteps, scenarioFor, signInSteps } from "./capture-scenarios.js";

const root = join(import.meta.dirname, "..");
const bin = join(root, "bin", "run.js");
const PASSWORD = "cli-secret-pass-123";

type App = Awaited<ReturnType<typeof startItemsApp>>;
let app: App;
let dir: string;

function run(args: string[], env: Record<string, string | undefined>) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: dir, env: env as NodeJS.ProcessEnv });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

beforeAll(async () => {
  // The CLI runs compiled code: build it (type errors elsewhere do not stop tsc from emitting),
  // unless npm test's build step has just done so.
  if (process.env.npm_lifecycle_event !== "test")
    spawnSync(
      process.execPath,
      [join(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json"],
      {
        cwd: root,
      },
    );
  app = await startItemsApp({ port: 0, password: PASSWORD });
  dir = await mkdtemp(join(tmpdir(), "apptwin-capture-cli-"));
  await writeFile(
    join(dir, "crud.json"),
    JSON.stringify(scenarioFor(app.url, "items-crud", [...signInSteps, ...crudSteps])),
  );
  await writeFile(
    join(dir, "fails.json"),
    JSON.stringify(
      scenarioFor(app.url, "fails", [
        { step_id: "home", action: "navigate", path: "/login" },
        { step_id: "wrong", action: "expect-text", text: "No such text anywhere", timeout_ms: 300 },
        { step_id: "later", action: "navigate", path: "/items" },
      ]),
    ),
  );
  // The hook compiles the whole tree, which takes more than a minute on a loaded machine.
}, 180_000);

afterAll(async () => {
  await app?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("apptwin capture", () => {
  it("fails before the browser starts when a secret's variable is missing (exit 2)", async () => {
    const env = { ...process.env, ITEMS_PASSWORD: undefined, APPTWIN_BROWSER: "/nonexistent/chromium" };
    const r = await run(["capture", "crud.json", "--out", "never.json"], env);
    expect(r.status).toBe(2);
    // APPTWIN_BROWSER points nowhere: had the browser been looked for, that error would show instead.
    expect(r.stderr).toBe(
      'Error: crud.json: the environment variable ITEMS_PASSWORD (secret "password") is not set; nothing was run\n' +
        "  hint: Export each variable in the shell that runs apptwin capture; the value is never written anywhere.\n",
    );
    await expect(readdir(dir)).resolves.not.toContain("never.json");
  });

  it("stops the browser on Ctrl+C, writes nothing and exits 130 with one line, never 'hit a bug' (issue 13)", async () => {
    await writeFile(
      join(dir, "waits.json"),
      JSON.stringify(
        scenarioFor(app.url, "waits", [
          { step_id: "home", action: "navigate", path: "/login" },
          { step_id: "wait", action: "expect-text", text: "Text that never shows", timeout_ms: 60_000 },
        ]),
      ),
    );
    const child = spawn(process.execPath, [bin, "capture", "waits.json", "--out", "waits-ev.json"], {
      cwd: dir,
      env: { ...process.env, ITEMS_PASSWORD: PASSWORD, CI: "1" } as NodeJS.ProcessEnv,
    });
    let stderr = "";
    let stdout = "";
    child.stdout.on("data", (d) => (stdout += d));
    const waiting = new Promise<void>((resolve) =>
      child.stderr.on("data", (d) => {
        stderr += d;
        if (stderr.includes("[2/2] wait")) resolve();
      }),
    );
    const closed = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    await Promise.race([waiting, closed]);
    child.kill("SIGINT");
    const status = await closed;
    expect(stderr).not.toContain("hit a bug");
    expect(status).toBe(130);
    expect(stderr.trimEnd().split("\n").at(-1)).toBe(
      "apptwin: capture interrupted (Ctrl+C): the browser was stopped and no evidence was written",
    );
    expect(stdout).toBe("");
    // Nothing written, not even a temporary beside the destination.
    expect((await readdir(dir)).filter((f) => f.includes("waits-ev"))).toEqual([]);
  }, 120_000);

  it("refuses a --out in a missing folder before the browser starts, so no write reaches the app (exit 2)", async () => {
    const env = { ...process.env, ITEMS_PASSWORD: PASSWORD, APPTWIN_BROWSER: "/nonexistent/chromium" };
    const before = app.requests.length;
    const r = await run(["capture", "crud.json", "--out", "no-such-folder/ev.json"], env);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe("Error: no-such-folder: no such folder for --out; create it first\n");
    expect(app.requests.length).toBe(before);
  });

  it("captures sign-in and CRUD with --json and screenshots; evidence and HAR hold no secret (exit 0)", async () => {
    const r = await run(["capture", "crud.json", "--out", "ev.json", "--screenshots", "shots", "--json"], {
      ...process.env,
      ITEMS_PASSWORD: PASSWORD,
    });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary).toMatchObject({ verdict: "passed", out: "ev.json", writes_sent: 4 });
    expect(summary.limitations).toEqual(["writes were sent without a user gesture"]);
    expect(summary.steps).toHaveLength(signInSteps.length + crudSteps.length);
    expect(summary.redactions).toBeGreaterThan(10);
    const evidence = await readEvidence(join(dir, "ev.json"));
    expect(summary.records).toBe(evidence.records.length);
    const bytes = await readFile(join(dir, "ev.json"), "utf8");
    const har = JSON.stringify(evidenceToHar(evidence));
    for (const text of [bytes, har, r.stdout]) {
      expect(text).not.toContain(PASSWORD);
    }
    expect(har).toContain("[REDACTED:header:authorization]");
    const shots = await readdir(join(dir, "shots"));
    expect(shots).toContain("01-login-page.png");
    expect(shots).toContain(`${String(shots.length).padStart(2, "0")}-read-deleted.png`);
    expect(shots).toHaveLength(signInSteps.length + crudSteps.length);
  });

  it("prints plain progress lines in CI, writes the trace it was asked for, and exits 1 when a step fails", async () => {
    const r = await run(["capture", "fails.json", "--out", "fails-ev.json", "--trace", "trace.zip"], {
      ...process.env,
      ITEMS_PASSWORD: PASSWORD,
      CI: "1",
    });
    expect(r.status).toBe(1);
    const [warning, ...lines] = r.stderr.trim().split("\n");
    expect(warning).toBe(
      "warning: --trace trace.zip holds unredacted data (secrets, cookies, tokens); do not share it",
    );
    expect((await stat(join(dir, "trace.zip"))).size).toBeGreaterThan(1000);
    expect(lines[0]).toBe("▶ [1/3] home (navigate)");
    expect(lines[1]).toMatch(/^✓ \[1\/3\] home \d+ ms$/);
    expect(lines[2]).toBe("▶ [2/3] wrong (expect-text)");
    expect(lines[3]).toMatch(
      /^✗ \[2\/3\] wrong failed after \d+ ms: the text "No such text anywhere" was not shown within \d+ ms$/,
    );
    expect(lines[4]).toBe("- [3/3] later cancelled");
    expect(r.stdout.split("\n")[0]).toBe("failed: 1 passed, 1 failed, 1 cancelled");
    expect(r.stdout.split("\n")[1]).toMatch(/^\d+ records, 0 writes sent, \d+ redactions → fails-ev\.json$/);
    const evidence = await readEvidence(join(dir, "fails-ev.json"));
    expect(evidence.verdict).toBe("failed");
    expect(evidence.steps.map((s) => s.status)).toEqual(["passed", "failed", "cancelled"]);
  });
});
