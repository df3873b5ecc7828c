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
    expect(explainRule({ kind: "copy", from: "content", pointer: "/content/rendered" })).toBe(
      "a copy of /content/rendered",
    );
    expect(explainRule({ kind: "increment", step: 1 })).toBe("the old value plus 1");
    expect(explainRule({ kind: "redacted", marker: "[REDACTED:field:password]" })).toBe(
      "[REDACTED:field:password], as the recording redacted it (the value is never known)",
    );
    expect(explainRule({ kind: "clock", format: "iso", layout: "YYYY-MM-DDTHH:mm:ss", offset_min: 60 })).toBe(
      "the episode clock, as an ISO 8601 time (YYYY-MM-DDTHH:mm:ss) at UTC+01:00",
    );
    expect(explainRule({ kind: "clock", format: "date" })).toBe("the episode clock, as a date (YYYY-MM-DD)");
    expect(explainRule({ kind: "id_sequence", start: 8, step: 1, sequence: "categories" })).toBe(
      "the next integer id of the categories sequence (from 8, step 1), after the highest ever seen",
    );
  });

  it("explains rules built of parts", () => {
    expect(
      explainRule({
        kind: "format",
        parts: [{ text: "<p>" }, { request: "/content" }, { text: "</p>" }],
        otherwise: { kind: "keep" },
      }),
    ).toBe(`"<p>" + the request's /content + "</p>", or kept as it was when the request has none`);
    expect(
      explainRule({
        kind: "format",
        parts: [{ text: "/tag/" }, { entity: "/name", transform: "slug" }, { param: "id" }],
        otherwise: { kind: "omit" },
      }),
    ).toBe(`"/tag/" + the slug of the entity's /name + the path parameter {id}`);
    expect(
      explainRule({
        kind: "object",
        fields: [
          { field: "raw", rule: { kind: "keep" } },
          { field: "links", rule: { kind: "array", items: [{ kind: "constant", value: 1 }] } },
        ],
      }),
    ).toBe("an object of raw: kept as it was; links: a list of 1: [0] always 1");
  });
});
