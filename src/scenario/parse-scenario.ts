/**
 * Reads a scenario from JSON text: the schema and every cross-field rule,
 * all issues of the file at once, each naming the file and the field.
 */
import { DocumentError, type Issue } from "../errors/user-error.js";
import { isRecord, makeIssue, preview } from "./document-issue.js";
import { findDuplicateKeys } from "./duplicate-keys.js";
import { findInlineCredentials } from "./inline-credentials.js";
import { checkOrigins, startUrlOf } from "./origin-rules.js";
import { checkSteps } from "./scenario-rules.js";
import { SCENARIO_SCHEMA_VERSION, type Scenario, ScenarioSchema } from "./scenario-schema.js";
import { checkSecrets } from "./secret-rules.js";
import { zodIssueMessages } from "./zod-issue-message.js";

/** The result of validating one file: the scenario when valid, and every issue. */
export interface ScenarioValidation {
  scenario?: Scenario;
  issues: Issue[];
}

function jsonError(file: string, text: string, e: Error): Issue {
  const pos = /position (\d+)/.exec(e.message);
  let where = "";
  if (pos) {
    const before = text.slice(0, Number(pos[1]));
    const line = before.split("\n").length;
    where = ` at line ${line}, column ${before.length - before.lastIndexOf("\n")}`;
  }
  const why = e.message
    .replace(/ in JSON at position \d+.*$/s, "")
    .replace(/, "[\s\S]*" is not valid JSON$/, "")
    .replace(/\s*\(line \d+ column \d+\)$/, "");
  return makeIssue(file, "invalid_json", [], `is not valid JSON${where}: ${why}`);
}

/** Orders issues top-level fields first, then by step, keeping the order within each. */
function byStep(issues: Issue[]): Issue[] {
  const key = (i: Issue) => Number(/^steps\[(\d+)\]/.exec(i.path)?.[1] ?? -1);
  return issues
    .map((issue, n) => ({ issue, n }))
    .sort((a, b) => key(a.issue) - key(b.issue) || a.n - b.n)
    .map((x) => x.issue);
}

/** Validates scenario JSON text; never throws for a user's mistake. */
export function validateScenarioText(text: string, file: string): ScenarioValidation {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return { issues: [jsonError(file, text, e as Error)] };
  }
  if (!isRecord(raw))
    return { issues: [makeIssue(file, "invalid_type", [], `must be a JSON object (got ${preview(raw)})`)] };
  const version = raw["schema_version"];
  if (typeof version === "number" && version > SCENARIO_SCHEMA_VERSION) {
    const text = `schema_version ${version} is newer than this apptwin reads (${SCENARIO_SCHEMA_VERSION}); upgrade apptwin to read it`;
    return { issues: [{ code: "unsupported_version", path: "schema_version", message: `${file}: ${text}` }] };
  }
  const issues: Issue[] = findDuplicateKeys(text).map((d) =>
    makeIssue(
      file,
      "duplicate_key",
      d.path,
      `has the key ${JSON.stringify(d.key)} twice; JSON keeps only the last, so remove one`,
    ),
  );
  const parsed = ScenarioSchema.safeParse(raw);
  if (!parsed.success)
    for (const zi of parsed.error.issues) issues.push(...zodIssueMessages(file, ScenarioSchema, raw, zi));
  const startUrl = startUrlOf(raw);
  issues.push(...checkOrigins(file, raw), ...checkSecrets(file, raw), ...checkSteps(file, raw, startUrl));
  if (Array.isArray(raw["steps"])) issues.push(...findInlineCredentials(file, raw["steps"]));
  const unique = [...new Map(issues.map((i) => [`${i.path}\u0000${i.message}`, i])).values()];
  const others = new Set(unique.filter((i) => i.code !== "inline_credential").map((i) => i.path));
  const kept = unique.filter((i) => i.code !== "inline_credential" || !others.has(i.path));
  if (kept.length > 0 || !parsed.success) return { issues: byStep(kept) };
  return { scenario: parsed.data, issues: [] };
}

/** Parses and validates a scenario; throws `DocumentError(file, issues)` with every issue of the file. */
export function parseScenario(text: string, file: string): Scenario {
  const { scenario, issues } = validateScenarioText(text, file);
  if (!scenario) throw new DocumentError(file, issues);
  return scenario;
}
