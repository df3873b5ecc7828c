/**
 * Whole assets, in a real Chromium against the items app's /bundle pages:
 * a 1.5 MiB script is kept whole with the default limits and, loaded by two
 * pages, stored once in the evidence file; with a limit below its size the
 * capture is incomplete, and coverage and build warn that the twin's UI will
 * not load, naming the script's URL.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIG_SCRIPT, type ItemsApp, startItemsApp } from "../scripts/fixtures/items-app/server.mjs";
import { buildBundle } from "../src/bundle/build-bundle.js";
import { exportBundle, formatExport } from "../src/bundle/export-bundle-io.js";
import { runCapture } from "../src/capture/run-capture.js";
import { evidenceFileText } from "../src/evidence/evidence-io.js";
import type { Evidence } from "../src/evidence/evidence-schema.js";
import { parseScenario } from "../src/scenario/parse-scenario.js";

let app: ItemsApp;
let dir: string;

beforeAll(async () => {
  app = await startItemsApp({ port: 0, password: "assets-password-1" });
  dir = await mkdtemp(join(tmpdir(), "apptwin-assets-"));
}, 60_000);

afterAll(async () => {
  await app?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function capture(limits?: Record<string, number>): Promise<Evidence> {
  const scenario = parseScenario(
    JSON.stringify({
      schema_version: 1,
      name: "assets",
      start_url: `${app.url}/`,
      ...(limits ? { limits } : {}),
      steps: [
        { step_id: "a", action: "navigate", path: "/bundle/a" },
        { step_id: "a-ran", action: "expect-text", text: "bundle ran whole" },
        { step_id: "b", action: "navigate", path: "/bundle/b" },
        { step_id: "b-ran", action: "expect-text", text: "bundle ran whole" },
      ],
    }),
    "assets.json",
  );
  return (await runCapture({ scenario })).evidence;
}

const scripts = (e: Evidence) =>
  e.records.filter((r) => new URL(r.request.url).pathname === "/static/big.js");

describe("whole assets", () => {
  it("keeps a 1.5 MiB script whole by default and stores it once although two pages loaded it", async () => {
    const e = await capture();
    expect(e.verdict).toBe("passed");
    const big = scripts(e);
    expect(big).toHaveLength(2);
    for (const r of big) {
      expect(r.response!.body!.truncated).toBe(false);
      expect(r.response!.body!.size).toBe(Buffer.byteLength(BIG_SCRIPT));
      expect(r.response!.body!.text).toBe(BIG_SCRIPT);
    }
    const file = evidenceFileText(e);
    expect(file.split("bundle ran whole").length - 1).toBe(1);
    expect(file.length).toBeLessThan(BIG_SCRIPT.length + 200_000);
    const manifest = JSON.parse(
      new TextDecoder().decode(buildBundle({ evidence: [e] }).files.get("manifest.json")),
    ) as { assets: { path: string }[] };
    expect(manifest.assets.map((a) => a.path)).toContain("/static/big.js");
  }, 120_000);

  it("is incomplete when a script was cut, and coverage and build say the twin's UI will not load it", async () => {
    const e = await capture({ max_asset_bytes: 1_048_576 });
    const url = `${app.url}/static/big.js`;
    expect(e.verdict).toBe("incomplete");
    expect(e.steps.map((s) => s.status)).toEqual(["passed", "passed", "passed", "passed"]);
    expect(scripts(e)[0]!.response!.body!.truncated).toBe(true);
    const cut = e.warnings.filter((w) => w.code === "asset_truncated");
    expect(cut[0]!.message).toBe(
      `the script ${url} was cut at 1048576 of its ${Buffer.byteLength(BIG_SCRIPT)} bytes; the twin's UI will not load it whole (raise limits.max_asset_bytes and capture again)`,
    );
    const warning = `the twin's UI will not load: the script ${url} was cut at the recording's limit (${Buffer.byteLength(BIG_SCRIPT)} bytes in full), so it is not served; capture again with a larger limits.max_asset_bytes`;
    const coverage = buildBundle({ evidence: [e] }).coverage;
    expect(coverage.warnings.filter((w) => w.code === "asset_truncated").map((w) => w.message)).toContain(
      warning,
    );
    const path = join(dir, "cut.json");
    await writeFile(path, evidenceFileText(e));
    const result = await exportBundle({ evidence: [path], out: join(dir, "cut-bundle"), dryRun: true });
    expect(result.warnings).toContain(warning);
    expect(formatExport(result)).toContain(`Warning: ${warning}`);
  }, 120_000);
});
