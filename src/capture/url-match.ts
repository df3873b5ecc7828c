/**
 * The small matchers steps use on URLs and records: a regex on
 * path+query+hash (so a scenario runs on any host) and the
 * `"METHOD /path"` / `"2xx"` grammar of expect-request. A scenario's regex
 * runs on at most 2048 characters and within 1 s of CPU per test (a pattern
 * such as `(a+)+$` backtracks for ever and would otherwise freeze the
 * process). The budget counts the CPU the test spent, not the wall clock: on
 * a loaded two-core machine a trivial pattern once waited more than 1 s of
 * wall time for the CPU and failed a sound step. Node's script timeout is
 * wall time, so a test that times out having spent less CPU than the budget
 * was starved, not backtracking, and runs again on what is left of the
 * budget (at most {@link MAX_PATTERN_ATTEMPTS} times).
 */
import { createContext, Script } from "node:vm";
import type { EvidenceRecord } from "../evidence/evidence-schema.js";
import { StepFailure } from "./step-failure.js";

/** The most characters of path+query+hash a scenario pattern is tested against. */
export const MAX_MATCHED_URL_CHARS = 2048;

/** The CPU time one test of a scenario pattern may take. */
export const PATTERN_BUDGET_MS = 1000;

/** How many wall-clock slices one test may take before it is stopped whatever its CPU. */
export const MAX_PATTERN_ATTEMPTS = 30;

const TEST_SCRIPT = new Script("re.test(s)");

/** The part of a URL a scenario pattern is matched against: path, query and hash. */
export function pathQueryHash(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname + u.search + u.hash;
  } catch {
    return url;
  }
}

/**
 * A bounded test of a scenario's regex on a URL's path+query+hash (cut at
 * {@link MAX_MATCHED_URL_CHARS}); throws a StepFailure when one test spends
 * more than {@link PATTERN_BUDGET_MS} of CPU.
 */
export function pathPatternTest(
  pattern: string,
  cpuUsage: (since?: NodeJS.CpuUsage) => NodeJS.CpuUsage = process.cpuUsage,
): (url: string) => boolean {
  const sandbox = createContext({ re: new RegExp(pattern), s: "" });
  return (url) => {
    const s = pathQueryHash(url).slice(0, MAX_MATCHED_URL_CHARS);
    sandbox.s = s;
    let cpuLeftMs = PATTERN_BUDGET_MS;
    for (let attempt = 1; attempt <= MAX_PATTERN_ATTEMPTS && cpuLeftMs > 0; attempt += 1) {
      const before = cpuUsage();
      try {
        return TEST_SCRIPT.runInContext(sandbox, { timeout: Math.max(1, Math.ceil(cpuLeftMs)) }) === true;
      } catch (error) {
        if ((error as { code?: string }).code !== "ERR_SCRIPT_EXECUTION_TIMEOUT") throw error;
        const spent = cpuUsage(before);
        cpuLeftMs -= (spent.user + spent.system) / 1000;
      }
    }
    throw new StepFailure(
      `the pattern /${pattern}/ took more than ${PATTERN_BUDGET_MS} ms on ${s}; it backtracks without end (nested quantifiers such as (a+)+), so simplify it`,
    );
  };
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
