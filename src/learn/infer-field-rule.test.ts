/** Field rules that must not be learned from too little: no created id, no token as a constant. */
import { describe, expect, it } from "vitest";
import { learnSpecs, list } from "../../test/support/learn-specs.js";

describe("rules learned from too little", () => {
  it("never learns a created id as a constant (string ids of digits, one create)", () => {
    const { model, coverage } = learnSpecs([
      list([{ id: "1", t: "a" }]),
      { method: "POST", path: "/api/things", status: 201, req: { t: "b" }, res: { id: "2", t: "b" } },
      list([
        { id: "1", t: "a" },
        { id: "2", t: "b" },
      ]),
    ]);
    expect(model.write_rules).toEqual([]);
    expect(coverage.writes.withheld.map((w) => [w.hint, w.closable])).toEqual([
      [
        'Field "id" in POST /api/things is a string id the app assigns; the twin has rules only for integer sequences and UUIDs, so no recording can close this gap: the write stays withheld',
        false,
      ],
    ]);
  });
});

describe("generalisations that must not outrun the evidence", () => {
  it("never learns an unredacted JWT under an unusual name as a constant from one create", () => {
    const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIyIn0.c2lnbmF0dXJl";
    const made = { id: 2, title: "B", access: jwt };
    const { model, coverage } = learnSpecs([
      list([{ id: 1, title: "A", access: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.b3RoZXJzaWc" }]),
      { method: "POST", path: "/api/things", status: 201, req: { title: "B" }, res: made },
      list([{ id: 1, title: "A", access: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.b3RoZXJzaWc" }, made]),
    ]);
    expect(model.write_rules).toEqual([]);
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason, w.closable])).toEqual([
      ["post_things", "unexplained_field", false],
    ]);
  });
});
