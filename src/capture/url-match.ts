/**
 * The small matchers steps use on URLs and records: a regex on
 * path+query+hash (so a scenario runs on any host) and the
 * `"METHOD /path"` / `"2xx"` grammar of expect-request.
 */
import type { EvidenceRecord } from "../evidence/evidence-schema.js";

/** The part of a URL a scenario pattern is matched against: path, query and hash. */
export function pathQueryHash(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname + u.search + u.hash;
  } catch {
    return url;
  }
}

/** A parsed expect-request: method, path (exact, or a prefix when it ended in *), status rule. */
export interface RequestExpectation {
  method: string;
  path: string;
  prefix: boolean;
  status: number | string | undefined;
}

/** Parses `"POST /api/items"` (or `"GET /api/items/*"`) with an optional status or class like `"2xx"`. */
export function parseRequestExpectation(request: string, status?: number | string): RequestExpectation {
  const [method = "", rawPath = ""] = request.trim().split(/\s+/, 2);
  const prefix = rawPath.endsWith("*");
  return { method: method.toUpperCase(), path: prefix ? rawPath.slice(0, -1) : rawPath, prefix, status };
}

/** True when a finished record is the expected request (app origin only) with an accepted status. */
export function matchesExpectation(e: RequestExpectation, r: EvidenceRecord, appOrigin: string): boolean {
  if (r.request.method.toUpperCase() !== e.method || !r.response) return false;
  let u: URL;
  try {
    u = new URL(r.request.url);
  } catch {
    return false;
  }
  if (u.origin !== appOrigin) return false;
  if (e.prefix ? !u.pathname.startsWith(e.path) : u.pathname !== e.path) return false;
  const s = r.response.status;
  if (e.status === undefined) return true;
  if (typeof e.status === "number") return s === e.status;
  return String(s)[0] === e.status[0];
}
