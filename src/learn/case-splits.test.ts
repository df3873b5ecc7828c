/**
 * A write served for the kind of request the recording explains and refused for the kind it does not: creates sent
 * without `address` are explained, the one sent with it answers a `geo` no rule builds (case-splits.ts).
 */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, list, twinRequest } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const a = { id: 1, title: "A" };
const create = (req: Record<string, unknown>, res: Record<string, unknown>): RecordSpec => ({
  method: "POST",
  path: "/api/things",
  status: 201,
  req,
  res,
});
const read = (e: { id: number } & Record<string, unknown>): RecordSpec => ({
  path: `/api/things/${e.id}`,
  status: 200,
  res: e,
});
const geocoded = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  title: "D",
  address: "1 Main St",
  geo: { lat: 39.78, lng: -89.65 },
  ...extra,
});

describe("a kind of request split off a write", () => {
  const specs = (sent: Record<string, unknown> = {}) => [
    list([a]),
    create({ title: "B" }, { id: 2, title: "B" }),
    read({ id: 2, title: "B" }),
    create({ title: "C" }, { id: 3, title: "C" }),
    read({ id: 3, title: "C" }),
    create({ title: "D", address: "1 Main St", ...sent }, geocoded(4, sent)),
    read(geocoded(4, sent)),
  ];

  it("serves the requests without the field and answers one sending it with an explained miss", () => {
    const { model, seed, coverage } = learnSpecs(specs());
    expect(coverage.writes.withheld).toEqual([]);
    const rule = model.write_rules.find((r) => r.tool_name === "post_things")!;
    expect(rule.withheld_sent?.map((c) => [c.pointer, c.reason, c.recorded])).toEqual([
      ["/address", "unexplained_field", 1],
    ]);
    expect(rule.explain).toContain(
      "A request sending /address is an explained miss: the 1 recorded write that sent it stayed unexplained (unexplained_field), the rule is learned from the others.",
    );
    const ep = createEpisode(model, seed, { episodeId: "p" });
    const made = handleRequest(model, ep, twinRequest("POST", "/api/things", { title: "E" }));
    expect([made.status, made.body]).toEqual([201, { kind: "json", value: { id: 5, title: "E" } }]);
    const refused = handleRequest(
      model,
      ep,
      twinRequest("POST", "/api/things", { title: "F", address: "2 Elm St" }),
    );
    expect(refused.status).toBe(501);
    const body = (refused.body as { value: Record<string, unknown> }).value;
    expect([body.error, body.pointer, body.message]).toEqual([
      "withheld_case",
      "/address",
      "POST /api/things sends /address: the 1 recorded POST /api/things that sent it stayed unexplained (unexplained_field), so the twin serves only requests without it and does not guess what the app does with this one.",
    ]);
    // Nothing was written by the refused request.
    const after = handleRequest(model, ep, twinRequest("GET", "/api/things"));
    expect((after.body as { value: { id: number }[] }).value.map((t) => t.id)).toEqual([1, 2, 3, 4, 5]);
  });

  it("refuses the split when two fields would each tell the kinds apart", () => {
    const { model, coverage } = learnSpecs(specs({ zone: "north" }));
    expect(coverage.writes.withheld.map((w) => w.tool_name)).toEqual(["post_things"]);
    expect(model.write_rules.find((r) => r.tool_name === "post_things")).toBeUndefined();
  });

  it("refuses the split when one write alone is left to learn from", () => {
    const { coverage } = learnSpecs([
      list([a]),
      create({ title: "B" }, { id: 2, title: "B" }),
      read({ id: 2, title: "B" }),
      create({ title: "D", address: "1 Main St" }, geocoded(3)),
      read(geocoded(3)),
    ]);
    expect(coverage.writes.withheld.map((w) => w.tool_name)).toEqual(["post_things"]);
  });
});
