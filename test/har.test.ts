/**
 * HAR import and export end to end, through the real commands: a DevTools-like
 * recording with a login, a bearer token and cookies is imported, its written
 * bytes are searched for every credential, the evidence is exported back to
 * HAR, checked by har-validator, and re-imported to the same records.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { format } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startItemsApp } from "../scripts/fixtures/items-app/server.mjs";
import { runCapture } from "../src/capture/run-capture.js";
import ExportHar from "../src/commands/export-har.js";
import Import from "../src/commands/import.js";
import Merge from "../src/commands/merge.js";
import { readEvidence, writeEvidence } from "../src/evidence/evidence-io.js";
import type { Evidence } from "../src/evidence/evidence-schema.js";
import { crudSteps, scenarioFor, signInSteps } from "./capture-scenarios.js";
import { readLiveSession } from "./support/live-session.js";

const root = join(import.meta.dirname, "..");
const fixture = join(root, "test/fixtures/har/login-bearer-cookies.har");
const dir = mkdtempSync(join(tmpdir(), "apptwin-har-"));
const VALUES = {
  password: "correct-horse-battery-staple",
  session: "s3ss10n-abcdef0123456789",
  csrf: "csrf-9f8e7d6c5b4a3210",
  bearer: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlLXZhbHVl",
  invite: "dev-invite-code-7788",
};
const harValidatorName = "har-validator";
const { default: validator } = (await import(harValidatorName)) as {
  default: { har(h: unknown): Promise<unknown> };
};

process.env.APPTWIN_TEST_INVITE = VALUES.invite;
afterAll(() => {
  delete process.env.APPTWIN_TEST_INVITE;
});

/** Runs a command in-process, as `bin/run.js` would, collecting what it writes and its exit code. */
async function runCommand(
  cmd: { run(argv: string[], opts: string): Promise<unknown> },
  argv: string[],
): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  const out: string[] = [];
  const err: string[] = [];
  const write = {
    out: process.stdout.write,
    err: process.stderr.write,
    log: console.log,
    error: console.error,
  };
  // oclif prints through console.log / console.error; BaseCommand writes JSON errors to process.stdout.
  console.log = (...args: unknown[]) => void out.push(`${format(...args)}\n`);
  console.error = (...args: unknown[]) => void err.push(`${format(...args)}\n`);
  process.stdout.write = ((chunk: string | Uint8Array) =>
    out.push(String(chunk)) > 0) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string | Uint8Array) =>
    err.push(String(chunk)) > 0) as typeof process.stderr.write;
  const before = process.exitCode;
  let exitCode = 0;
  try {
    await cmd.run(argv, root);
  } catch (error) {
    exitCode = (error as { oclif?: { exit?: number } }).oclif?.exit ?? 1;
    if (exitCode === 1) throw error;
  } finally {
    process.stdout.write = write.out;
    process.stderr.write = write.err;
    console.log = write.log;
    console.error = write.error;
    process.exitCode = before;
  }
  return { stdout: out.join(""), stderr: err.join(""), exitCode };
}

function expectNoSecret(bytes: string): void {
  for (const v of Object.values(VALUES)) {
    expect(bytes).not.toContain(v);
    expect(bytes).not.toContain(encodeURIComponent(v));
    expect(bytes).not.toContain(v.slice(0, 16));
  }
}

describe("apptwin import FILE.har", () => {
  const out = join(dir, "evidence.json");

  it("writes redacted evidence and prints one summary line", async () => {
    const r = await runCommand(Import, [fixture, "--out", out, "--secret-env", "APPTWIN_TEST_INVITE"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^Imported 9 records \(\d+ redactions\) to .*evidence\.json\n$/);
  });

  it("keeps no credential in the written bytes, and puts the markers there instead", () => {
    const bytes = readFileSync(out, "utf8");
    expectNoSecret(bytes);
    const e = JSON.parse(bytes) as Evidence;
    const [doc, script, font, login, list, create, image, exported, failed] = e.records;
    // The document came before the login that taught the csrf token: the second pass still reaches it.
    expect(doc!.response!.body!.text).toContain(
      '<meta name="csrf-token" content="[REDACTED:header:cookie]">',
    );
    expect(login!.request.body!.text).toBe("email=admin%40example.test&password=[REDACTED:field:password]");
    expect(login!.response!.headers[1]!.value).toBe(
      "session=[REDACTED:header:cookie]; Path=/; HttpOnly; SameSite=Lax\ncsrftoken=[REDACTED:header:cookie]; Path=/; SameSite=Lax",
    );
    expect(JSON.parse(login!.response!.body!.text)).toEqual({
      user: { id: 1, email: "admin@example.test" },
      access_token: "[REDACTED:field:access_token]",
      token_type: "Bearer",
      expires_in: 3600,
    });
    expect(list!.request.headers).toContainEqual({
      name: "Authorization",
      value: "[REDACTED:header:authorization]",
    });
    expect(list!.request.headers).toContainEqual({
      name: "Cookie",
      value: "session=[REDACTED:header:cookie]; csrftoken=[REDACTED:header:cookie]",
    });
    expect(list!.request.url).toBe("http://127.0.0.1:4010/api/items?page=1&limit=20");
    expect(list!.response!.body!.text).toContain('"tokens_used": 42');
    expect(create!.request.headers).toContainEqual({
      name: "x-csrf-token",
      value: "[REDACTED:header:cookie]",
    });
    expect(create!.request.body!.text).toBe(
      '{"title": "Milk", "invite": "[REDACTED:secret:APPTWIN_TEST_INVITE]"}',
    );
    expect(exported!.request.url).toBe(
      "http://127.0.0.1:4010/api/export?access_token=[REDACTED:field:access_token]&format=csv",
    );
    expect(exported!.response!.body!.text).toBe(
      "id,title\n1,Bread\n2,Milk\n# exported with token [REDACTED:field:access_token]\n",
    );
    expect(failed!.response).toBeNull();
    expect(failed!.failure).toEqual({ kind: "network", message: "net::ERR_CONNECTION_REFUSED" });
    expect([script, font, image].map((r) => r!.resource_type)).toEqual(["script", "font", "image"]);
    expect(image!.response!.body!.encoding).toBe("base64");
    expect(e.app_origin).toBe("http://127.0.0.1:4010");
    expect(e.verdict).toBe("incomplete");
    expect(e.limitations).toEqual(["imported from HAR: no step results"]);
    expect(e.source).toEqual({
      kind: "har",
      scenario: null,
      har: { file_name: "login-bearer-cookies.har", creator: "WebInspector 537.36" },
      merged: null,
    });
    expect(e.redactions.map((x) => x.marker)).toEqual([
      "[REDACTED:field:access_token]",
      "[REDACTED:field:password]",
      "[REDACTED:header:authorization]",
      "[REDACTED:header:cookie]",
      "[REDACTED:secret:APPTWIN_TEST_INVITE]",
    ]);
  });

  it("refuses an existing destination unless --force", async () => {
    const r = await runCommand(Import, [fixture, "--out", out]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(`Error: ${out} already exists; choose another --out or pass --force\n`);
    const forced = await runCommand(Import, [
      fixture,
      "--out",
      out,
      "--force",
      "--secret-env",
      "APPTWIN_TEST_INVITE",
    ]);
    expect(forced.exitCode).toBe(0);
  });

  it("refuses a --out in a missing folder or naming a directory, with exit 2 and nothing written", async () => {
    const missing = join(dir, "no-such-folder", "evidence.json");
    const r = await runCommand(Import, [fixture, "--out", missing]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(
      `Error: ${join(dir, "no-such-folder")}: no such folder for --out; create it first\n`,
    );
    mkdirSync(join(dir, "a-folder"));
    const forced = await runCommand(Import, [fixture, "--out", join(dir, "a-folder"), "--force", "--json"]);
    expect(forced.exitCode).toBe(2);
    expect(JSON.parse(forced.stdout).error.code).toBe("destination_is_directory");
    expect(readdirSync(join(dir, "a-folder"))).toEqual([]);
    const har = await runCommand(ExportHar, [out, "--out", join(dir, "no-such-folder", "x.har")]);
    expect(har.exitCode).toBe(2);
    expect(har.stderr).toBe(
      `Error: ${join(dir, "no-such-folder")}: no such folder for --out; create it first\n`,
    );
    const merged = await runCommand(Merge, [out, "--out", join(dir, "a-folder"), "--force"]);
    expect(merged.exitCode).toBe(2);
    expect(merged.stderr).toContain("is a directory; --out names the file to write");
  });

  it("names a missing --secret-env variable", async () => {
    const r = await runCommand(Import, [
      fixture,
      "--out",
      join(dir, "x.json"),
      "--secret-env",
      "NO_SUCH_VAR_42",
    ]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(
      "Error: --secret-env NO_SUCH_VAR_42: the environment variable NO_SUCH_VAR_42 is not set (or empty); export it before running, or drop the flag\n",
    );
  });

  it("reports every problem of a broken HAR at once, by field", async () => {
    const har = JSON.parse(readFileSync(fixture, "utf8"));
    har.log.entries[1].request.url = "/relative";
    delete har.log.entries[3].response.status;
    har.log.entries[4].startedDateTime = "yesterday";
    const bad = join(dir, "bad.har");
    writeFileSync(bad, JSON.stringify(har));
    const r = await runCommand(Import, [bad, "--out", join(dir, "bad.json"), "--json"]);
    expect(r.exitCode).toBe(2);
    const issues = JSON.parse(r.stdout).error.issues.map((i: { message: string }) => i.message);
    expect(issues).toEqual([
      `${bad}: log.entries[1].request.url must be an absolute URL`,
      `${bad}: log.entries[3].response.status must be of type number`,
      `${bad}: log.entries[4].startedDateTime must be an ISO 8601 date-time such as 2024-05-01T10:00:00.000Z`,
    ]);
  });
});

describe("apptwin export-har EVIDENCE", () => {
  const evidence = join(dir, "evidence.json");
  const har = join(dir, "out.har");

  it("writes a HAR 1.2 that har-validator accepts and that holds no credential", async () => {
    const r = await runCommand(ExportHar, [evidence, "--out", har, "--json"]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ out: har, records: 9 });
    const bytes = readFileSync(har, "utf8");
    expectNoSecret(bytes);
    expect(bytes).toContain("[REDACTED:header:authorization]");
    await expect(validator.har(JSON.parse(bytes))).resolves.toBeTruthy();
  });

  it("re-imports to the same records", async () => {
    const again = join(dir, "again.json");
    const r = await runCommand(Import, [har, "--out", again]);
    expect(r.exitCode).toBe(0);
    const first = JSON.parse(readFileSync(evidence, "utf8")) as Evidence;
    const second = JSON.parse(readFileSync(again, "utf8")) as Evidence;
    expect(second.records).toEqual(first.records);
    expect(second.app_origin).toBe(first.app_origin);
    expect(second.redactions).toEqual(first.redactions);
  });

  it("refuses evidence of a newer schema version with a clear message", async () => {
    const e = JSON.parse(readFileSync(evidence, "utf8"));
    e.schema_version = 2;
    const newer = join(dir, "newer.json");
    writeFileSync(newer, JSON.stringify(e));
    const r = await runCommand(ExportHar, [newer, "--out", join(dir, "newer.har")]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(
      `Error: ${newer}: schema_version 2 is newer than this apptwin reads (1); upgrade apptwin to read it\n`,
    );
  });
});

describe("apptwin merge", () => {
  it("merges evidence files into a union with each record's origin", async () => {
    const a = join(dir, "evidence.json");
    const b = join(dir, "again.json");
    const out = join(dir, "merged.json");
    const r = await runCommand(Merge, [b, a, "--out", out]);
    expect(r.exitCode).toBe(0);
    const merged = JSON.parse(readFileSync(out, "utf8")) as Evidence;
    const ea = JSON.parse(readFileSync(a, "utf8")) as Evidence;
    const eb = JSON.parse(readFileSync(b, "utf8")) as Evidence;
    expect(merged.records).toHaveLength(18);
    expect(merged.records.map((x) => x.seq)).toEqual([...Array(18).keys()]);
    expect(merged.source.merged).toEqual([ea.evidence_id, eb.evidence_id].sort());
    expect(r.stdout).toBe(
      `Merged 2 evidence files: 18 records (${merged.redactions.reduce((n, x) => n + x.count, 0)} redactions) to ${out}\n`,
    );
    expectNoSecret(readFileSync(out, "utf8"));
  });
});

describe("HAR export of a real capture (items app, real Chromium)", () => {
  const PASSWORD = "correct-horse-battery-staple";
  const live = { session: "", csrf: "", bearer: "" };
  const evidenceFile = join(dir, "capture.json");
  const harFile = join(dir, "capture.har");
  let captured: Evidence;

  beforeAll(async () => {
    const app = await startItemsApp({ port: 0, password: PASSWORD });
    try {
      const outcome = await runCapture({
        scenario: scenarioFor(app.url, "items-crud", [...signInSteps, ...crudSteps]),
        env: { ...process.env, ITEMS_PASSWORD: PASSWORD },
        beforeClose: async (context) => {
          Object.assign(live, await readLiveSession(context, app.url));
        },
      });
      captured = outcome.evidence;
      await writeEvidence(evidenceFile, captured);
    } finally {
      await app.close();
    }
  });

  it("passes har-validator, holds no live credential, and re-imports to the same records", async () => {
    expect(captured.verdict).toBe("passed");
    expect(Math.min(live.session.length, live.csrf.length, live.bearer.length)).toBeGreaterThanOrEqual(8);
    const r = await runCommand(ExportHar, [evidenceFile, "--out", harFile]);
    expect(r.exitCode).toBe(0);
    const bytes = readFileSync(harFile, "utf8");
    for (const value of [PASSWORD, live.session, live.csrf, live.bearer]) {
      expect(bytes).not.toContain(value);
      expect(bytes).not.toContain(encodeURIComponent(value));
    }
    for (const marker of [
      "[REDACTED:header:cookie]",
      "[REDACTED:page:create.x-csrf-token]",
      "[REDACTED:field:password]",
    ]) {
      expect(bytes).toContain(marker);
    }
    await expect(validator.har(JSON.parse(bytes))).resolves.toBeTruthy();
    const again = join(dir, "capture-again.json");
    expect((await runCommand(Import, [harFile, "--out", again])).exitCode).toBe(0);
    // Read as a file is read (an asset loaded twice is stored once in it).
    const back = await readEvidence(again);
    expect(back.records).toEqual(captured.records);
    expect(back.app_origin).toBe(captured.app_origin);
  });
});
