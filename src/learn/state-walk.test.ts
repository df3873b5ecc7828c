/** The walk in time order: a write is judged only by a read that started after its answer ended. */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, list, T0 } from "../../test/support/learn-specs.js";

describe("order of overlapping records", () => {
  const A = { id: 1, title: "A" };
  const B = { id: 1, title: "B" };
  const patch: RecordSpec = {
    method: "PATCH",
    path: "/api/things/1",
    status: 200,
    req: { title: "B" },
    res: B,
    time: T0 + 1000,
    duration: 800,
  };
  const item = (res: unknown, time: number): RecordSpec => ({
    path: "/api/things/1",
    status: 200,
    res,
    time,
  });

  it("does not judge a write by a read that started before its answer ended (it may show the old state)", () => {
    const { coverage } = learnSpecs([
      { ...list([A]), time: T0 },
      { ...item(A, T0), time: T0 + 1 },
      patch,
      item(A, T0 + 1200),
      item(B, T0 + 3000),
    ]);
    expect(coverage.writes.withheld).toEqual([]);
    expect(coverage.writes.served.map((w) => w.tool_name)).toEqual(["patch_things_by_id"]);
  });

  it("does not confirm a write by a read that overlapped it", () => {
    const { coverage } = learnSpecs([{ ...list([A]), time: T0 }, patch, item(B, T0 + 1200)]);
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason])).toEqual([
      ["patch_things_by_id", "not_read_back"],
    ]);
  });

  it("confirms a request step's write by the read of a later request step, whatever its recorded duration", () => {
    // Request steps run one after another, each awaiting its answer: the browser's timing of a 204 or a
    // loaded machine may end the write's record after the next step's read started (a real capture did).
    const step = (spec: RecordSpec, stepId: string): RecordSpec => ({
      ...spec,
      initiator: "request-step",
      stepId,
    });
    const { coverage } = learnSpecs([
      { ...list([A]), time: T0 },
      step(patch, "patch"),
      step(item(B, T0 + 1200), "read-patch"),
    ]);
    expect(coverage.writes.withheld).toEqual([]);
    expect(coverage.writes.served.map((w) => w.tool_name)).toEqual(["patch_things_by_id"]);
  });

  it("falls back to record order when the records have no times", () => {
    const untimed = [list([A]), { ...patch, time: null }, item(B, 0)].map((s) => ({ ...s, time: null }));
    expect(learnSpecs(untimed).coverage.writes.served.map((w) => w.tool_name)).toEqual([
      "patch_things_by_id",
    ]);
  });
});

describe("item reads with a query", () => {
  it("never write the shape they show back into the state (a format, a projection): they are replayed", () => {
    const file = { id: 1, title: "A", content: "plain text" };
    const { model, seed } = learnSpecs([
      list([file]),
      { path: "/api/things/1", status: 200, res: file },
      { path: "/api/things/1?format=base64", status: 200, res: { ...file, content: "cGxhaW4gdGV4dA==" } },
    ]);
    expect(seed.collections["things"]).toEqual([file]);
    expect(model.replays.map((r) => r.path_and_query)).toEqual(["/api/things/1?format=base64"]);
  });
});
