import { describe, expect, it } from "vitest";
import { DocumentError, UserError } from "../errors/user-error.js";
import { explainLatency, parseFaultPlan, parseLatencyFlag } from "./fault-plan.js";
import { drawDelay } from "./test-double.js";

describe("parseLatencyFlag", () => {
  it("reads a fixed delay, a range and a log-normal shape", () => {
    expect(parseLatencyFlag("200")).toEqual({ fixed_ms: 200 });
    expect(parseLatencyFlag("100-300")).toEqual({ min_ms: 100, max_ms: 300 });
    expect(parseLatencyFlag("lognormal:200:0.5")).toEqual({ median_ms: 200, sigma: 0.5 });
  });

  it("refuses anything else, naming the three forms", () => {
    for (const bad of ["fast", "300-100", "-5", "700000"]) {
      expect(() => parseLatencyFlag(bad)).toThrow(UserError);
    }
    expect(() => parseLatencyFlag("fast")).toThrow(
      '--latency "fast" is not a delay: give milliseconds (200), a range (100-300) or lognormal:<median ms>:<sigma> (lognormal:200:0.5), each at most 600000 ms',
    );
  });
});

describe("parseFaultPlan", () => {
  it("reads a plan and defaults routes to none", () => {
    expect(parseFaultPlan({ schema_version: 1, latency: { fixed_ms: 5 } }, "f.json")).toEqual({
      schema_version: 1,
      latency: { fixed_ms: 5 },
      routes: [],
    });
  });

  it("reports every problem of the document at once, each naming the file and the field", () => {
    let error: unknown;
    try {
      parseFaultPlan(
        {
          schema_version: 1,
          routes: [
            { route: "items", fault: { kind: "status", status: 200 } },
            { route: "GET /x", fault: { kind: "crash" } },
            { route: "GET /y" },
          ],
        },
        "f.json",
      );
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(DocumentError);
    const paths = (error as DocumentError).issues.map((i) => i.path);
    expect(paths).toEqual(
      expect.arrayContaining(["routes[0].fault.status", "routes[1].fault.kind", "routes[2]"]),
    );
    for (const i of (error as DocumentError).issues) expect(i.message.startsWith("f.json")).toBe(true);
  });

  it("refuses a newer schema_version than it reads", () => {
    expect(() => parseFaultPlan({ schema_version: 2 }, "f.json")).toThrow(
      "f.json: schema_version 2 is newer than this apptwin reads (1); upgrade apptwin to read it",
    );
  });
});

describe("drawDelay", () => {
  const prng = (): [number, number, number, number] => [1, 2, 3, 4];

  it("gives a fixed delay exactly and a uniform one within its bounds", () => {
    expect(drawDelay({ fixed_ms: 42 }, prng())).toBe(42);
    const s = prng();
    for (let i = 0; i < 200; i++) {
      const d = drawDelay({ min_ms: 10, max_ms: 20 }, s);
      expect(d).toBeGreaterThanOrEqual(10);
      expect(d).toBeLessThanOrEqual(20);
    }
  });

  it("draws a log-normal delay around its median, never below its floor", () => {
    const s = prng();
    const draws = Array.from({ length: 400 }, () => drawDelay({ median_ms: 100, sigma: 0.5, min_ms: 20 }, s));
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(20);
    const sorted = [...draws].sort((a, b) => a - b);
    expect(sorted[200]).toBeGreaterThan(70);
    expect(sorted[200]).toBeLessThan(140);
  });

  it("explains each shape in one phrase", () => {
    expect(explainLatency({ fixed_ms: 5 })).toBe("5 ms");
    expect(explainLatency({ min_ms: 1, max_ms: 9 })).toBe("1-9 ms (uniform)");
    expect(explainLatency({ median_ms: 200, sigma: 0.4 })).toBe("log-normal around 200 ms (sigma 0.4)");
  });
});
