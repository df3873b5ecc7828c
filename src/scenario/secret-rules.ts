/**
 * Secret declarations and references: ids are unique, every `{ "secret": id }`
 * (in a value, a header, a query or form entry, or anywhere in a JSON body)
 * names a declared id.
 */
import { isRecord, type PathSegment } from "../errors/document-issue.js";
import type { Issue } from "../errors/user-error.js";
import { makeIssue } from "./document-issue.js";

/**
 * True for `{ "secret": "<id>" }`; with `allowPrefix` (header values) also
 * `{ "secret": "<id>", "prefix": "…" }`. In a JSON body only the exact
 * one-key object is a reference (capture replaces exactly those).
 */
export function isSecretRef(v: unknown, allowPrefix = false): v is { secret: string; prefix?: string } {
  return (
    isRecord(v) &&
    typeof v["secret"] === "string" &&
    Object.keys(v).every((k) => k === "secret" || (allowPrefix && k === "prefix"))
  );
}

function walk(
  v: unknown,
  at: PathSegment[],
  visit: (ref: { secret: string }, at: PathSegment[]) => void,
): void {
  if (isSecretRef(v, at[2] === "headers")) visit(v, at);
  else if (Array.isArray(v))
    v.forEach((x, i) => {
      walk(x, [...at, i], visit);
    });
  else if (isRecord(v)) for (const [k, x] of Object.entries(v)) walk(x, [...at, k], visit);
}

/** Checks secret declarations are unique and every reference in the steps names one. */
export function checkSecrets(file: string, raw: Record<string, unknown>): Issue[] {
  const issues: Issue[] = [];
  const declared: string[] = [];
  const secrets = raw["secrets"];
  if (Array.isArray(secrets)) {
    secrets.forEach((s, i) => {
      if (!isRecord(s) || typeof s["id"] !== "string") return;
      if (declared.includes(s["id"])) {
        issues.push(
          makeIssue(
            file,
            "duplicate_secret",
            ["secrets", i, "id"],
            `declares the secret ${JSON.stringify(s["id"])} a second time; every secret id must be unique`,
          ),
        );
      } else declared.push(s["id"]);
    });
  }
  const steps = raw["steps"];
  if (!Array.isArray(steps)) return issues;
  const known = declared.length > 0 ? `declared: ${declared.join(", ")}` : "no secrets are declared";
  steps.forEach((step, i) => {
    if (!isRecord(step)) return;
    for (const [k, v] of Object.entries(step)) {
      walk(v, ["steps", i, k], (ref, at) => {
        if (declared.includes(ref.secret)) return;
        issues.push(
          makeIssue(
            file,
            "undeclared_secret",
            [...at, "secret"],
            `references the secret ${JSON.stringify(ref.secret)}, which is not declared (${known}); add { "id": ${JSON.stringify(ref.secret)}, "env": "<ENV_VAR>" } to "secrets"`,
          ),
        );
      });
    }
  });
  return issues;
}
