/**
 * Inline credentials are refused: a literal under a credential-named key
 * (header, query or form name, JSON key at any depth and any string or number below it, a fill target such as
 * `label=Password`) or a value shaped like a credential anywhere in the steps.
 * Names follow the one rule redaction follows (util/credential-name.ts); a
 * name that only describes a credential (`token_type`, `password_hint`) refuses
 * only a literal that could be one (`"token_type": "bearer"` passes).
 * The message says to declare a secret and reference it.
 */
import { formatPath, isRecord, type PathSegment } from "../errors/document-issue.js";
import type { Issue } from "../errors/user-error.js";
import { credentialNameKind, isCredentialName } from "../util/credential-name.js";
import { couldBeCredential } from "../util/credential-value.js";
import { credentialShape } from "./credential-shape.js";
import { makeIssue } from "./document-issue.js";
import { isJsonReference } from "./value-positions.js";

const DECLARE = 'declare a secret in "secrets" and reference it as { "secret": "<id>" }';

/** True when a key or label names a credential (password, token, api key, cookie, session, otp, …). */
export { isCredentialName };

/** True when a literal under this name must be a declared secret instead. */
function refusedLiteral(name: string, value: unknown): boolean {
  const kind = credentialNameKind(name);
  if (kind === "none" || typeof value !== "string" || value === "") return false;
  return kind === "credential" || couldBeCredential(value);
}

function walkStrings(v: unknown, at: PathSegment[], visit: (s: string, at: PathSegment[]) => void): void {
  if (typeof v === "string") visit(v, at);
  else if (Array.isArray(v))
    v.forEach((x, i) => {
      walkStrings(x, [...at, i], visit);
    });
  else if (isRecord(v)) for (const [k, x] of Object.entries(v)) walkStrings(x, [...at, k], visit);
}

const QUANTITY_WORD = new Set([
  "max",
  "min",
  "count",
  "num",
  "number",
  "limit",
  "length",
  "len",
  "size",
  "ttl",
  "expires",
  "expiry",
  "timeout",
  "age",
]);

/** True when a key also names an amount (`max_tokens`, `token_expires_in`): its numbers are not credentials. */
function namesQuantity(key: string): boolean {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  return words.some((w) => QUANTITY_WORD.has(w));
}

/**
 * Visits every non-empty literal string in `v`, and with `numbers` every
 * number not under a key that names an amount; secret references, `null` and
 * booleans are left alone.
 */
function walkLiterals(
  v: unknown,
  at: PathSegment[],
  visit: (at: PathSegment[], value: string | number) => void,
  numbers: boolean,
): void {
  if (typeof v === "string") {
    if (v !== "") visit(at, v);
  } else if (typeof v === "number") {
    if (numbers) visit(at, v);
  } else if (Array.isArray(v))
    v.forEach((x, i) => {
      walkLiterals(x, [...at, i], visit, numbers);
    });
  else if (isRecord(v) && !isJsonReference(v))
    for (const [k, x] of Object.entries(v)) walkLiterals(x, [...at, k], visit, numbers && !namesQuantity(k));
}

function walkJsonKeys(
  v: unknown,
  at: PathSegment[],
  visit: (key: string, value: unknown, at: PathSegment[]) => void,
) {
  if (Array.isArray(v))
    v.forEach((x, i) => {
      walkJsonKeys(x, [...at, i], visit);
    });
  else if (isRecord(v) && !isJsonReference(v)) {
    for (const [k, x] of Object.entries(v)) {
      visit(k, x, [...at, k]);
      walkJsonKeys(x, [...at, k], visit);
    }
  }
}

/** Finds every inline credential in the steps of a raw scenario; one issue per field at most. */
export function findInlineCredentials(file: string, steps: readonly unknown[]): Issue[] {
  const issues = new Map<string, Issue>();
  const add = (at: PathSegment[], text: string) => {
    const key = formatPath(at);
    if (!issues.has(key)) issues.set(key, makeIssue(file, "inline_credential", at, `${text}; ${DECLARE}`));
  };
  const literal = (v: unknown): v is string => typeof v === "string" && v !== "";
  steps.forEach((step, i) => {
    if (!isRecord(step)) return;
    const at: PathSegment[] = ["steps", i];
    for (const [k, v] of Object.entries(step)) {
      if (k === "step_id" || k === "action") continue;
      walkStrings(v, [...at, k], (s, p) => {
        const shape = credentialShape(s);
        if (shape) add(p, `holds an inline credential (${shape})`);
      });
    }
    const target = step["target"];
    if ((step["action"] === "fill" || step["action"] === "select") && literal(step["value"])) {
      if (typeof target === "string" && refusedLiteral(target.replace(/^[a-z]+=/, ""), step["value"])) {
        add([...at, "value"], `is a literal value for the credential-named target ${JSON.stringify(target)}`);
      }
    }
    if (step["action"] === "navigate" && typeof step["path"] === "string" && step["path"].includes("?")) {
      const query = step["path"].slice(step["path"].indexOf("?") + 1).split("#")[0] ?? "";
      for (const [name, value] of new URLSearchParams(query)) {
        if (refusedLiteral(name, value)) {
          add(
            [...at, "path"],
            `carries a literal value in the credential-named query parameter ${JSON.stringify(name)}`,
          );
        }
      }
    }
    if (step["action"] !== "request") return;
    if (isRecord(step["headers"])) {
      for (const [name, v] of Object.entries(step["headers"])) {
        if (refusedLiteral(name, v)) {
          add(
            [...at, "headers", name],
            `is a literal value for the credential-named header ${JSON.stringify(name)}`,
          );
        }
      }
    }
    for (const list of ["query", "form"] as const) {
      const entries = step[list];
      if (!Array.isArray(entries)) continue;
      entries.forEach((e, j) => {
        if (isRecord(e) && typeof e["name"] === "string" && refusedLiteral(e["name"], e["value"])) {
          add(
            [...at, list, j, "value"],
            `is a literal value for the credential-named ${list} field ${JSON.stringify(e["name"])}`,
          );
        }
      });
    }
    // Everything under a credential-named key counts: `{"tokens": ["…"]}`, `{"credentials": {"pass": "…"}}`,
    // numbers too (`"password": 123456`) unless the key names an amount (`max_tokens: 100`).
    walkJsonKeys(step["json"], [...at, "json"], (key, v, p) => {
      const kind = credentialNameKind(key);
      if (kind === "none") return;
      walkLiterals(
        v,
        p,
        (lp, value) => {
          if (kind === "credential" || couldBeCredential(value))
            add(lp, `is a literal value under the credential-named key ${JSON.stringify(key)}`);
        },
        !namesQuantity(key),
      );
    });
  });
  return [...issues.values()];
}
