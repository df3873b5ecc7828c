/**
 * A capture's Evidence from what the run gathered: cancelled step results,
 * record warnings, the fail-closed verdict and limitations, all redacted
 * before anything leaves the capture.
 */
import { PAGE_ASSET_TYPES } from "../evidence/asset-types.js";
import type { Evidence, EvidenceWarning, StepResult } from "../evidence/evidence-schema.js";
import { redactEvidence } from "../evidence/redaction.js";
import { scenarioDigest } from "../scenario/scenario-digest.js";
import { type CaptureRun, runRedactor } from "./capture-run.js";
import { captureLimitations, captureVerdict } from "./verdict.js";

/** The result of a step that never ran because an earlier one failed. */
export function cancelledStep(stepId: string, action: string, failedStep: string): StepResult {
  return {
    step_id: stepId,
    action,
    status: "cancelled",
    started_at: null,
    duration_ms: null,
    error: `cancelled: step "${failedStep}" failed`,
    url_before: null,
    url_after: null,
  };
}

/**
 * The page assets whose answer was cut (a script, a style, a document): the
 * twin's UI cannot load them whole, so the capture is incomplete. Each names
 * the URL, the sizes and the limit to raise.
 */
export function cutPageAssets(records: Evidence["records"]): EvidenceWarning[] {
  return records.flatMap((r, i) => {
    const body = r.response?.body;
    if (!body?.truncated || !PAGE_ASSET_TYPES.has(r.resource_type)) return [];
    const kept =
      body.encoding === "base64" ? Buffer.from(body.text, "base64").length : Buffer.byteLength(body.text);
    return [
      {
        code: "asset_truncated",
        message: `the ${r.resource_type} ${r.request.url} was cut at ${kept} of its ${body.size} bytes; the twin's UI will not load it whole (raise limits.max_asset_bytes and capture again)`,
        pointer: `/records/${i}/response/body`,
      },
    ];
  });
}

/** Warnings pointing into the records: refused writes, truncated bodies, cut page assets. */
export function recordWarnings(records: Evidence["records"]): EvidenceWarning[] {
  const out: EvidenceWarning[] = [];
  for (const [i, r] of records.entries()) {
    if (r.failure?.kind === "refused") {
      out.push({ code: "write_refused", message: r.failure.message, pointer: `/records/${i}` });
    }
    for (const part of ["request", "response"] as const) {
      const body = r[part]?.body;
      if (body?.truncated && !(part === "response" && PAGE_ASSET_TYPES.has(r.resource_type))) {
        out.push({
          code: "body_truncated",
          message: `the ${part} body of ${r.request.method} ${r.request.url} was ${body.size} bytes; only the first part was kept`,
          pointer: `/records/${i}/${part}/body`,
        });
      }
    }
  }
  return [...out, ...cutPageAssets(records)];
}

/** The redacted Evidence of a finished run. */
export function assembleEvidence(
  run: CaptureRun,
  browser: Evidence["browser"],
  records: Evidence["records"],
): Evidence {
  const { scenario } = run;
  return redactEvidence(
    {
      schema_version: 1,
      source: {
        kind: "capture",
        scenario: { name: scenario.name, digest: scenarioDigest(scenario) },
        har: null,
        merged: null,
      },
      app_origin: run.appOrigin,
      allowed_origins: run.allowedOrigins,
      browser,
      started_at: run.startedAt,
      finished_at: Date.now(),
      verdict: captureVerdict(run.steps, [
        ...run.incomplete,
        ...cutPageAssets(records).map((w) => w.message),
      ]),
      steps: run.steps,
      records,
      warnings: recordWarnings(records),
      limitations: captureLimitations(records, run.sawWebSocket),
    },
    runRedactor(run),
  );
}
