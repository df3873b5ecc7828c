/** The scenario digest Evidence carries: sha256 of its canonical JSON, secrets still as references. */
import { createHash } from "node:crypto";
import { canonicalJsonCompact } from "../util/canonical-json.js";
import type { Scenario } from "./scenario-schema.js";

/** sha256 hex of the scenario's canonical compact JSON (the `$schema` hint is left out: it is for editors). */
export function scenarioDigest(s: Scenario): string {
  const { $schema: _editorHint, ...rest } = s;
  return createHash("sha256").update(canonicalJsonCompact(rest)).digest("hex");
}
