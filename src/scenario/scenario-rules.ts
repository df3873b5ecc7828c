/**
 * The rules of a scenario that span fields: the first step navigates, step
 * ids are unique (ignoring case), the step count keeps to the limit, targets follow the
 * grammar, regexes compile and cannot backtrack for ever, a wait waits for one thing, expect-request names
 * a method and a path. Works on raw JSON so it reports alongside schema errors.
 */
import { isRecord, type PathSegment } from "../errors/document-issue.js";
import type { Issue } from "../errors/user-error.js";
import { makeIssue } from "./document-issue.js";
import { DEFAULT_LIMITS } from "./limits.js";
import { checkStepPath } from "./origin-rules.js";
import { checkTarget } from "./parse-target.js";
import { checkRegex } from "./regex-check.js";
import { checkRequestStep } from "./request-rules.js";

const EXPECT_REQUEST = /^(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS) (\/\S*)$/;

function checkStep(file: string, step: Record<string, unknown>, i: number, startUrl: string): Issue[] {
  const at: PathSegment[] = ["steps", i];
  const issues: Issue[] = [];
  for (const field of ["target"] as const) {
    const t = step[field];
    if (typeof t !== "string") continue;
    const r = checkTarget(t);
    if ("problem" in r) issues.push(makeIssue(file, r.problem.code, [...at, field], r.problem.text));
  }
  switch (step["action"]) {
    case "navigate":
      if (typeof step["path"] === "string")
        issues.push(...checkStepPath(file, [...at, "path"], step["path"], startUrl, "navigate"));
      break;
    case "expect-url":
      issues.push(...checkRegex(file, [...at, "pattern"], step["pattern"]));
      break;
    case "wait": {
      const given = (["target", "text", "url"] as const).filter((k) => step[k] !== undefined);
      if (given.length !== 1) {
        const got = given.length === 0 ? "none" : given.map((k) => `"${k}"`).join(" and ");
        issues.push(
          makeIssue(
            file,
            "wait_needs_one",
            at,
            `must wait for exactly one of "target", "text" or "url" (got ${got})`,
          ),
        );
      }
      issues.push(...checkRegex(file, [...at, "url"], step["url"]));
      break;
    }
    case "expect-request": {
      const r = step["request"];
      if (
        typeof r === "string" &&
        (!EXPECT_REQUEST.test(r) || (r.indexOf("*") !== -1 && r.indexOf("*") !== r.length - 1))
      ) {
        issues.push(
          makeIssue(
            file,
            "invalid_expect_request",
            [...at, "request"],
            `must be "METHOD /path", the path exact or a prefix ending in * (e.g. "POST /api/items") (got ${JSON.stringify(r)})`,
          ),
        );
      }
      break;
    }
    case "request":
      for (const issue of checkRequestStep(file, step, i, startUrl)) issues.push(issue);
      break;
  }
  return issues;
}

/** Checks the steps of a raw scenario: order, ids, limits, targets, paths, regexes, request rules. */
export function checkSteps(file: string, raw: Record<string, unknown>, startUrl: string): Issue[] {
  const steps = raw["steps"];
  if (!Array.isArray(steps)) return [];
  const issues: Issue[] = [];
  const first = steps[0];
  if (isRecord(first) && typeof first["action"] === "string" && first["action"] !== "navigate") {
    issues.push(
      makeIssue(
        file,
        "first_step_not_navigate",
        ["steps", 0, "action"],
        `is ${JSON.stringify(first["action"])}, but the first step must be a navigate (e.g. { "step_id": "open", "action": "navigate", "path": "/" })`,
      ),
    );
  }
  const limits = isRecord(raw["limits"]) ? raw["limits"] : {};
  const max = typeof limits["max_steps"] === "number" ? limits["max_steps"] : DEFAULT_LIMITS.max_steps;
  if (steps.length > max) {
    issues.push(
      makeIssue(
        file,
        "too_many_steps",
        ["steps"],
        `holds ${steps.length} steps, more than limits.max_steps (${max}); split the scenario or raise limits.max_steps`,
      ),
    );
  }
  // Compared ignoring case: an id names a step in evidence, redaction markers and
  // file names, where "Email" and "email" read as one (and fold on macOS and Windows).
  const seen = new Map<string, number>();
  steps.forEach((step, i) => {
    if (!isRecord(step)) return;
    const id = step["step_id"];
    if (typeof id === "string") {
      const key = id.toLowerCase();
      const before = seen.get(key);
      if (before !== undefined) {
        issues.push(
          makeIssue(
            file,
            "duplicate_step_id",
            ["steps", i, "step_id"],
            `${JSON.stringify(id)} is already the step_id of steps[${before}]; every step_id must be unique`,
          ),
        );
      } else seen.set(key, i);
    }
    for (const issue of checkStep(file, step, i, startUrl)) issues.push(issue);
  });
  return issues;
}
