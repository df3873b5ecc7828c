/**
 * The bundle's openapi.json as the tools people already use read it:
 * Redocly's linter (recommended rules) finds no error on the items and boards
 * bundles and on the lab apps' bundles, and Prism, as a validating proxy in
 * front of the twin, reports no violation for any recorded request of the
 * items and boards bundles (request and answer both checked).
 * `APPTWIN_OPENAPI_ALL=1` runs Prism over the lab apps too and prints the figures.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBundle } from "../src/bundle/build-bundle.js";
import { writeBundle } from "../src/bundle/bundle-io.js";
import { readEvidence } from "../src/evidence/evidence-io.js";
import { prismProxyCheck, redoclyLint } from "./support/openapi-tools.js";

const root = join(import.meta.dirname, "..");
const FIXTURES = {
  items: "test/fixtures/evidence/items.capture.json",
  boards: "test/fixtures/evidence/boards.capture.json",
  jupyter: "test/fixtures/real/jupyter/train.evidence.json",
  "loopback-todo": "test/fixtures/real/loopback-todo/train.evidence.json",
  redmine: "test/fixtures/real/redmine/train.evidence.json",
  wordpress: "test/fixtures/real/wordpress/train.evidence.json",
};
const PRISM_APPS = process.env.APPTWIN_OPENAPI_ALL ? Object.keys(FIXTURES) : ["items", "boards"];

let dir: string;
const bundles: Record<string, string> = {};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "apptwin-openapi-"));
  for (const [name, file] of Object.entries(FIXTURES)) {
    bundles[name] = join(dir, name);
    const built = buildBundle({ evidence: [await readEvidence(join(root, file))], name });
    await writeBundle(bundles[name], built.files, { force: false });
  }
}, 120_000);
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("Redocly lint (recommended rules)", () => {
  for (const name of Object.keys(FIXTURES)) {
    it(`finds no error in the ${name} bundle's openapi.json`, () => {
      const lint = redoclyLint(bundles[name]!);
      expect(lint.problems.filter((p) => p.severity === "error")).toEqual([]);
      expect(lint.errors).toBe(0);
      console.log(`redocly ${name}: ${lint.errors} errors, ${lint.warnings} warnings`);
    }, 60_000);
  }
});

describe("Prism proxy in front of the twin", () => {
  for (const name of PRISM_APPS) {
    it(`reports no violation for the recorded requests of the ${name} bundle`, async () => {
      const { requests, violations } = await prismProxyCheck(bundles[name]!);
      console.log(`prism ${name}: ${requests} recorded requests, ${violations.length} with violations`);
      for (const v of violations)
        console.log(`  ${v.request} → ${v.status}: ${v.violations.map((x) => x.message).join("; ")}`);
      expect(requests).toBeGreaterThan(10);
      expect(violations).toEqual([]);
    }, 120_000);
  }
});
