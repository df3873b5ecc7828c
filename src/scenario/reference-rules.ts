/**
 * The rules of value references that span steps and fields: a `{ "response":
 * step_id }` names an earlier request step, a `cookie_matching` regex compiles
 * and cannot backtrack for ever, a `{ "$value": … }` object in a JSON body
 * holds one valid reference and nothing else, every `{name}` placeholder of a
 * request path has its param and every param its placeholder, and a
 * `{placeholder}` in a header's name is a named group of that header's
 * `cookie_matching` regex.
 */

import { isRecord, type PathSegment } from "../errors/document-issue.js";
import type { Issue } from "../errors/user-error.js";
import { zodIssues } from "../errors/zod-issues.js";
import { makeIssue, writtenScenario } from "./document-issue.js";
import { checkRegex } from "./regex-check.js";
import { JSON_VALUE_KEY, valuePositions } from "./value-positions.js";
import { ReferenceSchema } from "./value-schema.js";

/** A `{name}` placeholder in a request path or a header name. */
export const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The placeholder names of a text, in order, each once. */
export function placeholders(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]!))];
}

/** The named groups of a regular expression's source (`(?<name>…)`, not look-behinds). */
export function namedGroups(pattern: string): string[] {
  return [...pattern.matchAll(/\(\?<([A-Za-z_$][A-Za-z0-9_$]*)>/g)].map((m) => m[1]!);
}

interface StepInfo {
  id: string;
  action: string;
}

function stepInfos(raw: Record<string, unknown>): (StepInfo | undefined)[] {
  const steps = Array.isArray(raw["steps"]) ? raw["steps"] : [];
  return steps.map((s) =>
    isRecord(s) && typeof s["step_id"] === "string"
      ? { id: s["step_id"], action: typeof s["action"] === "string" ? s["action"] : "?" }
      : undefined,
  );
}

function checkResponseRef(
  file: string,
  at: PathSegment[],
  ref: Record<string, unknown>,
  step: number,
  steps: (StepInfo | undefined)[],
): Issue[] {
  const name = ref["response"];
  if (typeof name !== "string") return [];
  const where = [...at, "response"];
  const target = steps.findIndex((s) => s?.id === name);
  const earlier = steps
    .slice(0, step)
    .filter((s) => s?.action === "request")
    .map((s) => s!.id);
  const hint =
    earlier.length === 0
      ? "no request step comes before this one"
      : `request steps before this one: ${earlier.join(", ")}`;
  const issues: Issue[] = [];
  if (target === -1) {
    issues.push(
      makeIssue(
        file,
        "unknown_step",
        where,
        `names the step ${JSON.stringify(name)}, which does not exist (${hint})`,
      ),
    );
  } else if (target >= step) {
    const when = target === step ? "is this step itself" : `comes later (steps[${target}])`;
    issues.push(
      makeIssue(
        file,
        "later_step",
        where,
        `names the step ${JSON.stringify(name)}, which ${when}; a value can only come from an earlier request step (${hint})`,
      ),
    );
  } else if (steps[target]?.action !== "request") {
    issues.push(
      makeIssue(
        file,
        "not_a_request_step",
        where,
        `names the step ${JSON.stringify(name)}, a ${steps[target]?.action} step; only the answer of a request step can be read (${hint})`,
      ),
    );
  }
  const header = ref["header"];
  if (typeof header === "string" && /^set-cookie2?$/i.test(header)) {
    issues.push(
      makeIssue(
        file,
        "unreadable_header",
        [...at, "header"],
        `names ${JSON.stringify(header)}, which fetch never shows a page; read the cookie with { "cookie": name } or { "cookie_matching": regex } instead`,
      ),
    );
  }
  return issues;
}

/** Checks the `$value` objects of a JSON body: the key alone in its object, the reference valid. */
function checkJsonValues(file: string, json: unknown, at: PathSegment[]): Issue[] {
  const issues: Issue[] = [];
  const walk = (v: unknown, p: PathSegment[]): void => {
    if (Array.isArray(v)) {
      v.forEach((x, i) => {
        walk(x, [...p, i]);
      });
      return;
    }
    if (!isRecord(v)) return;
    if (!Object.hasOwn(v, JSON_VALUE_KEY)) {
      for (const [k, x] of Object.entries(v)) walk(x, [...p, k]);
      return;
    }
    const others = Object.keys(v).filter((k) => k !== JSON_VALUE_KEY);
    if (others.length > 0) {
      issues.push(
        makeIssue(
          file,
          "value_not_alone",
          p,
          `holds "$value" beside other keys (${others.join(", ")}); an object { "$value": <reference> } stands for one value and holds nothing else`,
        ),
      );
    }
    const ref = v[JSON_VALUE_KEY];
    const parsed = ReferenceSchema.safeParse(ref);
    if (!parsed.success)
      for (const zi of parsed.error.issues)
        issues.push(...zodIssues(file, [zi], writtenScenario(ReferenceSchema, ref, [...p, JSON_VALUE_KEY])));
  };
  walk(json, at);
  return issues;
}

/** Checks the `{name}` placeholders of a request path against its `params`. */
function checkParams(file: string, step: Record<string, unknown>, at: PathSegment[]): Issue[] {
  const path = step["path"];
  const params = isRecord(step["params"]) ? step["params"] : {};
  if (typeof path !== "string") return [];
  const issues: Issue[] = [];
  const stray = path.replace(PLACEHOLDER, "");
  if (/[{}]/.test(stray)) {
    issues.push(
      makeIssue(
        file,
        "invalid_placeholder",
        [...at, "path"],
        `holds a "{" or "}" that is not a {name} placeholder (a name is letters, digits and _, not starting with a digit); percent-encode a literal brace as %7B or %7D (got ${JSON.stringify(path)})`,
      ),
    );
  }
  const used = placeholders(path);
  for (const name of used) {
    if (Object.hasOwn(params, name)) continue;
    issues.push(
      makeIssue(
        file,
        "missing_param",
        [...at, "path"],
        `holds the placeholder {${name}}, which "params" does not define; add "params": { ${JSON.stringify(name)}: <value> }`,
      ),
    );
  }
  for (const name of Object.keys(params)) {
    if (used.includes(name)) continue;
    issues.push(
      makeIssue(
        file,
        "unused_param",
        [...at, "params", name],
        `is not used: the path holds no {${name}} placeholder (got ${JSON.stringify(path)})`,
      ),
    );
  }
  return issues;
}

/** Checks that each `{placeholder}` in a header's name is a named group of its `cookie_matching` regex. */
function checkHeaderNames(file: string, step: Record<string, unknown>, at: PathSegment[]): Issue[] {
  const headers = step["headers"];
  if (!isRecord(headers)) return [];
  const issues: Issue[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const wanted = placeholders(name);
    if (wanted.length === 0) continue;
    const pattern = isRecord(value) ? value["cookie_matching"] : undefined;
    if (typeof pattern !== "string") {
      issues.push(
        makeIssue(
          file,
          "header_placeholder",
          [...at, "headers", name],
          `has a {${wanted[0]}} placeholder in its name, which only a { "cookie_matching": regex } value can fill (from the regex's named groups, e.g. "^CSRF-Token-(?<${wanted[0]}>.+)$")`,
        ),
      );
      continue;
    }
    const groups = namedGroups(pattern);
    for (const w of wanted.filter((g) => !groups.includes(g))) {
      issues.push(
        makeIssue(
          file,
          "header_placeholder",
          [...at, "headers", name],
          `has the placeholder {${w}} in its name, which names no group of its cookie_matching regex (named groups: ${groups.length === 0 ? "none" : groups.join(", ")}); capture it as (?<${w}>…)`,
        ),
      );
    }
  }
  return issues;
}

/** Checks every value reference of a raw scenario; see the file header. */
export function checkReferences(file: string, raw: Record<string, unknown>): Issue[] {
  const steps = stepInfos(raw);
  const issues: Issue[] = [];
  for (const { at, value, step } of valuePositions(raw)) {
    if (!isRecord(value)) continue;
    if (step !== null && "response" in value) issues.push(...checkResponseRef(file, at, value, step, steps));
    if (typeof value["cookie_matching"] === "string")
      issues.push(...checkRegex(file, [...at, "cookie_matching"], value["cookie_matching"]));
  }
  const rawSteps = Array.isArray(raw["steps"]) ? raw["steps"] : [];
  rawSteps.forEach((step, i) => {
    if (!isRecord(step) || step["action"] !== "request") return;
    const at: PathSegment[] = ["steps", i];
    issues.push(...checkJsonValues(file, step["json"], [...at, "json"]));
    issues.push(...checkParams(file, step, at));
    issues.push(...checkHeaderNames(file, step, at));
  });
  return issues;
}
