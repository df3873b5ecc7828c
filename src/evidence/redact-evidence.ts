/**
 * Redaction of a whole evidence in two passes: first learn every credential
 * value from every record (a login response's token is learned before the
 * earlier records that may carry it are redacted), then redact every surface:
 * URLs, headers, bodies, failures, step errors and URLs, warnings. An
 * asset's answered body (a script, a style, a document…) is redacted in the
 * `assets` scope, so the app's own files are never corrupted.
 */

import { couldBeCredential } from "../util/credential-value.js";
import { ASSET_TYPES } from "./asset-types.js";
import { computeEvidenceId } from "./evidence-id.js";
import type { Evidence, EvidenceRecord, Redaction, StepResult } from "./evidence-schema.js";
import type { RedactionKind } from "./redact-context.js";
import type { Redactor } from "./redaction.js";

const MARKERS = /\[REDACTED:(secret|page|header|field):([^\]\s]*)\]/g;

/**
 * The value with every string's markers built from a name that holds a known
 * value (`[REDACTED:field:<a secret used as a query parameter's name>]`) given
 * the name's redacted form: a secret must not reach a file as the tail of
 * the very marker that hides a value beside it.
 */
function redactMarkerTails<T>(value: T, redactor: Redactor): T {
  const tails = new Map<string, string>();
  const fix = (text: string): string =>
    text.includes("[REDACTED:")
      ? text.replace(MARKERS, (m, kind: string, tail: string) => {
          let safe = tails.get(tail);
          if (safe === undefined) {
            safe = redactor.redactName(tail);
            tails.set(tail, safe);
          }
          return safe === tail ? m : `[REDACTED:${kind}:${safe}]`;
        })
      : text;
  const visit = (v: unknown): unknown => {
    if (typeof v === "string") return fix(v);
    if (Array.isArray(v)) return v.map(visit);
    if (v !== null && typeof v === "object")
      return Object.fromEntries(Object.entries(v).map(([k, child]) => [k, visit(child)]));
    return v;
  };
  return visit(value) as T;
}

/** Counts every marker in every string of a value: the `redactions` of an evidence, sorted by marker. */
export function countMarkers(value: unknown): Redaction[] {
  const counts = new Map<string, { kind: RedactionKind; count: number }>();
  const visit = (v: unknown): void => {
    if (typeof v === "string") {
      for (const m of v.matchAll(MARKERS)) {
        const entry = counts.get(m[0]) ?? { kind: m[1] as RedactionKind, count: 0 };
        entry.count += 1;
        counts.set(m[0], entry);
      }
    } else if (Array.isArray(v)) {
      for (const item of v) visit(item);
    } else if (v !== null && typeof v === "object") {
      for (const child of Object.values(v)) visit(child);
    }
  };
  visit(value);
  return [...counts.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([marker, { kind, count }]) => ({ marker, kind, count }));
}

/**
 * Learns every credential of the records: URLs, headers and bodies first, then
 * the credentials of answered pages' markup, which only add values not
 * already known (a CSRF token a cookie taught keeps the cookie's marker).
 */
function learnRecords(records: readonly EvidenceRecord[], redactor: Redactor): void {
  for (const r of records) learnRecord(r, redactor);
  learnEchoedHeaders(records, redactor);
  for (const r of records)
    if (r.response) redactor.learnFromBody(r.response.body, r.response.body?.mime_type ?? null, "markup");
}

/** Request headers whose values are never credentials, whatever an answer held before (an ETag, a type, a page). */
const PLAIN_REQUEST_HEADERS = new Set([
  "accept",
  "accept-encoding",
  "accept-language",
  "cache-control",
  "content-length",
  "content-type",
  "host",
  "if-match",
  "if-modified-since",
  "if-none-match",
  "if-range",
  "if-unmodified-since",
  "origin",
  "pragma",
  "range",
  "referer",
  "user-agent",
  "x-requested-with",
]);

/**
 * A value an answer's body handed out and the client then sent back in a
 * request header is a credential by its role, whatever the header is named
 * (a REST nonce a script fetched, a CSRF token read from a JSON answer): it is
 * learned under the header's marker, so it is replaced everywhere, the answer
 * that handed it out included (issue 13). Only values that could be
 * credentials count, only answers that are not assets (a script holds many
 * words a header repeats), and never a value a URL carries: that is an id
 * the app names things by (a workspace sent in `X-Workspace`), which learning needs.
 */
function learnEchoedHeaders(records: readonly EvidenceRecord[], redactor: Redactor): void {
  const handedOut: string[] = [];
  const urls = records.map((r) => r.request.url).join("\n");
  for (const r of records) {
    for (const h of r.request.headers) {
      const lower = h.name.toLowerCase();
      if (PLAIN_REQUEST_HEADERS.has(lower) || lower.startsWith("sec-") || !couldBeCredential(h.value))
        continue;
      if (!urls.includes(h.value) && handedOut.some((text) => text.includes(h.value)))
        redactor.learnValue(h.value, `[REDACTED:header:${lower}]`, "sent");
    }
    const body = r.response?.body;
    if (body && body.encoding === "utf8" && !ASSET_TYPES.has(r.resource_type)) handedOut.push(body.text);
  }
}

function learnRecord(r: EvidenceRecord, redactor: Redactor): void {
  redactor.learnFromUrl(r.request.url);
  redactor.learnFromHeaders(r.request.headers);
  redactor.learnFromBody(r.request.body, r.request.body?.mime_type ?? null, "sent");
  if (r.response) {
    redactor.learnFromHeaders(r.response.headers);
    redactor.learnFromBody(r.response.body, r.response.body?.mime_type ?? null, "answered");
  }
}

function redactRecord(r: EvidenceRecord, redactor: Redactor): EvidenceRecord {
  const nullableUrl = (u: string | null): string | null => (u === null ? null : redactor.redactUrl(u));
  return {
    ...r,
    request: {
      ...r.request,
      url: redactor.redactUrl(r.request.url),
      headers: redactor.redactHeaders(r.request.headers),
      body: redactor.redactBody(r.request.body),
    },
    response: r.response && {
      ...r.response,
      status_text: redactor.redactText(r.response.status_text),
      headers: redactor.redactHeaders(r.response.headers),
      body: redactor.redactBody(r.response.body, {
        from: "answered",
        scope: ASSET_TYPES.has(r.resource_type) ? "assets" : "all",
      }),
      redirect_to: nullableUrl(r.response.redirect_to),
    },
    failure: r.failure && { ...r.failure, message: redactor.redactText(r.failure.message) },
  };
}

function redactStep(s: StepResult, redactor: Redactor): StepResult {
  return {
    ...s,
    error: s.error === null ? null : redactor.redactText(s.error),
    url_before: s.url_before === null ? null : redactor.redactUrl(s.url_before),
    url_after: s.url_after === null ? null : redactor.redactUrl(s.url_after),
  };
}

/**
 * Redacts one step's result as far as the run so far allows: the redactor
 * first learns from the records finished so far. For what is shown while a
 * capture runs (progress lines); the evidence itself goes through redactEvidence.
 */
export function redactStepResult(s: StepResult, records: EvidenceRecord[], redactor: Redactor): StepResult {
  learnRecords(records, redactor);
  return redactMarkerTails(redactStep(s, redactor), redactor);
}

/** Redacts every record, step and warning of an evidence, then fills `redactions` and `evidence_id`. */
export function redactEvidence(
  evidence: Omit<Evidence, "redactions" | "evidence_id">,
  redactor: Redactor,
): Evidence {
  learnRecords(evidence.records, redactor);
  const redacted = redactMarkerTails(
    {
      ...evidence,
      records: evidence.records.map((r) => redactRecord(r, redactor)),
      steps: evidence.steps.map((s) => redactStep(s, redactor)),
      warnings: evidence.warnings.map((w) => ({ ...w, message: redactor.redactText(w.message) })),
      limitations: evidence.limitations.map((l) => redactor.redactText(l)),
    },
    redactor,
  );
  return {
    ...redacted,
    redactions: countMarkers(redacted),
    evidence_id: computeEvidenceId(redacted),
  };
}
