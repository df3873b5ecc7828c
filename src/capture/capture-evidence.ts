/**
 * A capture's Evidence from what the run gathered: cancelled step results,
 * record warnings, the fail-closed verdict and limitations, all redacted
 * before anything leaves the capture.
 */
import { PAGE_ASSET_TYPES } from "../evidence/asset-types.js";
import type { Evidence, EvidenceWarning, StepResult } from "../evidence/evidence-schema.js";
import { redactEvidence } from "../evidence/redaction.js";
import { scenarioDigest } from "../scenario/scenario-digest.js";
import { loopbackAliasNote } from "../util/loopback-alias.js";
import { type CaptureRun, runRedactor } from "./capture-run.js";
import { isAllowedUrl, type OriginPolicy, originOf } from "./origin-policy.js";
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

/** The records the page read from origins the scenario does not allow (a write there was refused, and is warned as such). */
function offOriginRecords(records: Evidence["records"], policy: OriginPolicy): [number, string][] {
  return records.flatMap((r, i): [number, string][] => {
    const origin = originOf(r.request.url);
    if (origin === null || isAllowedUrl(policy, r.request.url) || r.failure?.kind === "refused") return [];
    return [[i, origin]];
  });
}

/**
 * A warning per read the page made from an origin the scenario does not
 * allow (an image, an iframe, an EventSource, a script elsewhere):
 * confinement lets reads pass, so each is named, with its origin.
 */
export function offOriginReads(records: Evidence["records"], policy: OriginPolicy): EvidenceWarning[] {
  return offOriginRecords(records, policy).map(([i, origin]) => {
    const r = records[i] as Evidence["records"][number];
    return {
      code: "origin_not_allowed",
      message: `the page read a ${r.resource_type} from ${origin} (${r.request.method}), an origin the scenario does not allow; the twin will not have it (add the origin to allowed_origins if the app needs it, or keep the page from loading it)${loopbackAliasNote(origin, policy.appOrigin)}`,
      pointer: `/records/${i}`,
    };
  });
}

/** The reason reads from origins not allowed leave a capture incomplete, or none. */
export function offOriginReason(records: Evidence["records"], policy: OriginPolicy): string[] {
  const origins = [...new Set(offOriginRecords(records, policy).map(([, o]) => o))].sort();
  return origins.length === 0
    ? []
    : [`the page read from origins the scenario does not allow: ${origins.join(", ")}`];
}

/** Warnings pointing into the records: refused writes and redirects, truncated bodies, cut page assets. */
export function recordWarnings(records: Evidence["records"]): EvidenceWarning[] {
  const out: EvidenceWarning[] = [];
  for (const [i, r] of records.entries()) {
    if (r.failure?.kind === "refused") {
      out.push({ code: "write_refused", message: r.failure.message, pointer: `/records/${i}` });
    }
    // A request step's refused redirect fails its step; a page's (a write's 307, a navigation's) is said here.
    if (r.failure?.kind === "redirect_refused" && r.initiator === "page") {
      out.push({ code: "redirect_refused", message: r.failure.message, pointer: `/records/${i}` });
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
  const policy = { appOrigin: run.appOrigin, allowedOrigins: run.allowedOrigins };
  // A failed step already fails the verdict; otherwise a read off the allowed origins leaves it incomplete.
  const failed = run.steps.some((s) => s.status === "failed");
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
        ...(failed ? [] : offOriginReason(records, policy)),
      ]),
      steps: run.steps,
      records,
      warnings: [...recordWarnings(records), ...offOriginReads(records, policy)],
      // said as a limitation too, so coverage and the bundle's README give it as the reason
      limitations: [...captureLimitations(records, run.sawWebSocket), ...offOriginReason(records, policy)],
    },
    runRedactor(run),
  );
}
