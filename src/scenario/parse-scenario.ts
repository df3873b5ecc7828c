/**
 * Reads a scenario from JSON text: the schema and every cross-field rule,
 * all issues of the file at once, each naming the file and the field.
 */
import { isRecord, preview } from "../errors/document-issue.js";
import { DocumentError, type Issue } from "../errors/user-error.js";
import { zodIssues } from "../errors/zod-issues.js";
import { findDuplicateKeys } from "../util/duplicate-keys.js";
import { findTooDeep, lineColumn } from "../util/json-depth.js";
import { makeIssue, writtenScenario } from "./document-issue.js";
import { findInlineCredentials } from "./inline-credentials.js";
import { checkOrigins, startUrlOf } from "./origin-rules.js";
import { checkReferences } from "./reference-rules.js";
import { checkSteps } from "./scenario-rules.js";
import { SCENARIO_SCHEMA_VERSION, type Scenario, ScenarioSchema } from "./scenario-schema.js";
import { checkSecrets } from "./secret-rules.js";

/** The result of validating one file: the scenario when valid, and every issue. */
export interface ScenarioValidation {
  scenario?: Scenario;
  issues: Issue[];
}

/** Nesting deeper than this is refused before anything walks the parsed value. */
const MAX_DEPTH = 64;

function syntaxError(text: string): Error | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (e) {
    return e as Error;
  }
}

/**
 * Where JSON.parse failed. Some of its messages carry no position, so the
 * shortest failing prefix is found instead: every shorter prefix is either
 * valid or merely unfinished (an error at its very end).
 */
function errorOffset(text: string, e: Error): number | undefined {
  const pos = /position (\d+)/.exec(e.message);
  if (pos) return Number(pos[1]);
  const failsEarly = (n: number) => {
    const err = syntaxError(text.slice(0, n));
    if (err === undefined || /Unexpected end of JSON input/.test(err.message)) return false;
    const at = /position (\d+)/.exec(err.message);
    return at === null || Number(at[1]) < n;
  };
  if (!failsEarly(text.length)) return undefined;
  let [lo, hi] = [0, text.length];
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (failsEarly(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo - 1;
}

function jsonError(file: string, text: string, e: Error): Issue {
  const offset = errorOffset(text, e);
  const where = offset === undefined ? "" : lineColumn(text, offset);
  const why = e.message
    .replace(/ in JSON at position \d+.*$/s, "")
    .replace(/, (?:\.\.\.)?"[\s\S]*"(?:\.\.\.)? is not valid JSON$/, "")
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
export function validateScenarioText(input: string, file: string): ScenarioValidation {
  // Editors on Windows may start a UTF-8 file with a byte order mark; it is not content.
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const deep = findTooDeep(text, MAX_DEPTH);
  if (deep !== undefined) {
    const where = lineColumn(text, deep);
    const why = `nests objects and arrays more than ${MAX_DEPTH} levels deep${where}; flatten it (a JSON body rarely needs more than a few levels)`;
    return { issues: [makeIssue(file, "too_deep", [], why)] };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return { issues: [jsonError(file, text, e as Error)] };
  }
  if (!isRecord(raw))
    return { issues: [makeIssue(file, "invalid_type", [], `must be a JSON object (got ${preview(raw)})`)] };
  const version = raw["schema_version"];
  if (Number.isInteger(version) && (version as number) > SCENARIO_SCHEMA_VERSION) {
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
    for (const issue of zodIssues(file, parsed.error.issues, writtenScenario(ScenarioSchema, raw)))
      issues.push(issue);
  const startUrl = startUrlOf(raw);
  const steps = Array.isArray(raw["steps"]) ? raw["steps"] : [];
  // One list per rule, appended in a loop: a file can hold more issues than a spread has arguments.
  for (const found of [
    checkOrigins(file, raw),
    checkSecrets(file, raw),
    checkSteps(file, raw, startUrl),
    checkReferences(file, raw),
    findInlineCredentials(file, steps),
  ])
    for (const issue of found) issues.push(issue);
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
