/** The clock as the app writes it: ISO layouts, local times at the app's offset, dates; and where it is refused. */
import { describe, expect, it } from "vitest";
import { fieldsOf, learnSpecs, list, T0 } from "../../test/support/learn-specs.js";
import { formatIsoTime } from "../util/time-layout.js";

/** A create of thing 2 at record 1 (T0 + 1 s) and a second one at record 3, stamped by `stamp(time of the record)`. */
const creates = (stamp: (ms: number) => unknown) => {
  const made = (id: number, at: number) => ({ id, title: `T${id}`, at: stamp(T0 + at * 1000) });
  return [
    list([{ id: 1, title: "A", at: stamp(T0 - 86_400_000) }]),
    { method: "POST", path: "/api/things", status: 201, req: { title: "T2" }, res: made(2, 1) },
    { method: "POST", path: "/api/things", status: 201, req: { title: "T3" }, res: made(3, 2) },
    list([{ id: 1, title: "A", at: stamp(T0 - 86_400_000) }, made(2, 1), made(3, 2)]),
  ];
};

describe("clock rules in the app's own layout", () => {
  it("learns a local time without a zone (2026-03-01T11:00:01) at the app's offset", () => {
    const fields = fieldsOf(
      creates((ms) => formatIsoTime(ms, "YYYY-MM-DDTHH:mm:ss", 60)),
      "post_things",
    );
    expect(fields.at).toEqual({
      kind: "clock",
      format: "iso",
      layout: "YYYY-MM-DDTHH:mm:ss",
      offset_min: 60,
    });
  });

  it("learns seconds without milliseconds, microseconds, and a stated offset", () => {
    expect(
      fieldsOf(
        creates((ms) => formatIsoTime(ms, "YYYY-MM-DDTHH:mm:ssZ")),
        "post_things",
      ).at,
    ).toEqual({
      kind: "clock",
      format: "iso",
      layout: "YYYY-MM-DDTHH:mm:ssZ",
    });
    expect(
      fieldsOf(
        creates((ms) => formatIsoTime(ms, "YYYY-MM-DD HH:mm:ss.SSSSSS+HH:MM", -300)),
        "post_things",
      ).at,
    ).toEqual({ kind: "clock", format: "iso", layout: "YYYY-MM-DD HH:mm:ss.SSSSSS+HH:MM", offset_min: -300 });
  });

  it("learns a date that is the day of the request as the clock's date", () => {
    const fields = fieldsOf(
      creates((ms) => new Date(ms).toISOString().slice(0, 10)),
      "post_things",
    );
    expect(fields.at).toEqual({ kind: "clock", format: "date" });
  });

  it("refuses a clock when the local times disagree on the offset (no one rule holds)", () => {
    const made = (id: number, offset: number) => ({
      id,
      title: `T${id}`,
      at: formatIsoTime(T0 + (id - 1) * 1000, "YYYY-MM-DDTHH:mm:ss", offset),
    });
    const { coverage } = learnSpecs([
      list([{ id: 1, title: "A", at: "2026-02-28T10:00:00" }]),
      { method: "POST", path: "/api/things", status: 201, req: { title: "T2" }, res: made(2, 60) },
      { method: "POST", path: "/api/things", status: 201, req: { title: "T3" }, res: made(3, 120) },
      list([{ id: 1, title: "A", at: "2026-02-28T10:00:00" }, made(2, 60), made(3, 120)]),
    ]);
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason, w.hint])).toEqual([
      [
        "post_things",
        "conflicting_observations",
        'Observations of POST /api/things disagree on "at"; record the write again, each followed by a GET /api/things',
      ],
    ]);
  });

  it("never takes a date far from the request (a due date) for the clock", () => {
    const due = "2030-06-30";
    const made = (id: number) => ({ id, title: `T${id}`, due });
    const fields = fieldsOf(
      [
        list([{ id: 1, title: "A", due }]),
        { method: "POST", path: "/api/things", status: 201, req: { title: "T2" }, res: made(2) },
        list([{ id: 1, title: "A", due }, made(2)]),
      ],
      "post_things",
    );
    expect(fields.due).toEqual({ kind: "constant", value: due });
  });
});
