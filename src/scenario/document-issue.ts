/** The issues of a scenario file: at the top of the document they speak of "the scenario". */
import { documentIssue, type PathSegment } from "../errors/document-issue.js";
import type { Issue } from "../errors/user-error.js";
import type { WrittenDocument } from "../errors/zod-issues.js";
import { credentialNameKind } from "../util/credential-name.js";

/** Makes one issue; the message reads `file: path <text>` (`file: the scenario <text>` at the top). */
export function makeIssue(file: string, code: string, path: readonly PathSegment[], text: string): Issue {
  return documentIssue(file, code, path, text, "the scenario");
}

/**
 * A scenario (or a part of one standing at `at`) for the zod issue formatter.
 * A value under a credential-named key is never quoted back: it may be the credential itself.
 */
export function writtenScenario(
  schema: WrittenDocument["schema"],
  raw: unknown,
  at: readonly PathSegment[] = [],
): WrittenDocument {
  return {
    schema,
    raw,
    subject: "the scenario",
    at,
    conceals: (path) => {
      const key = path.findLast((seg) => typeof seg === "string");
      return typeof key === "string" && credentialNameKind(key) !== "none";
    },
  };
}
