/**
 * Reading and writing evidence files: parsed at the edge, refused whole when
 * wrong, written atomically. A file is read as a stream and parsed record by
 * record, so a large recording is never in memory as text and as a tree at
 * once; a file that does not read that way is read whole, for its errors.
 */
import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { DocumentError, FileError, UnsupportedVersionError } from "../errors/user-error.js";
import { zodIssues } from "../errors/zod-issues.js";
import { writeFileAtomic } from "../util/atomic-write.js";
import { canonicalJson } from "../util/canonical-json.js";
import { isCleanDocumentPiece, MAX_DEPTH, parseDocumentJson } from "./document-json.js";
import { packEvidence, unpackEvidence } from "./evidence-file.js";
import {
  EVIDENCE_SCHEMA_VERSION,
  type Evidence,
  type EvidenceRecord,
  EvidenceSchema,
  RecordSchema,
} from "./evidence-schema.js";
import { RecordsSplitter } from "./records-splitter.js";

/** Parses evidence text: bad JSON or schema problems → DocumentError with every issue; a newer version → UnsupportedVersionError. */
export function parseEvidence(text: string, file: string): Evidence {
  const { raw, issues } = parseDocumentJson(text, file);
  if (looksLikeHar(raw)) {
    throw new DocumentError(file, [
      {
        code: "har_not_evidence",
        path: "",
        message: `${file}: is a HAR file, not apptwin evidence; import it first: apptwin import ${file} --out evidence.json`,
      },
    ]);
  }
  const version = (raw as { schema_version?: unknown } | null)?.schema_version;
  if (typeof version === "number" && version > EVIDENCE_SCHEMA_VERSION) {
    throw new UnsupportedVersionError(file, version, EVIDENCE_SCHEMA_VERSION);
  }
  const parsed = EvidenceSchema.safeParse(raw);
  if (!parsed.success) for (const issue of zodIssues(file, parsed.error.issues)) issues.push(issue);
  if (issues.length > 0 || !parsed.success) throw new DocumentError(file, issues);
  const { evidence, missing } = unpackEvidence(parsed.data);
  if (missing.length > 0)
    throw new DocumentError(
      file,
      missing.map((path) => ({
        code: "missing_body",
        path,
        message: `${file}: ${path} names a body that "bodies" does not hold (or holds in another encoding)`,
      })),
    );
  return evidence;
}

/** A HAR document (`{log: {entries: [...]}}`) without evidence's own `schema_version`. */
function looksLikeHar(raw: unknown): boolean {
  if (raw === null || typeof raw !== "object" || "schema_version" in raw) return false;
  const log = (raw as { log?: unknown }).log;
  return log !== null && typeof log === "object" && Array.isArray((log as { entries?: unknown }).entries);
}

/** Reads a text file, turning a missing or unreadable file into a FileError that names it. */
export async function readTextFile(path: string, what: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new FileError("file_not_found", `${path}: no such ${what} file`);
    if (code === "EISDIR") throw new FileError("not_a_file", `${path}: is a directory, not a file`);
    throw new FileError("file_unreadable", `${path}: cannot be read (${code ?? String(error)})`);
  }
}

/** The chunk size evidence files are streamed in. */
const READ_CHUNK_BYTES = 1024 * 1024;

/**
 * Reads a valid evidence file record by record: each record parsed and checked alone as it arrives (its text
 * then dropped), the rest of the document parsed with an empty `records`. The same Evidence as `parseEvidence`
 * of the whole text; null when the file does not read that way (invalid, a HAR, unreadable): the caller then
 * reads it whole, which gives the errors.
 */
async function streamEvidence(path: string): Promise<Evidence | null> {
  const records: EvidenceRecord[] = [];
  let bad = false;
  const splitter = new RecordsSplitter((text) => {
    if (bad) return;
    // A record sits two levels down (document, records); a key twice or too deep a nesting is the whole read's to name.
    if (!isCleanDocumentPiece(text, MAX_DEPTH - 2)) {
      bad = true;
      return;
    }
    try {
      const parsed = RecordSchema.safeParse(JSON.parse(text));
      if (parsed.success) records.push(parsed.data);
      else bad = true;
    } catch {
      bad = true;
    }
  });
  try {
    for await (const chunk of createReadStream(path, { highWaterMark: READ_CHUNK_BYTES })) {
      splitter.feed(chunk as Buffer);
      if (bad || splitter.failure) return null;
    }
  } catch {
    return null;
  }
  const rest = splitter.end();
  if (rest === null || bad) return null;
  if (!isCleanDocumentPiece(rest, MAX_DEPTH)) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(rest);
  } catch {
    return null;
  }
  const parsed = EvidenceSchema.safeParse(raw);
  if (!parsed.success) return null;
  parsed.data.records = records;
  // Asset bodies stored once in `bodies` go back in place; one it does not hold is an error, found by the whole read.
  const { evidence, missing } = unpackEvidence(parsed.data);
  return missing.length > 0 ? null : evidence;
}

/** Reads and validates an evidence file (streamed; read whole only when it is invalid, for its errors). */
export async function readEvidence(path: string): Promise<Evidence> {
  return (await streamEvidence(path)) ?? parseEvidence(await readTextFile(path, "evidence"), path);
}

/** The bytes of an evidence file: canonical JSON (sorted keys, trailing newline), repeated asset bodies stored once. */
export function evidenceFileText(e: Evidence): string {
  return canonicalJson(packEvidence(e));
}

/** Writes evidence as its file holds it ({@link evidenceFileText}), atomically. */
export async function writeEvidence(path: string, e: Evidence): Promise<void> {
  await writeFileAtomic(path, evidenceFileText(e));
}
