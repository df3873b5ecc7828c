import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DocumentError, FileError, UnsupportedVersionError } from "../errors/user-error.js";
import { parseEvidence, readEvidence, writeEvidence } from "./evidence-io.js";
import type { Evidence } from "./evidence-schema.js";
import { createRedactor, redactEvidence } from "./redaction.js";

const sample: Evidence = redactEvidence(
  {
    schema_version: 1,
    source: { kind: "har", scenario: null, har: { file_name: "a.har", creator: "x 1" }, merged: null },
    app_origin: "http://127.0.0.1:4010",
    allowed_origins: [],
    browser: null,
    started_at: null,
    finished_at: null,
    verdict: "incomplete",
    steps: [],
    records: [],
    warnings: [],
    limitations: ["imported from HAR: no step results"],
  },
  createRedactor({ secrets: [] }),
);

describe("evidence read and write", () => {
  it("writes canonical JSON and reads it back", async () => {
    const dir = mkdtempSync(join(tmpdir(), "apptwin-ev-"));
    const file = join(dir, "e.json");
    await writeEvidence(file, sample);
    const text = readFileSync(file, "utf8");
    expect(text.endsWith("}\n")).toBe(true);
    expect(text.indexOf('"allowed_origins"')).toBeLessThan(text.indexOf('"app_origin"'));
    expect(await readEvidence(file)).toEqual(sample);
  });

  it("refuses a newer schema_version with the exact message", () => {
    const err = (() => {
      try {
        parseEvidence(JSON.stringify({ ...sample, schema_version: 2, future: true }), "e.json");
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(UnsupportedVersionError);
    expect((err as Error).message).toBe(
      "e.json: schema_version 2 is newer than this apptwin reads (1); upgrade apptwin to read it",
    );
  });

  it("says to import a HAR file given where evidence is expected", () => {
    const har = JSON.stringify({
      log: { version: "1.2", creator: { name: "x", version: "1" }, entries: [] },
    });
    expect(() => parseEvidence(har, "rec.har")).toThrow(
      "rec.har: is a HAR file, not apptwin evidence; import it first: apptwin import rec.har --out evidence.json",
    );
  });

  it("reports every schema problem at once, naming file and field", () => {
    const bad = { ...sample, verdict: "great", extra: 1, records: [{ seq: -1 }] };
    try {
      parseEvidence(JSON.stringify(bad), "e.json");
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(DocumentError);
      const messages = (e as DocumentError).issues.map((i) => i.message);
      expect(messages).toContain('e.json: verdict must be one of "passed", "failed", "incomplete"');
      expect(messages).toContain("e.json: extra is not a known field (remove it)");
      expect(messages).toContain("e.json: records[0].step_id must be of type string");
      expect(messages.length).toBeGreaterThan(5);
    }
  });

  it("names invalid JSON and a missing file", async () => {
    expect(() => parseEvidence("{", "e.json")).toThrow(/^e\.json: is not valid JSON \(/);
    const dir = mkdtempSync(join(tmpdir(), "apptwin-ev-"));
    const missing = join(dir, "nope.json");
    await expect(readEvidence(missing)).rejects.toThrow(
      new FileError("file_not_found", `${missing}: no such evidence file`),
    );
    writeFileSync(join(dir, "x.json"), "[]");
    await expect(readEvidence(join(dir, "x.json"))).rejects.toBeInstanceOf(DocumentError);
  });
});

describe("evidence read: hostile documents", () => {
  const record = (request: Record<string, unknown>, responseHeaders: unknown[] = []) => ({
    seq: 0,
    step_id: null,
    started_at: null,
    duration_ms: null,
    resource_type: "fetch",
    initiator: "page",
    request: { method: "GET", url: "http://127.0.0.1:4010/api", headers: [], body: null, ...request },
    response: { status: 200, status_text: "OK", headers: responseHeaders, body: null, redirect_to: null },
    failure: null,
    origin: null,
  });
  const issuesOf = (text: string) => {
    try {
      parseEvidence(text, "e.json");
    } catch (e) {
      expect(e).toBeInstanceOf(DocumentError);
      return (e as DocumentError).issues.map((i) => i.message);
    }
    return expect.unreachable("the evidence was accepted");
  };

  it("refuses a method that is not an RFC 9110 token, without quoting it", () => {
    const text = JSON.stringify({ ...sample, records: [record({ method: "GET\r\nX: y" })] });
    expect(issuesOf(text)).toEqual([
      "e.json: records[0].request.method must be an HTTP method token (RFC 9110: letters, digits and !#$%&'*+-.^_`|~, such as GET or POST)",
    ]);
  });

  it("refuses CR, LF or NUL in a header name or value, and keeps the lines of a Set-Cookie", () => {
    const text = JSON.stringify({
      ...sample,
      records: [
        record(
          {
            headers: [
              { name: "X-A\r\nX-B", value: "1" },
              { name: "Accept", value: "a\nb" },
            ],
          },
          [
            { name: "Content-Type", value: "text/html\r\nX-Injected: 1" },
            { name: "Set-Cookie", value: "a=1; Path=/\nb=2; Path=/" },
            { name: "Set-Cookie", value: "c=1\u0000" },
          ],
        ),
      ],
    });
    expect(issuesOf(text)).toEqual([
      "e.json: records[0].request.headers[0].name must not hold a carriage return, line feed or NUL (a header name is one token)",
      "e.json: records[0].request.headers[1].value must not hold a carriage return, line feed or NUL (only a Set-Cookie's value may hold line feeds, one cookie a line)",
      "e.json: records[0].response.headers[0].value must not hold a carriage return, line feed or NUL (only a Set-Cookie's value may hold line feeds, one cookie a line)",
      "e.json: records[0].response.headers[2].value must not hold a carriage return, line feed or NUL (only a Set-Cookie's value may hold line feeds, one cookie a line)",
    ]);
  });

  it("refuses duplicate keys the way scenarios do, every one at once", () => {
    const text = JSON.stringify(sample).replace(
      '"verdict":"incomplete"',
      '"verdict":"incomplete","verdict":"passed"',
    );
    const twice = text.replace('"steps":[]', '"steps":[],"steps":[]');
    expect(issuesOf(twice)).toEqual([
      'e.json: the document has the key "verdict" twice; JSON keeps only the last, so remove one',
      'e.json: the document has the key "steps" twice; JSON keeps only the last, so remove one',
    ]);
  });

  it("refuses a key written twice inside a record when the file is read as a stream, as when read whole", async () => {
    const dir = mkdtempSync(join(tmpdir(), "apptwin-ev-"));
    const file = join(dir, "e.json");
    const text = JSON.stringify({ ...sample, records: [record({})] }).replace('"seq":0', '"seq":0,"seq":0');
    writeFileSync(file, text);
    const err = await readEvidence(file).then(
      () => expect.unreachable("the evidence was accepted"),
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DocumentError);
    expect((err as DocumentError).issues.map((i) => i.message)).toEqual([
      `${file}: records[0] has the key "seq" twice; JSON keeps only the last, so remove one`,
    ]);
  });

  it("refuses nesting deeper than any evidence holds before walking it", () => {
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    const text = JSON.stringify(sample).replace('"warnings":[]', `"warnings":${deep}`);
    expect(issuesOf(text)).toEqual([
      expect.stringMatching(
        /^e\.json: the document nests objects and arrays more than 64 levels deep at line 1, column \d+$/,
      ),
    ]);
  });
});
