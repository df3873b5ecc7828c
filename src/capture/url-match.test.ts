import { describe, expect, it } from "vitest";
import type { EvidenceRecord } from "../evidence/evidence-schema.js";
import {
  MAX_MATCHED_URL_CHARS,
  matchesExpectation,
  parseRequestExpectation,
  pathPatternTest,
  pathQueryHash,
} from "./url-match.js";

const app = "http://127.0.0.1:4010";
function rec(method: string, url: string, status: number): EvidenceRecord {
  return {
    seq: 0,
    step_id: null,
    started_at: null,
    duration_ms: null,
    resource_type: "fetch",
    initiator: "page",
    request: { method, url, headers: [], body: null },
    response: { status, status_text: "", headers: [], body: null, redirect_to: null },
    failure: null,
    origin: null,
  };
}

describe("url matching", () => {
  it("matches patterns on path, query and hash only", () => {
    expect(pathQueryHash("http://h:1/items?done=true#top")).toBe("/items?done=true#top");
  });

  it("matches expect-request by method, exact path or prefix, and status or class", () => {
    const exact = parseRequestExpectation("post /api/items", 201);
    expect(exact).toEqual({ method: "POST", path: "/api/items", prefix: false, status: 201 });
    expect(matchesExpectation(exact, rec("POST", `${app}/api/items`, 201), app)).toBe(true);
    expect(matchesExpectation(exact, rec("POST", `${app}/api/items`, 422), app)).toBe(false);
    expect(matchesExpectation(exact, rec("POST", `${app}/api/items/1`, 201), app)).toBe(false);
    expect(matchesExpectation(exact, rec("POST", "http://other.test/api/items", 201), app)).toBe(false);
    const prefix = parseRequestExpectation("DELETE /api/items/*", "2xx");
    expect(matchesExpectation(prefix, rec("DELETE", `${app}/api/items/7`, 204), app)).toBe(true);
    expect(matchesExpectation(prefix, rec("DELETE", `${app}/api/items/7`, 404), app)).toBe(false);
  });

  it("tests a pattern on path, query and hash, at most 2048 characters of it", () => {
    const test = pathPatternTest("^/items\\?done=true#top$");
    expect(test("http://h:1/items?done=true#top")).toBe(true);
    expect(test("http://h:1/other")).toBe(false);
    const tail = pathPatternTest("b$");
    expect(tail(`http://h/${"a".repeat(MAX_MATCHED_URL_CHARS)}b`)).toBe(false);
    expect(tail(`http://h/${"a".repeat(MAX_MATCHED_URL_CHARS - 3)}b`)).toBe(true);
  });

  it("runs a test again when it timed out having spent less CPU than the budget (a starved process, not backtracking)", () => {
    const path = `/${"a".repeat(40)}!`;
    const spentMs: number[] = [];
    // The first slice is reported as starved (10 ms of CPU), the second as spending the rest.
    const cpuUsage = (since?: NodeJS.CpuUsage): NodeJS.CpuUsage => {
      if (!since) return { user: 0, system: 0 };
      const ms = spentMs.length === 0 ? 10 : 990;
      spentMs.push(ms);
      return { user: ms * 1000, system: 0 };
    };
    expect(() => pathPatternTest("^/(a+)+$", cpuUsage)(`http://h${path}`)).toThrow("took more than 1000 ms");
    expect(spentMs).toEqual([10, 990]);
  });

  it("stops a pattern that backtracks without end instead of hanging the capture", () => {
    const path = `/${"a".repeat(40)}!`;
    expect(() => pathPatternTest("^/(a+)+$")(`http://h${path}`)).toThrow(
      `the pattern /^/(a+)+$/ took more than 1000 ms on ${path}; it backtracks without end (nested quantifiers such as (a+)+), so simplify it`,
    );
  });
});
