/**
 * Records real HTTP exchanges with a running app as Evidence, the way a capture's
 * request steps would: one step per exchange, sent one after another, each timed
 * by the wall clock around the real fetch, bodies and headers as they crossed the socket.
 */
import { createHash } from "node:crypto";
import { computeEvidenceId } from "../../../src/evidence/evidence-id.js";
import {
  type Evidence,
  type EvidenceRecord,
  EvidenceSchema,
  type Header,
  type StepResult,
} from "../../../src/evidence/evidence-schema.js";

/** One exchange to send: a JSON body unless undefined. */
export interface Exchange {
  method?: string;
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

function textBody(text: string, mime: string | null) {
  return {
    encoding: "utf8" as const,
    text,
    size: Buffer.byteLength(text),
    truncated: false,
    mime_type: mime,
  };
}

/** Sends `exchanges` to the app at `base` in order and returns the evidence of them (validated). */
export async function recordExchanges(base: string, name: string, exchanges: Exchange[]): Promise<Evidence> {
  const records: EvidenceRecord[] = [];
  const steps: StepResult[] = [];
  const started = Date.now();
  for (const [seq, ex] of exchanges.entries()) {
    const method = ex.method ?? "GET";
    const reqHeaders: Header[] = Object.entries(ex.headers ?? {}).map(([n, v]) => ({ name: n, value: v }));
    let reqText: string | null = null;
    if (ex.body !== undefined) {
      reqText = JSON.stringify(ex.body);
      reqHeaders.push({ name: "content-type", value: "application/json" });
    }
    const url = `${base}${ex.path}`;
    const t0 = Date.now();
    const res = await fetch(url, {
      method,
      headers: Object.fromEntries(reqHeaders.map((h) => [h.name, h.value])),
      ...(reqText === null ? {} : { body: reqText }),
      redirect: "manual",
    });
    const text = await res.text();
    const t1 = Date.now();
    const resHeaders: Header[] = [];
    res.headers.forEach((value, key) => {
      resHeaders.push({ name: key, value });
    });
    const mime = res.headers.get("content-type");
    const stepId = `s${seq + 1}`;
    records.push({
      seq,
      step_id: stepId,
      started_at: t0,
      duration_ms: t1 - t0,
      resource_type: "fetch",
      initiator: "request-step",
      request: {
        method,
        url,
        headers: reqHeaders,
        body: reqText === null ? null : textBody(reqText, "application/json"),
      },
      response: {
        status: res.status,
        status_text: res.statusText,
        headers: resHeaders,
        body: text === "" ? null : textBody(text, mime),
        redirect_to: res.status >= 300 && res.status < 400 ? res.headers.get("location") : null,
      },
      failure: null,
      origin: null,
    });
    steps.push({
      step_id: stepId,
      action: "request",
      status: "passed",
      started_at: t0,
      duration_ms: t1 - t0,
      error: null,
      url_before: null,
      url_after: null,
    });
  }
  const source = {
    kind: "capture" as const,
    scenario: { name, digest: createHash("sha256").update(name).digest("hex") },
    har: null,
    merged: null,
  };
  const evidence: Evidence = {
    schema_version: 1,
    evidence_id: computeEvidenceId({ records, steps, app_origin: base, source }),
    source,
    app_origin: base,
    allowed_origins: [],
    browser: null,
    started_at: started,
    finished_at: Date.now(),
    verdict: "passed",
    steps,
    records,
    redactions: [],
    warnings: [],
    limitations: [],
  };
  return EvidenceSchema.parse(evidence);
}
