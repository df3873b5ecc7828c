/**
 * Helpers learn's unit tests share (src/learn/*.test.ts): learn a small
 * recording built from record specs, and read back the rules or the
 * withheld verdicts it taught.
 */
import { learnModel } from "../../src/bundle/learn-model.js";
import type { TwinRequest } from "../../src/serve/runtime/twin-types.js";
import { buildEvidence, type RecordSpec } from "../fixtures/evidence/build-evidence.js";

/** The start time of the specs' recordings: 2026-03-01 10:00 UTC. */
export const T0 = Date.UTC(2026, 2, 1, 10, 0, 0);
/** The one thing a fresh app holds. */
export const seedItems = [{ id: 1, title: "A" }];
/** A full list read of /api/things answering `data`. */
export const list = (data: unknown[]): RecordSpec => ({ path: "/api/things", status: 200, res: data });

/** Learns the model, seed and coverage of a recording built from specs. */
export function learnSpecs(specs: RecordSpec[]) {
  return learnModel(buildEvidence(specs));
}
/** The field rules learned for one tool's write, by field. */
export const fieldsOf = (specs: RecordSpec[], tool: string) =>
  Object.fromEntries(
    learnSpecs(specs)
      .model.write_rules.find((r) => r.tool_name === tool)!
      .fields.map((f) => [f.field, f.rule]),
  );
/** Every withheld write as [tool, reason, hint]. */
export const withheldOf = (specs: RecordSpec[]) =>
  learnSpecs(specs).coverage.writes.withheld.map((w) => [w.tool_name, w.reason, w.hint]);

/** A twin request (`handleRequest`'s input) with a JSON body, or none. */
export const twinRequest = (
  method: string,
  path: string,
  body: unknown = null,
  query: [string, string][] = [],
): TwinRequest => ({
  method,
  path,
  query,
  headers: body === null ? {} : { "content-type": "application/json" },
  body: body === null ? null : { kind: "json", value: body },
});
