/** Batch updates at the list path (`PATCH /api/things {keys, data}`), confirmed entity by entity. */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, list } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const thing = (id: number, status: string) => ({ id, title: `T${id}`, status });
const batch = (keys: number[], data: unknown, answer: unknown): RecordSpec => ({
  method: "PATCH",
  path: "/api/things",
  status: 200,
  req: { keys, data },
  res: answer,
});

describe("batch updates", () => {
  it("applies the request's fields to every entity its keys name, confirmed by each one's read-back", () => {
    const specs: RecordSpec[] = [
      list([thing(1, "draft"), thing(2, "draft"), thing(3, "draft")]),
      batch([1, 2], { status: "done" }, { data: [thing(1, "done"), thing(2, "done")] }),
      list([thing(1, "done"), thing(2, "done"), thing(3, "draft")]),
    ];
    const { model, seed, coverage } = learnSpecs(specs);
    expect(coverage.writes.withheld).toEqual([]);
    const rule = model.write_rules.find((r) => r.tool_name === "patch_things")!;
    expect([rule.batch, rule.response, rule.fields.find((f) => f.field === "status")!.rule]).toEqual([
      { keys: "keys", data: "data" },
      { kind: "wrapped", key: "data" },
      { kind: "from_request", pointer: "/data/status", otherwise: { kind: "keep" } },
    ]);
    const ep = createEpisode(model, seed, { episodeId: "b" });
    const send = (method: string, value: unknown) =>
      handleRequest(model, ep, {
        method,
        path: "/api/things",
        query: [],
        headers: {},
        body: value === null ? null : { kind: "json", value },
      });
    const res = send("PATCH", { keys: [3, 1], data: { status: "archived" } });
    expect([res.status, res.body]).toEqual([
      200,
      { kind: "json", value: { data: [thing(3, "archived"), thing(1, "archived")] } },
    ]);
    expect(send("GET", null).body).toEqual({
      kind: "json",
      value: [thing(1, "archived"), thing(2, "done"), thing(3, "archived")],
    });
    // An id the state lacks: the twin writes nothing (the recording never showed the app's answer).
    expect(send("PATCH", { keys: [2, 9], data: { status: "x" } }).status).toBe(404);
    expect(send("GET", null).body).toEqual({
      kind: "json",
      value: [thing(1, "archived"), thing(2, "done"), thing(3, "archived")],
    });
  });

  it("is withheld with the reason when one entity's read-back disagrees (the app kept only some)", () => {
    const { coverage } = learnSpecs([
      list([thing(1, "draft"), thing(2, "draft")]),
      batch([1, 2], { status: "done" }, { data: [thing(1, "done"), thing(2, "done")] }),
      list([thing(1, "done"), thing(2, "draft")]),
    ]);
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason, w.hint, w.closable])).toEqual([
      [
        "patch_things",
        "read_back_disagrees",
        'The read after PATCH /api/things (records[2]) shows a different "status" than the write implied, and no other write set it in between: the app stored another value than the one it was sent or answered, which no rule of the twin reproduces, so no recording can close this gap: the write stays withheld',
        false,
      ],
    ]);
  });
});
