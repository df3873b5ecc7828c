/**
 * Origin confinement read from the file: the start URL is a plain http(s) URL
 * without credentials, allowed origins are bare origins, and every path a step
 * names resolves back onto the start origin (`//evil.example/x`, `/\evil` do not).
 */
import { isRecord, type PathSegment } from "../errors/document-issue.js";
import type { Issue } from "../errors/user-error.js";
import { makeIssue } from "./document-issue.js";

const FALLBACK_START = "http://start-url.invalid/";

function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** The start URL to resolve paths against: the file's, when it is a valid http(s) URL. */
export function startUrlOf(raw: unknown): string {
  const s = isRecord(raw) ? raw["start_url"] : undefined;
  const u = typeof s === "string" ? parseUrl(s) : undefined;
  return u && (u.protocol === "http:" || u.protocol === "https:") ? u.href : FALLBACK_START;
}

/** Checks `start_url` and `allowed_origins`. */
export function checkOrigins(file: string, raw: Record<string, unknown>): Issue[] {
  const issues: Issue[] = [];
  const start = raw["start_url"];
  if (typeof start === "string" && /^https?:\/\//.test(start)) {
    const u = parseUrl(start);
    if (!u)
      issues.push(
        makeIssue(file, "invalid_url", ["start_url"], `is not a valid URL (got ${JSON.stringify(start)})`),
      );
    else if (u.username || u.password) {
      issues.push(
        makeIssue(
          file,
          "inline_credential",
          ["start_url"],
          'holds a user name or password; remove it, and sign in with a fill step that uses { "secret": "<id>" }',
        ),
      );
    }
  }
  const allowed = raw["allowed_origins"];
  if (Array.isArray(allowed)) {
    allowed.forEach((o, i) => {
      if (typeof o !== "string") return;
      const u = parseUrl(o);
      const ok = u && (u.protocol === "http:" || u.protocol === "https:") && !u.username && !u.password;
      if (!ok || u.origin !== o.replace(/\/$/, "")) {
        issues.push(
          makeIssue(
            file,
            "invalid_origin",
            ["allowed_origins", i],
            `must be an origin such as "https://cdn.example.com" (scheme, host and optional port, no path) (got ${JSON.stringify(o)})`,
          ),
        );
      }
    });
  }
  return issues;
}

/**
 * Checks a path a step sends to the start origin. A request path may hold no
 * `?` or `#` (query entries go in `query`); a navigate path may.
 */
export function checkStepPath(
  file: string,
  path: readonly PathSegment[],
  value: string,
  startUrl: string,
  kind: "request" | "navigate",
): Issue[] {
  const got = `(got ${JSON.stringify(value)})`;
  if (!value.startsWith("/")) return [makeIssue(file, "invalid_path", path, `must start with "/" ${got}`)];
  if (kind === "request" && /[?#]/.test(value)) {
    return [
      makeIssue(
        file,
        "path_query",
        path,
        `must not hold "?" or "#"; put query parameters in "query": [{ "name": …, "value": … }] ${got}`,
      ),
    ];
  }
  if ([...value].some((ch) => ch.charCodeAt(0) <= 0x20 || ch.charCodeAt(0) === 0x7f)) {
    return [
      makeIssue(
        file,
        "invalid_path",
        path,
        `must not hold spaces or control characters (percent-encode them, e.g. %20) ${got}`,
      ),
    ];
  }
  const start = new URL(startUrl);
  const resolved = parseUrl(new URL(value, start).href);
  if (!resolved || resolved.origin !== start.origin) {
    const where = resolved ? resolved.origin : "an unparsable URL";
    return [
      makeIssue(
        file,
        "path_other_origin",
        path,
        `resolves to ${where}, not the start origin ${start.origin}; a step only reaches the start origin ${got}`,
      ),
    ];
  }
  return [];
}
