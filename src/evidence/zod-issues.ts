/**
 * zod issues as apptwin issues: each names the file and the field in display
 * form (`records[3].request.url`) and says what would be valid.
 */
import type { z } from "zod";
import type { Issue } from "../errors/user-error.js";

/** `["records", 3, "request", "url"]` → `records[3].request.url`. */
export function displayPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const seg of path) {
    if (typeof seg === "number") out += `[${seg}]`;
    else out += out === "" ? String(seg) : `.${String(seg)}`;
  }
  return out;
}

function describe(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "invalid_type":
      return `must be ${issue.expected === "int" ? "an integer" : `of type ${issue.expected}`}`;
    case "invalid_value":
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "too_small":
      return `is too small: ${issue.message}`;
    case "too_big":
      return `is too big: ${issue.message}`;
    default:
      return issue.message;
  }
}

/** Converts zod issues to apptwin issues for `file`, one per unknown key. */
export function zodIssuesToIssues(file: string, issues: readonly z.core.$ZodIssue[]): Issue[] {
  return issues.flatMap((issue): Issue[] => {
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => {
        const path = displayPath([...issue.path, key]);
        return { code: "unknown_field", path, message: `${file}: ${path} is not a known field (remove it)` };
      });
    }
    const path = displayPath(issue.path);
    const where = path === "" ? "the document" : path;
    return [{ code: issue.code, path, message: `${file}: ${where} ${describe(issue)}` }];
  });
}
