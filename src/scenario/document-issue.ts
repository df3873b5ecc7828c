/** The issues of a scenario file: at the top of the document they speak of "the scenario". */
import { documentIssue, type PathSegment } from "../errors/document-issue.js";
import type { Issue } from "../errors/user-error.js";

/** Makes one issue; the message reads `file: path <text>` (`file: the scenario <text>` at the top). */
export function makeIssue(file: string, code: string, path: readonly PathSegment[], text: string): Issue {
  return documentIssue(file, code, path, text, "the scenario");
}
