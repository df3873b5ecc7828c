/** A regular expression a scenario holds: it must compile and must not backtrack for ever. */

import type { PathSegment } from "../errors/document-issue.js";
import type { Issue } from "../errors/user-error.js";
import { makeIssue } from "./document-issue.js";
import { regexRisk } from "./regex-risk.js";

/** The issues of a pattern at `at`: `invalid_regex` when it does not compile, `risky_regex` when it can backtrack for ever. */
export function checkRegex(file: string, at: PathSegment[], pattern: unknown): Issue[] {
  if (typeof pattern !== "string") return [];
  try {
    new RegExp(pattern);
  } catch (e) {
    const why = (e as Error).message.replace(/^Invalid regular expression: /, "");
    return [makeIssue(file, "invalid_regex", at, `is not a valid regular expression (${why})`)];
  }
  const risk = regexRisk(pattern);
  if (risk === undefined) return [];
  return [
    makeIssue(
      file,
      "risky_regex",
      at,
      `can backtrack for a very long time: ${risk.reason}; ${risk.suggestion}`,
    ),
  ];
}
