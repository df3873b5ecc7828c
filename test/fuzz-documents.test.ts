/**
 * Fuzzes the three documents apptwin reads from users and recorders —
 * scenarios, HAR files and evidence — with hostile variants of valid ones
 * (test/support/document-fuzz.ts). Every input is either read (and then
 * learned from, for HAR and evidence) or refused as the user's mistake:
 * a UserError with exit code 2 whose every issue names the file and the
 * field. Anything else is a crash. Fixed seed under `npm test`;
 * `npm run fuzz` runs many more (APPTWIN_FUZZ_RUNS, APPTWIN_FUZZ_SEED).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { learnModel } from "../src/bundle/learn-model.js";
import { DocumentError, UserError } from "../src/errors/user-error.js";
import { parseEvidence } from "../src/evidence/evidence-io.js";
import { harTextToEvidence } from "../src/evidence/har-import.js";
import { parseScenario } from "../src/scenario/parse-scenario.js";
import { FUZZ_RUNS, FUZZ_SEED, hostileText } from "./support/document-fuzz.js";

const root = join(import.meta.dirname, "..");
const read = (p: string) => JSON.parse(readFileSync(join(root, p), "utf8"));

/** Issues about the document as a whole (no field to name): the file is named, and what is wrong with it. */
const DOCUMENT_CODES = new Set([
  "invalid_json",
  "too_deep",
  "invalid_type",
  "har_not_evidence",
  "duplicate_key",
]);
/** Issues at an object that name their field in the message (`the scenario has an unknown field "sche"`). */
const NAMING_CODES = new Set(["unknown_field", "unsupported_version"]);

/** What happened to one input: read, refused as the user's (with what was wrong), or a crash. */
type Outcome = { kind: "read" } | { kind: "refused" } | { kind: "crash"; why: string };

function judge(file: string, run: () => void): Outcome {
  try {
    run();
    return { kind: "read" };
  } catch (e) {
    if (!(e instanceof UserError))
      return { kind: "crash", why: `not a user error: ${(e as Error)?.stack ?? e}` };
    if (e.exitCode !== 2) return { kind: "crash", why: `exit code ${e.exitCode}` };
    const issues = e instanceof DocumentError ? e.issues : [{ code: e.code, path: "", message: e.message }];
    for (const i of issues) {
      if (!i.message.startsWith(`${file}: `))
        return { kind: "crash", why: `issue does not name the file: ${i.message}` };
      if (i.path === "" && !DOCUMENT_CODES.has(i.code) && !NAMING_CODES.has(i.code))
        return { kind: "crash", why: `issue names no field (${i.code}): ${i.message.slice(0, 200)}` };
    }
    return { kind: "refused" };
  }
}

/** Runs `check` on FUZZ_RUNS hostile variants of the bases; returns the counts and the first crashes. */
function fuzz(bases: unknown[], check: (text: string) => Outcome) {
  const arb = fc.constantFrom(...bases).chain((b) => hostileText(b as never));
  const counts = { read: 0, refused: 0, crash: 0 };
  const crashes: string[] = [];
  for (const text of fc.sample(arb, { seed: FUZZ_SEED, numRuns: FUZZ_RUNS })) {
    const o = check(text);
    counts[o.kind]++;
    if (o.kind === "crash" && crashes.length < 5)
      crashes.push(`${o.why}\n--- input (first 300 chars): ${text.slice(0, 300)}`);
  }
  if (process.env["APPTWIN_FUZZ_REPORT"]) process.stderr.write(`fuzz ${JSON.stringify(counts)}\n`);
  return { counts, crashes };
}

/** The long run (`npm run fuzz`) outlasts the default timeout. */
const TIMEOUT = Number(process.env["APPTWIN_FUZZ_TIMEOUT_MS"] ?? 120_000);

describe("fuzzed documents: every failure is a user error naming the file and the field", {
  timeout: TIMEOUT,
}, () => {
  it("scenarios", () => {
    const dir = "test/fixtures/scenarios/good";
    const bases = ["chained-values.json", "contract-example.json", "every-action.json"].map((f) =>
      read(`${dir}/${f}`),
    );
    const { counts, crashes } = fuzz(bases, (text) =>
      judge("s.json", () => void parseScenario(text, "s.json")),
    );
    expect(crashes).toEqual([]);
    expect(counts.refused).toBeGreaterThan(FUZZ_RUNS / 4);
  });

  it("HAR files, learned from when read", () => {
    const base = read("test/fixtures/har/login-bearer-cookies.har");
    const opts = { file: "r.har", fileName: "r.har", secrets: [] };
    const { counts, crashes } = fuzz([base], (text) =>
      judge("r.har", () => void learnModel(harTextToEvidence(text, opts))),
    );
    expect(crashes).toEqual([]);
    expect(counts.refused).toBeGreaterThan(FUZZ_RUNS / 4);
  });

  it("evidence files, learned from when read", () => {
    const full = read("test/fixtures/evidence/items.capture.json");
    // A short recording keeps each run fast; every record kind is in its first records.
    const base = { ...full, records: full.records.slice(0, 16) };
    const { counts, crashes } = fuzz([base], (text) =>
      judge("e.json", () => void learnModel(parseEvidence(text, "e.json"))),
    );
    expect(crashes).toEqual([]);
    expect(counts.refused).toBeGreaterThan(FUZZ_RUNS / 4);
  });
});
