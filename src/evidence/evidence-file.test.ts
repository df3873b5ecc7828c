import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../util/canonical-json.js";
import { bodySha256, packEvidence, unpackEvidence } from "./evidence-file.js";
import { parseEvidence, readEvidence, writeEvidence } from "./evidence-io.js";
import type { Body, Evidence, EvidenceRecord } from "./evidence-schema.js";

const body = (text: string, mime = "text/javascript"): Body => ({
  encoding: "utf8",
  text,
  size: Buffer.byteLength(text),
  truncated: false,
  mime_type: mime,
});
const rec = (seq: number, type: EvidenceRecord["resource_type"], text: string): EvidenceRecord => ({
  seq,
  step_id: null,
  started_at: 1000 + seq,
  duration_ms: 1,
  resource_type: type,
  initiator: "page",
  request: { method: "GET", url: `http://127.0.0.1:1/r${seq}`, headers: [], body: null },
  response: { status: 200, status_text: "OK", headers: [], body: body(text), redirect_to: null },
  failure: null,
  origin: null,
});
const evidence = (records: EvidenceRecord[]): Evidence => ({
  schema_version: 1,
  evidence_id: "ev_0000000000000000",
  source: { kind: "capture", scenario: { name: "s", digest: "d" }, har: null, merged: null },
  app_origin: "http://127.0.0.1:1",
  allowed_origins: [],
  browser: null,
  started_at: 1000,
  finished_at: 2000,
  verdict: "passed",
  steps: [],
  records,
  redactions: [],
  warnings: [],
  limitations: [],
});

describe("evidence files", () => {
  const big = "x".repeat(100_000);
  const e = evidence([
    rec(0, "script", big),
    rec(1, "script", big),
    rec(2, "fetch", big),
    rec(3, "script", "once"),
  ]);

  it("stores an asset body loaded twice once, by the sha256 of its bytes, and an API body as it is", () => {
    const packed = packEvidence(e);
    const sha = bodySha256(body(big));
    expect(Object.keys(packed.bodies ?? {})).toEqual([sha]);
    expect(packed.records.map((r) => r.response!.body!.sha256 ?? null)).toEqual([sha, sha, null, null]);
    expect(packed.records[0]!.response!.body!.text).toBe("");
    expect(packed.records[2]!.response!.body!.text).toBe(big);
    const text = canonicalJson(packed);
    expect(text.split(big).length - 1).toBe(2);
    expect(packEvidence(evidence([rec(0, "script", "a")]))).toEqual(evidence([rec(0, "script", "a")]));
  });

  it("reads a packed file back to the same evidence, each body's text in place", () => {
    const back = parseEvidence(canonicalJson(packEvidence(e)), "e.json");
    expect(back).toEqual(e);
    expect(unpackEvidence(e).evidence).toEqual(e);
  });

  it("names a body whose sha256 the file does not hold", () => {
    const packed = packEvidence(e);
    const broken = { ...packed, bodies: {} };
    expect(() => parseEvidence(canonicalJson(broken), "e.json")).toThrow(
      'e.json: records[0].response.body.sha256 names a body that "bodies" does not hold (or holds in another encoding)',
    );
  });

  it("reads a packed file from disk (streamed record by record) to the same evidence, and names a missing body", async () => {
    const dir = mkdtempSync(join(tmpdir(), "apptwin-packed-"));
    try {
      const file = join(dir, "e.json");
      await writeEvidence(file, e);
      expect(await readEvidence(file)).toEqual(e);
      writeFileSync(file, canonicalJson({ ...packEvidence(e), bodies: {} }));
      await expect(readEvidence(file)).rejects.toThrow(
        `${file}: records[0].response.body.sha256 names a body that "bodies" does not hold (or holds in another encoding)`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
