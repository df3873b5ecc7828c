/**
 * The user-error family: a mistake in what the user gave apptwin (a file, a
 * flag, an environment variable). It prints one clean message and exits 2;
 * anything that is not a UserError is a bug and prints a stack.
 */

/** One problem in a document: the file, the field path, and what would be valid. */
export interface Issue {
  /** Stable machine code, e.g. `unknown_field`, `invalid_role`. */
  code: string;
  /** Field path in display form, e.g. `steps[3].headers.authorization` ("" for the document). */
  path: string;
  /** The whole sentence, already naming the file and field. */
  message: string;
}

/** Base class of every error that is the user's to fix. Exit code 2. */
export class UserError extends Error {
  readonly code: string;
  readonly suggestions: readonly string[];
  readonly exitCode = 2;

  constructor(code: string, message: string, suggestions: readonly string[] = []) {
    super(message);
    this.name = "UserError";
    this.code = code;
    this.suggestions = suggestions;
  }
}

/** A document (scenario, evidence, HAR, bundle) failed validation: every issue at once. */
export class DocumentError extends UserError {
  readonly file: string;
  readonly issues: readonly Issue[];

  constructor(file: string, issues: readonly Issue[]) {
    super(
      "invalid_document",
      issues.length === 1
        ? issues[0]!.message
        : `${file}: ${issues.length} problems\n${issues.map((i) => `  - ${i.message}`).join("\n")}`,
    );
    this.name = "DocumentError";
    this.file = file;
    this.issues = issues;
  }
}

/** A file format version newer than this apptwin reads: refused, never half-read. */
export class UnsupportedVersionError extends UserError {
  constructor(file: string, found: unknown, supported: number) {
    super(
      "unsupported_version",
      `${file}: schema_version ${JSON.stringify(found)} is newer than this apptwin reads (${supported}); upgrade apptwin to read it`,
    );
    this.name = "UnsupportedVersionError";
  }
}

/** A destination that exists (refused unless --force), a file that is missing, and the like. */
export class FileError extends UserError {
  constructor(code: string, message: string, suggestions: readonly string[] = []) {
    super(code, message, suggestions);
    this.name = "FileError";
  }
}

/** True for errors that are the user's to fix (exit 2), including oclif's flag-parse errors. */
export function isUserError(error: unknown): error is UserError {
  return error instanceof UserError;
}
