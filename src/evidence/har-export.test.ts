import { describe, expect, it } from "vitest";
import type { Evidence, EvidenceRecord } from "./evidence-schema.js";
import { EvidenceSchema } from "./evidence-schema.js";
import { evidenceToHar } from "./har-export.js";
import { harToEvidence } from "./har-import.js";
import { createRedactor, redactEvidence } from "./redaction.js";

const harValidatorName = "har-validator";
const { default: validator } = (await import(harValidatorName)) as {
  default: { har(h: unknown): Promise<unknown> };
};

const O = "http://127.0.0.1:4010";
const base = (seq: number): EvidenceRecord => ({
  seq,
  step_id: "create-1",
  started_at: 1714557600000 + seq * 10,
  duration_ms: 3.25,
  resource_type: "fetch",
  initiator: "request-step",
  request: { method: "GET", url: `${O}/api/items`, headers: [{ name: "accept", value: "*/*" }], body: null },
  response: {
    status: 200,
    status_text: "OK",
    headers: [{ name: "content-type", value: "application/json" }],
    body: { encoding: "utf8", text: "[]", size: 2, truncated: false, mime_type: "application/json" },
    redirect_to: null,
  },
  failure: null,
  origin: null,
});

/** A capture-like evidence: request steps, a write, a truncated body, a binary body, a refusal, a redirect, no time. */
function captureLike(): Evidence {
  const records: EvidenceRecord[] = [
    { ...base(0), step_id: "open", initiator: "page", resource_type: "document" },
    {
      ...base(1),
      request: {
        method: "POST",
        url: `${O}/api/items?x=1&y=a%20b`,
        headers: [{ name: "x-csrf-token", value: "csrf-abcdefgh-123" }],
        body: {
          encoding: "utf8",
          text: '{"title":"Milk"}',
          size: 16,
          truncated: false,
          mime_type: "application/json",
        },
      },
      response: {
        ...base(1).response!,
        status: 201,
        status_text: "Created",
        body: { encoding: "utf8", text: '{"id":2,"title":"Mi', size: 30, truncated: true, mime_type: null },
      },
    },
    {
      ...base(2),
      resource_type: "image",
      initiator: "page",
      response: {
        ...base(2).response!,
        body: {
          encoding: "base64",
          text: Buffer.from([0x89, 0x50, 0, 1]).toString("base64"),
          size: 4,
          truncated: false,
          mime_type: "image/png",
        },
      },
    },
    {
      ...base(3),
      request: { method: "DELETE", url: "https://cdn.example.test/x", headers: [], body: null },
      response: null,
      failure: { kind: "refused", message: "a write to another origin was refused" },
    },
    {
      ...base(4),
      started_at: null,
      duration_ms: null,
      response: {
        ...base(4).response!,
        status: 302,
        status_text: "Found",
        body: null,
        redirect_to: `${O}/login`,
      },
    },
    {
      ...base(5),
      origin: { evidence_id: "ev_0123456789abcdef", seq: 9 },
      response: {
        ...base(5).response!,
        body: { encoding: "utf8", text: "", size: 0, truncated: false, mime_type: "text/plain" },
      },
    },
  ];
  return redactEvidence(
    {
      schema_version: 1,
      source: { kind: "capture", scenario: { name: "items", digest: "abc" }, har: null, merged: null },
      app_origin: O,
      allowed_origins: ["https://cdn.example.test"],
      browser: { product: "chromium", version: "126.0" },
      started_at: 1714557600000,
      finished_at: 1714557601000,
      verdict: "passed",
      steps: [],
      records,
      warnings: [],
      limitations: [],
    },
    createRedactor({ secrets: [] }),
  );
}

describe("evidenceToHar", () => {
  it("writes HAR 1.2 that har-validator accepts", async () => {
    const har = evidenceToHar(captureLike());
    await expect(validator.har(har)).resolves.toBeTruthy();
  });

  it("is deterministic", () => {
    expect(JSON.stringify(evidenceToHar(captureLike()))).toBe(JSON.stringify(evidenceToHar(captureLike())));
  });

  it("maps a missing response to status 0 with the failure as _error", () => {
    const har = evidenceToHar(captureLike()) as { log: { entries: { response: Record<string, unknown> }[] } };
    expect(har.log.entries[3]!.response.status).toBe(0);
    expect(har.log.entries[3]!.response._error).toBe("a write to another origin was refused");
  });

  it("imports back to the same records", () => {
    const e = captureLike();
    const back = harToEvidence(JSON.parse(JSON.stringify(evidenceToHar(e))), {
      file: "x.har",
      fileName: "x.har",
      secrets: [],
    });
    expect(back.records).toEqual(e.records);
    expect(back.app_origin).toBe(O);
    expect(back.browser).toEqual({ product: "chromium", version: "126.0" });
    expect(EvidenceSchema.parse(back)).toEqual(back);
  });

  it("writes the queryString as the URL writes it, never decoded (decoding could reveal what redaction did not see)", () => {
    const e = captureLike();
    const url = `${O}/api/items?q=a%20b%2Bc&flag&z=%5Bx%5D`;
    const har = evidenceToHar({ ...e, records: [{ ...base(0), request: { ...base(0).request, url } }] }) as {
      log: { entries: { request: { queryString: unknown } }[] };
    };
    expect(har.log.entries[0]?.request.queryString).toEqual([
      { name: "q", value: "a%20b%2Bc" },
      { name: "flag", value: "" },
      { name: "z", value: "%5Bx%5D" },
    ]);
  });

  it("import then export of a secret written as Python's quote() leaves it nowhere (issue 13)", () => {
    const secret = "a b/c+d";
    const har = {
      log: {
        version: "1.2",
        creator: { name: "t", version: "1" },
        entries: [
          {
            startedDateTime: "2024-05-01T10:00:00.000Z",
            time: 1,
            request: {
              method: "GET",
              url: `${O}/api/items?z=a%20b/c%2Bd`,
              httpVersion: "HTTP/1.1",
              cookies: [],
              headers: [],
              queryString: [{ name: "z", value: secret }],
              headersSize: -1,
              bodySize: 0,
            },
            response: {
              status: 200,
              statusText: "OK",
              httpVersion: "HTTP/1.1",
              cookies: [],
              headers: [{ name: "content-type", value: "application/json" }],
              content: { size: 2, mimeType: "application/json", text: "[]" },
              redirectURL: "",
              headersSize: -1,
              bodySize: 2,
            },
            cache: {},
            timings: { send: 0, wait: 1, receive: 0 },
          },
        ],
      },
    };
    const evidence = harToEvidence(har, {
      file: "x.har",
      fileName: "x.har",
      secrets: [{ id: "z", value: secret }],
    });
    const written = JSON.stringify(evidenceToHar(evidence));
    expect(written).toContain("[REDACTED:secret:z]");
    for (const form of [secret, "a%20b/c%2Bd", "a b/c%2Bd", encodeURIComponent(secret)])
      expect(written).not.toContain(form);
  });
});
