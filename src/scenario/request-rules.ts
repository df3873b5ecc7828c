/**
 * The refusals of a `request` step that the schema alone cannot express:
 * headers fetch cannot set, repeated or malformed headers, bodies that do not
 * fit the method, and statuses that can never match.
 */
import { isRecord, type PathSegment } from "../errors/document-issue.js";
import type { Issue } from "../errors/user-error.js";
import { makeIssue } from "./document-issue.js";
import { checkStepPath } from "./origin-rules.js";
import { PLACEHOLDER } from "./reference-rules.js";

/** Forbidden request header names of the Fetch standard (lower case); `proxy-*` and `sec-*` too. */
export const FORBIDDEN_HEADERS: ReadonlySet<string> = new Set([
  "accept-charset",
  "accept-encoding",
  "access-control-request-headers",
  "access-control-request-method",
  "access-control-request-private-network",
  "connection",
  "content-length",
  "cookie",
  "cookie2",
  "date",
  "dnt",
  "expect",
  "host",
  "keep-alive",
  "origin",
  "referer",
  "set-cookie",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "via",
]);

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** True when fetch refuses to set the header named `name`. */
export function isForbiddenHeader(name: string): boolean {
  const n = name.toLowerCase();
  return (
    FORBIDDEN_HEADERS.has(n) ||
    n.startsWith("proxy-") ||
    n.startsWith("sec-") ||
    n.startsWith("access-control-request-")
  );
}

/**
 * What is wrong with a header name a request step would send, or undefined:
 * a CR or LF, not a token, User-Agent, or a name fetch refuses. `shown` is the
 * name as the user wrote it (with its placeholders), for the message.
 */
export function headerNameProblem(
  name: string,
  shown: string = name,
): { code: string; text: string } | undefined {
  if (/[\r\n]/.test(name))
    return { code: "header_crlf", text: "has a CR or LF in the header name; a header name is one token" };
  if (!TOKEN.test(name))
    return {
      code: "invalid_header_name",
      text: `is not a valid header name: use letters, digits and !#$%&'*+-.^_\`|~ only (got ${JSON.stringify(shown)})`,
    };
  if (name.toLowerCase() === "user-agent")
    return {
      code: "forbidden_header",
      text: "cannot be set: a request step sends the browser's own User-Agent; remove it",
    };
  if (isForbiddenHeader(name))
    return {
      code: "forbidden_header",
      text: `cannot be set: fetch refuses the header ${JSON.stringify(shown)} (forbidden: Host, Cookie, Origin, Referer, Content-Length, Sec-*, Proxy-*, …); remove it`,
    };
  return undefined;
}

function checkHeaders(file: string, at: readonly PathSegment[], headers: Record<string, unknown>): Issue[] {
  const issues: Issue[] = [];
  const seen = new Map<string, string>();
  for (const [name, value] of Object.entries(headers)) {
    const p = [...at, name];
    const lower = name.toLowerCase();
    const first = seen.get(lower);
    if (first !== undefined) {
      issues.push(
        makeIssue(
          file,
          "repeated_header",
          p,
          `repeats the header ${JSON.stringify(first)} (header names are case-insensitive); keep one`,
        ),
      );
      continue;
    }
    seen.set(lower, name);
    // JSON.parse keeps "__proto__" as a key, but the parsed record drops it silently.
    if (name === "__proto__") {
      issues.push(
        makeIssue(
          file,
          "invalid_header_name",
          p,
          "cannot be used as a header name: a parsed scenario cannot keep it; remove it",
        ),
      );
      continue;
    }
    // A {placeholder} (filled at run time from a cookie's name) is checked as the letters it stands for.
    const problem = headerNameProblem(name.replace(PLACEHOLDER, "x"), name);
    if (problem) issues.push(makeIssue(file, problem.code, p, problem.text));
    const texts = typeof value === "string" ? [value] : isRecord(value) ? [value["prefix"]] : [];
    if (texts.some((t) => typeof t === "string" && /[\r\n\0]/.test(t))) {
      issues.push(
        makeIssue(file, "header_crlf", p, "holds a CR, LF or NUL character; a header value is one line"),
      );
    }
  }
  return issues;
}

/** Checks one request step (raw data) at `steps[i]`. */
export function checkRequestStep(
  file: string,
  step: Record<string, unknown>,
  i: number,
  startUrl: string,
): Issue[] {
  const at: PathSegment[] = ["steps", i];
  const issues: Issue[] = [];
  if (typeof step["path"] === "string")
    issues.push(...checkStepPath(file, [...at, "path"], step["path"], startUrl, "request"));
  if (isRecord(step["headers"]))
    for (const issue of checkHeaders(file, [...at, "headers"], step["headers"])) issues.push(issue);
  const method = step["method"];
  if (step["json"] !== undefined && step["form"] !== undefined) {
    issues.push(
      makeIssue(
        file,
        "body_conflict",
        at,
        'has both "json" and "form"; a request step sends one body at most',
      ),
    );
  } else if (method === "GET" || method === "HEAD") {
    for (const body of ["json", "form"] as const) {
      if (step[body] !== undefined) {
        issues.push(
          makeIssue(
            file,
            "body_not_allowed",
            [...at, body],
            `is not allowed on a ${method} request: a ${method} request has no body`,
          ),
        );
      }
    }
  }
  const statuses = step["expected_status"];
  if (Array.isArray(statuses)) {
    statuses.forEach((s, j) => {
      if (typeof s === "number" && s >= 300 && s <= 399) {
        issues.push(
          makeIssue(
            file,
            "status_never_matches",
            [...at, "expected_status", j],
            `is ${s}, which can never match: request steps do not follow redirects (expect the status the server answers, or leave expected_status out to accept any 2xx)`,
          ),
        );
      }
    });
  }
  return issues;
}
