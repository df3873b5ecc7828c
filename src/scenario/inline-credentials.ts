/**
 * Inline credentials are refused: a literal under a credential-named key
 * (header, query or form name, JSON key at any depth and anything below it, a fill target such as
 * `label=Password`) or a value shaped like a credential anywhere in the steps.
 * The message says to declare a secret and reference it.
 */
import type { Issue } from "../errors/user-error.js";
import { isRecord, makeIssue } from "./document-issue.js";
import { formatPath, type PathSegment } from "./field-path.js";
import { isSecretRef } from "./secret-rules.js";

const CREDENTIAL_WORD = /password|passwd|secret|token|apikey|authorization|cookie|credential|bearer/;
const DECLARE = 'declare a secret in "secrets" and reference it as { "secret": "<id>" }';

/** True when a key or label names a credential (password, token, api key, cookie, …). */
export function isCredentialName(name: string): boolean {
  return CREDENTIAL_WORD.test(name.toLowerCase().replace(/[^a-z0-9]/g, ""));
}

/** Describes a value shaped like a credential (`Bearer …`, `Basic …`, a JWT), or undefined. */
export function credentialShape(text: string): string | undefined {
  if (/^\s*bearer\s+\S+\s*$/i.test(text)) return 'a "Bearer …" value';
  if (/^\s*basic\s+[A-Za-z0-9+/]{4,}={0,2}\s*$/i.test(text)) return 'a "Basic …" value';
  if (hasJwt(text)) return "a JSON Web Token";
  return undefined;
}

/**
 * True when `text` holds `eyJ…(4+).…(2+).` (a JWT's header and payload): the
 * runs of base64url characters and dots are split into segments, so a long
 * string costs linear time where a backtracking regex would cost quadratic.
 */
function hasJwt(text: string): boolean {
  for (const run of text.match(/[A-Za-z0-9_.-]+/g) ?? []) {
    const segs = run.split(".");
    for (let i = 0; i + 2 < segs.length; i++) {
      const seg = segs[i] ?? "";
      const at = seg.indexOf("eyJ");
      if (at !== -1 && seg.length - at >= 7 && (segs[i + 1] ?? "").length >= 2) return true;
    }
  }
  return false;
}

function walkStrings(v: unknown, at: PathSegment[], visit: (s: string, at: PathSegment[]) => void): void {
  if (typeof v === "string") visit(v, at);
  else if (Array.isArray(v))
    v.forEach((x, i) => {
      walkStrings(x, [...at, i], visit);
    });
  else if (isRecord(v)) for (const [k, x] of Object.entries(v)) walkStrings(x, [...at, k], visit);
}

/** Visits every non-empty literal string in `v`, leaving secret references alone. */
function walkLiterals(v: unknown, at: PathSegment[], visit: (at: PathSegment[]) => void): void {
  if (typeof v === "string") {
    if (v !== "") visit(at);
  } else if (Array.isArray(v))
    v.forEach((x, i) => {
      walkLiterals(x, [...at, i], visit);
    });
  else if (isRecord(v) && !isSecretRef(v))
    for (const [k, x] of Object.entries(v)) walkLiterals(x, [...at, k], visit);
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
  else if (isRecord(v) && !isSecretRef(v)) {
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
      if (typeof target === "string" && isCredentialName(target.replace(/^[a-z]+=/, ""))) {
        add([...at, "value"], `is a literal value for the credential-named target ${JSON.stringify(target)}`);
      }
    }
    if (step["action"] === "navigate" && typeof step["path"] === "string" && step["path"].includes("?")) {
      const query = step["path"].slice(step["path"].indexOf("?") + 1).split("#")[0] ?? "";
      for (const [name, value] of new URLSearchParams(query)) {
        if (value !== "" && isCredentialName(name)) {
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
        if (literal(v) && isCredentialName(name)) {
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
        if (
          isRecord(e) &&
          typeof e["name"] === "string" &&
          literal(e["value"]) &&
          isCredentialName(e["name"])
        ) {
          add(
            [...at, list, j, "value"],
            `is a literal value for the credential-named ${list} field ${JSON.stringify(e["name"])}`,
          );
        }
      });
    }
    // Everything under a credential-named key counts: `{"tokens": ["…"]}`, `{"credentials": {"pass": "…"}}`.
    walkJsonKeys(step["json"], [...at, "json"], (key, v, p) => {
      if (!isCredentialName(key)) return;
      walkLiterals(v, p, (lp) =>
        add(lp, `is a literal value under the credential-named key ${JSON.stringify(key)}`),
      );
    });
  });
  return [...issues.values()];
}
