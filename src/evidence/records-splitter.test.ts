import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseEvidence, readEvidence } from "./evidence-io.js";
import { RecordsSplitter } from "./records-splitter.js";

/** Splits `text` fed in the given chunk sizes; the whole value it stands for, or null when it gave up or a part is not JSON. */
function split(text: string, sizes: number[]): unknown {
  const bytes = Buffer.from(text);
  const records: unknown[] = [];
  let bad = false;
  const splitter = new RecordsSplitter((t) => {
    try {
      records.push(JSON.parse(t));
    } catch {
      bad = true;
    }
  });
  let at = 0;
  for (let i = 0; at < bytes.length; i++) {
    const n = Math.max(1, sizes[i % sizes.length] ?? 1);
    splitter.feed(bytes.subarray(at, at + n));
    at += n;
  }
  const rest = splitter.end();
  if (rest === null || bad) return null;
  try {
    const doc = JSON.parse(rest) as { records: unknown[] };
    if (!Array.isArray(doc.records) || doc.records.length !== 0) return null;
    doc.records = records;
    return doc;
  } catch {
    return null;
  }
}

const wholeParse = (text: string): { ok: true; value: unknown } | { ok: false } => {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
};

const docArb = fc.record({
  before: fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 }),
  records: fc.array(fc.jsonValue(), { maxLength: 8 }),
  after: fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 }),
  indent: fc.constantFrom(0, 2),
});

function docText(d: {
  before: Record<string, unknown>;
  records: unknown[];
  after: Record<string, unknown>;
  indent: number;
}) {
  const value: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(d.before)) if (k !== "records") value[k] = v;
  value.records = d.records;
  for (const [k, v] of Object.entries(d.after)) if (k !== "records") value[k] = v;
  return JSON.stringify(value, null, d.indent);
}

describe("RecordsSplitter", () => {
  it("gives the value JSON.parse gives, however the text is cut into chunks", () => {
    fc.assert(
      fc.property(docArb, fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1 }), (d, sizes) => {
        const text = docText(d);
        expect(split(text, sizes)).toEqual(JSON.parse(text));
      }),
      { numRuns: 400 },
    );
  });

  it("never accepts text JSON.parse refuses, and agrees with it when it accepts (one character cut or added)", () => {
    fc.assert(
      fc.property(
        docArb,
        fc.nat(),
        fc.constantFrom("", ",", "]", "}", '"', "[", "{", "\\", ":"),
        fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1 }),
        (d, at, insert, sizes) => {
          const text = docText(d);
          const cut = at % text.length;
          const mutated = text.slice(0, cut) + insert + text.slice(cut + (insert === "" ? 1 : 0));
          const got = split(mutated, sizes);
          const whole = wholeParse(mutated);
          if (got !== null) expect(whole).toEqual({ ok: true, value: got });
        },
      ),
      { numRuns: 600 },
    );
  });

  it("gives up on a document without exactly one top-level records array", () => {
    for (const text of [
      "[]",
      '{"a": 1}',
      '{"records": {}}',
      '{"records": 3}',
      '{"records": [], "records": []}',
      '{"x": {"records": [1]}}',
      '{"records": [1,]}',
      '{"records": [,1]}',
    ]) {
      expect(split(text, [3])).toBeNull();
    }
  });
});

describe("readEvidence streamed", () => {
  it("reads the fixture recordings exactly as parsing their whole text does", async () => {
    for (const name of ["items.capture.json", "boards.capture.json"]) {
      const file = join(import.meta.dirname, "../../test/fixtures/evidence", name);
      expect(await readEvidence(file)).toEqual(parseEvidence(readFileSync(file, "utf8"), file));
    }
  });

  it("reads a record split across chunks, multi-byte characters included", async () => {
    const file = join(import.meta.dirname, "../../test/fixtures/evidence/items.capture.json");
    const doc = JSON.parse(readFileSync(file, "utf8"));
    doc.records[0].response.status_text = "é ✓ ".repeat(400_000);
    const dir = mkdtempSync(join(tmpdir(), "apptwin-split-"));
    const big = join(dir, "big.json");
    writeFileSync(big, JSON.stringify(doc, null, 2));
    const read = await readEvidence(big);
    expect(read).toEqual(parseEvidence(readFileSync(big, "utf8"), big));
    expect(read.records[0]!.response!.status_text).toHaveLength("é ✓ ".length * 400_000);
  });
});
