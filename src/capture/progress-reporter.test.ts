import { describe, expect, it } from "vitest";
import { browserEnv } from "./launch-browser.js";
import { isLiveTerminal, progressReporter } from "./progress-reporter.js";

const end = (status: "passed" | "failed" | "cancelled", error: string | null) =>
  ({
    type: "step-end",
    index: 1,
    total: 3,
    result: {
      step_id: "create",
      action: "request",
      status,
      started_at: 0,
      duration_ms: 12,
      error,
      url_before: null,
      url_after: null,
    },
  }) as const;

describe("progress output", () => {
  it("prints plain lines when not live", () => {
    const out: string[] = [];
    const report = progressReporter({ write: (t) => out.push(t), live: false });
    report({ type: "step-start", index: 1, total: 3, step_id: "create", action: "request" });
    report(end("passed", null));
    report(end("failed", "POST /api/items answered 422; expected 201"));
    report(end("cancelled", 'cancelled: step "x" failed'));
    expect(out).toEqual([
      "▶ [2/3] create (request)\n",
      "✓ [2/3] create 12 ms\n",
      "✗ [2/3] create failed after 12 ms: POST /api/items answered 422; expected 201\n",
      "- [2/3] create cancelled\n",
    ]);
  });

  it("redraws one live line on a terminal", () => {
    const out: string[] = [];
    const report = progressReporter({ write: (t) => out.push(t), live: true });
    report({ type: "step-start", index: 1, total: 3, step_id: "create", action: "request" });
    report(end("passed", null));
    expect(out).toEqual(["\r\x1b[2K▶ [2/3] create (request)", "\r\x1b[2K✓ [2/3] create 12 ms\n"]);
  });

  it("is live only on a TTY outside CI", () => {
    expect(isLiveTerminal({ isTTY: true }, {})).toBe(true);
    expect(isLiveTerminal({ isTTY: true }, { CI: "1" })).toBe(false);
    expect(isLiveTerminal({ isTTY: false }, {})).toBe(false);
  });
});

describe("browserEnv", () => {
  it("passes only the allow-list to the browser, never a secret's variable", () => {
    expect(
      browserEnv({ PATH: "/bin", HOME: "/root", ITEMS_PASSWORD: "pw", AWS_SECRET_ACCESS_KEY: "k" }),
    ).toEqual({
      PATH: "/bin",
      HOME: "/root",
    });
  });
});
