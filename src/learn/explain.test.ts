/** The explain() sentence of every field-rule kind, word for word. */
import { describe, expect, it } from "vitest";
import { explainRule } from "./explain.js";

describe("write rules", () => {
  it("explains every rule kind in one sentence", () => {
    expect(explainRule({ kind: "keep" })).toBe("kept as it was");
    expect(explainRule({ kind: "copy", from: "id" })).toBe('a copy of field "id"');
    expect(explainRule({ kind: "clock", format: "epoch_s" })).toBe("the episode clock, as epoch seconds");
    expect(explainRule({ kind: "path_param", name: "board_id" })).toBe("the path parameter {board_id}");
    expect(explainRule({ kind: "uuid" })).toBe("a fresh UUID");
    expect(explainRule({ kind: "constant", value: false })).toBe("always false");
  });
});
