/**
 * Honest hints on the real lab apps' checked-in training recordings: a withheld write's hint never names a read
 * route the model lacks, and a hint that asks for a recording is closable only when it names what to record.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { learnModel } from "../src/bundle/learn-model.js";
import { readEvidence } from "../src/evidence/evidence-io.js";

const fixtures = join(import.meta.dirname, "fixtures", "real");
const APPS = ["wordpress", "redmine", "jupyter", "loopback-todo"];

describe("withheld hints on the real lab apps' recordings", () => {
  for (const app of APPS)
    it(`${app}: every route a hint names is a route of the model`, async () => {
      const { model, coverage } = learnModel(await readEvidence(join(fixtures, app, "train.evidence.json")));
      const routes = new Set(model.endpoints.map((e) => `${e.method} ${e.template}`));
      for (const w of coverage.writes.withheld) {
        const named = (w.hint.match(/\b(GET|HEAD) \/[^\s,;)]*/g) ?? []).map((r) => r.replace(/[.]$/, ""));
        for (const r of named) expect(routes, `${w.tool_name}: ${w.hint}`).toContain(r);
        if (w.closable) expect(w.hint, w.tool_name).toMatch(/\brecord\b/i);
      }
    });
});
