/** The content id of an evidence file, so the same traffic always gets the same id. */
import { createHash } from "node:crypto";
import { canonicalJsonCompact } from "../util/canonical-json.js";
import type { Evidence } from "./evidence-schema.js";

/** `ev_` + the first 16 hex of sha256 over the canonical compact JSON of records, steps, app origin and source. */
export function computeEvidenceId(e: Pick<Evidence, "records" | "steps" | "app_origin" | "source">): string {
  const digest = createHash("sha256")
    .update(
      canonicalJsonCompact({
        records: e.records,
        steps: e.steps,
        app_origin: e.app_origin,
        source: e.source,
      }),
    )
    .digest("hex");
  return `ev_${digest.slice(0, 16)}`;
}
