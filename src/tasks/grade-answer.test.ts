import { describe, expect, it } from "vitest";
import { gradeAnswer, normalizeAnswer, numbersIn } from "./grade-answer.js";

describe("normalizeAnswer", () => {
  it("forgives case, spacing, surrounding quotes and emphasis, and a final period", () => {
    expect(normalizeAnswer("  “Oat  Milk.”  ")).toBe("oat milk");
    expect(normalizeAnswer("**Yes**!")).toBe("yes");
    expect(normalizeAnswer("'done'")).toBe("done");
  });
});

describe("gradeAnswer", () => {
  const exact = { kind: "exact" as const, value: "yes", accept: ["true"] };

  it("accepts nothing-to-answer tasks whatever was said", () => {
    expect(gradeAnswer(null, "anything")).toEqual([]);
    expect(gradeAnswer(null, null)).toEqual([]);
  });

  it("exact: the value or an accepted spelling, normalised", () => {
    expect(gradeAnswer(exact, "Yes.")).toEqual([]);
    expect(gradeAnswer(exact, "TRUE")).toEqual([]);
    expect(gradeAnswer(exact, "No")).toEqual(["the answer was “No”; expected “yes”"]);
    expect(gradeAnswer(exact, "yes, it is done")).toEqual([
      "the answer was “yes, it is done”; expected “yes”",
    ]);
    expect(gradeAnswer(exact, "   ")).toEqual(["no answer was given; expected “yes”"]);
  });

  it("numeric: exactly one number, and it is the expected one", () => {
    const n = { kind: "numeric" as const, value: 4 };
    expect(gradeAnswer(n, "4")).toEqual([]);
    expect(gradeAnswer(n, "There are 4 items.")).toEqual([]);
    expect(gradeAnswer(n, "4 (four) — 4")).toEqual([]);
    expect(gradeAnswer(n, "5")).toEqual(["the answer was 5; expected 4"]);
    expect(gradeAnswer(n, "4 of 6")).toEqual([
      "the answer “4 of 6” gives several numbers (4, 6); expected 4 alone",
    ]);
    expect(gradeAnswer(n, "four")).toEqual(["the answer “four” holds no number; expected 4"]);
    expect(numbersIn("1,234 and -2.5")).toEqual([1234, -2.5]);
  });

  it("must_include: every value, and no excluded one (a value inside an expected one is not counted)", () => {
    const m = {
      kind: "must_include" as const,
      values: ["Oat milk", "Renew passport"],
      must_exclude: ["Milk", "Call the plumber"],
    };
    expect(gradeAnswer(m, "Oat milk\nRenew passport")).toEqual([]);
    expect(gradeAnswer(m, "- oat milk, - RENEW PASSPORT.")).toEqual([]);
    expect(gradeAnswer(m, "Oat milk\nCall the plumber\nMilk")).toEqual([
      "the answer lacks “Renew passport”",
      "the answer also names “Milk”, “Call the plumber”, which do not belong",
    ]);
  });
});
