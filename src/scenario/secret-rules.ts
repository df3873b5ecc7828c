/**
 * Secret declarations and references: ids are unique, every `{ "secret": id }`
 * (in any value position: a value, a header, a query, form or param entry, a
 * `$value` or one-key secret in a JSON body, the HTTP Basic credentials)
 * names a declared id.
 */
import { isRecord } from "../errors/document-issue.js";
import type { Issue } from "../errors/user-error.js";
import { makeIssue } from "./document-issue.js";
import { valuePositions } from "./value-positions.js";

/** True for a secret reference `{ "secret": "<id>", "prefix"? }`. */
export function isSecretRef(v: unknown): v is { secret: string; prefix?: string } {
  return (
    isRecord(v) &&
    typeof v["secret"] === "string" &&
    Object.keys(v).every((k) => k === "secret" || k === "prefix")
  );
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
  const known = declared.length > 0 ? `declared: ${declared.join(", ")}` : "no secrets are declared";
  for (const { at, value } of valuePositions(raw)) {
    if (!isSecretRef(value) || declared.includes(value.secret)) continue;
    issues.push(
      makeIssue(
        file,
        "undeclared_secret",
        [...at, "secret"],
        `references the secret ${JSON.stringify(value.secret)}, which is not declared (${known}); add { "id": ${JSON.stringify(value.secret)}, "env": "<ENV_VAR>" } to "secrets"`,
      ),
    );
  }
  return issues;
}
