/**
 * The JSON text of a recorded document (evidence, HAR) read the way scenarios
 * are: nesting deeper than any such document holds is refused before anything
 * walks it, and a key written twice in one object is an issue (JSON.parse
 * would keep the last one silently, so the file would not mean what it says).
 */
import { documentIssue } from "../errors/document-issue.js";
import { DocumentError, type Issue } from "../errors/user-error.js";
import { findDuplicateKeys } from "../util/duplicate-keys.js";
import { findTooDeep, lineColumn, MAX_JSON_DEPTH } from "../util/json-depth.js";

/** Evidence and HAR nest a handful of levels; anything past this is not one of them (the one limit of JSON from outside). */
export const MAX_DEPTH = MAX_JSON_DEPTH;

/**
 * Whether a piece of a recorded document (one record, streamed) reads cleanly: no key twice and no deeper than
 * `depth`. A piece that does not is read again with its whole document, which names the issue.
 */
export function isCleanDocumentPiece(text: string, depth: number): boolean {
  return findTooDeep(text, depth) === undefined && findDuplicateKeys(text).length === 0;
}

/** Parsed JSON and the duplicate-key issues found in it (reported with the schema's issues, all at once). */
export interface DocumentJson {
  raw: unknown;
  issues: Issue[];
}

/** Parses a recorded document's text; invalid JSON or too deep a nesting → DocumentError naming the file. */
export function parseDocumentJson(input: string, file: string): DocumentJson {
  // A byte order mark is not content (editors on Windows write one).
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const deep = findTooDeep(text, MAX_DEPTH);
  if (deep !== undefined) {
    const why = `nests objects and arrays more than ${MAX_DEPTH} levels deep${lineColumn(text, deep)}`;
    throw new DocumentError(file, [documentIssue(file, "too_deep", [], why, "the document")]);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new DocumentError(file, [
      { code: "invalid_json", path: "", message: `${file}: is not valid JSON (${why})` },
    ]);
  }
  const issues = findDuplicateKeys(text).map((d) =>
    documentIssue(
      file,
      "duplicate_key",
      d.path,
      `has the key ${JSON.stringify(d.key)} twice; JSON keeps only the last, so remove one`,
      "the document",
    ),
  );
  return { raw, issues };
}
