/** Replays: different answers to the same request are served in order. */
import { describe, expect, it } from "vitest";
import { learnSpecs } from "../../test/support/learn-specs.js";

describe("robustness", () => {
  it("replays different answers to the same request in order", () => {
    const { model } = learnSpecs([
      { path: "/api/stats", status: 200, res: { n: 1 } },
      { path: "/api/stats", status: 200, res: { n: 2 } },
    ]);
    expect(model.replays[0]!.responses.map((r) => r.body)).toEqual([
      { encoding: "json", value: { n: 1 } },
      { encoding: "json", value: { n: 2 } },
    ]);
  });
});
