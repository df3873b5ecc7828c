/**
 * How a twin is judged, for real: capture the training scenario against a
 * fresh items app in Chromium, then the held-out scenario against the same
 * app, build the bundle from the training evidence, and run `apptwin
 * fidelity` on the held-out evidence. The items twin must answer every request like the app.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import createDebug from "debug";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startItemsApp } from "../scripts/fixtures/items-app/server.mjs";
import { exportBundle } from "../src/bundle/export-bundle-io.js";
import { runCapture } from "../src/capture/run-capture.js";
import Fidelity from "../src/commands/fidelity.js";
import { writeEvidence } from "../src/evidence/evidence-io.js";
import { formatFidelity } from "../src/fidelity/format-fidelity.js";
import type { FidelityReport } from "../src/fidelity/run-fidelity.js";
import { loadScenario } from "../src/scenario/scenario-io.js";
import { runCommand } from "./fixtures/bundle/run-command.js";

const debug = createDebug("apptwin:fidelity");
const root = join(import.meta.dirname, "..");
const PASSWORD = "fidelity-pass-123";
let app: Awaited<ReturnType<typeof startItemsApp>>;
let dir: string;

async function capture(file: string, out: string): Promise<void> {
  const scenario = await loadScenario(join(root, "examples", file));
  const outcome = await runCapture({
    scenario: { ...scenario, start_url: `${app.url}/` },
    env: { ITEMS_PASSWORD: PASSWORD },
  });
  expect(outcome.evidence.steps.filter((s) => s.status !== "passed")).toEqual([]);
  await writeEvidence(out, outcome.evidence);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "apptwin-fidelity-"));
  app = await startItemsApp({ port: 0, password: PASSWORD });
  await capture("items.scenario.json", join(dir, "train.json"));
  await capture("items-heldout.scenario.json", join(dir, "heldout.json"));
  await exportBundle({ evidence: [join(dir, "train.json")], out: join(dir, "env") });
}, 180_000);

afterAll(async () => {
  await app?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("apptwin fidelity on the items app", () => {
  it("scores the training bundle at least 95% on the held-out recording", async () => {
    const r = await runCommand(Fidelity, [
      join(dir, "env"),
      "--evidence",
      join(dir, "heldout.json"),
      "--json",
    ]);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as FidelityReport;
    debug("%s", formatFidelity(report).join("\n"));
    expect(report.requests).toBeGreaterThanOrEqual(20);
    expect(report.score).toBeGreaterThanOrEqual(0.95);
    // Every request the scenario sent is compared, in order.
    expect(report.results.filter((x) => x.request.startsWith("POST /api/items"))).toHaveLength(2);
    expect(report.tools.find((t) => t.tool === "get_items")?.score).toBe(1);
    // A title PATCH the training never made (it patched only done) changes the title, as the app does.
    const item3 = report.results.filter((x) => /^(PATCH|GET) \/api\/items\/3$/.test(x.request));
    expect(item3.map((x) => [x.request, x.matched])).toEqual([
      ["GET /api/items/3", true],
      ["PATCH /api/items/3", true],
      ["GET /api/items/3", true],
    ]);
    expect(report.differences).toEqual([]);
    expect(report.score).toBe(1);
  });

  it("refuses the bundle's own training evidence as the held-out recording", async () => {
    const r = await runCommand(Fidelity, [join(dir, "env"), "--evidence", join(dir, "train.json")]);
    expect(r.code).toBe(2);
    const id = JSON.parse(await readFile(join(dir, "train.json"), "utf8")).evidence_id;
    expect(r.stderr).toBe(
      `Error: ${join(dir, "train.json")}: evidence ${id} is what the bundle ${join(dir, "env")} was built from (manifest.json sources), not a held-out recording; the twin was learned from those very requests, so the score would say nothing about requests it never saw. Capture another run of the app (a held-out scenario) and pass that.
`,
    );
  });

  it("prints the rate per tool and exits 1 below --min-score", async () => {
    const human = await runCommand(Fidelity, [join(dir, "env"), "--evidence", join(dir, "heldout.json")]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(
      /^Fidelity: \d+ of \d+ requests answered like the app \(\d+\.\d%\), held-out evidence ev_[0-9a-f]{16}\n/,
    );
    expect(human.stdout).toMatch(/\n {2}get_items +\d+\/\d+ +100\.0%\n/);
    const strict = await runCommand(Fidelity, [
      join(dir, "env"),
      "--evidence",
      join(dir, "heldout.json"),
      "--min-score",
      "1.5",
    ]);
    expect(strict.code).toBe(2);
    expect(strict.stderr).toBe('Error: --min-score must be a number from 0 to 1, e.g. 0.95 (got "1.5")\n');
    const json = JSON.parse(
      (await runCommand(Fidelity, [join(dir, "env"), "--evidence", join(dir, "heldout.json"), "--json"]))
        .stdout,
    );
    if (json.score < 1) {
      const below = await runCommand(Fidelity, [
        join(dir, "env"),
        "--evidence",
        join(dir, "heldout.json"),
        "--min-score",
        "1",
      ]);
      expect(below.code).toBe(1);
      expect(below.stderr).toBe(`Fidelity ${json.score.toFixed(3)} is below --min-score 1\n`);
    }
  });
});
