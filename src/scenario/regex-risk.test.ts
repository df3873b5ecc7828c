import { describe, expect, it } from "vitest";
import { regexRisk } from "./regex-risk.js";

describe("regexRisk", () => {
  it("refuses nested quantifiers and says which group", () => {
    for (const p of [
      "(a+)+$",
      "(\\w+)*x",
      "^(?:\\d+)*$",
      "(a*)*",
      "([a-z]+)+$",
      "((a+))+",
      "(x+x+)+y",
      "(.*a){10}",
      "(\\w+/\\w+)*$",
      "(.+/)*x",
      "(a|b?)+",
    ])
      expect(regexRisk(p), p).toMatchObject({ reason: expect.stringContaining("nested quantifiers") });
    expect(regexRisk("(a+)+$")).toEqual({
      reason: 'the group "(a+)", repeated by "+", holds a quantifier of its own (nested quantifiers)',
      suggestion: 'use one quantifier per repeated part, e.g. "a+" for "(a+)+" or "\\w*x" for "(\\w+)*x"',
    });
  });

  it("refuses a repeated group whose alternatives can match the same text", () => {
    for (const p of ["(a|a)*$", "(\\w|\\d)+", "(a|aa)*", "(.|x)*", "(?:[a-c]|b)+", "((a|a))*", "(/(a|a))*"])
      expect(regexRisk(p), p).toMatchObject({ reason: expect.stringContaining("can match the same text") });
    expect(regexRisk("(a|a)*$")).toEqual({
      reason: 'the alternatives of the group "(a|a)", which is repeated, can match the same text ("a")',
      suggestion:
        'make the alternatives exclusive or use a character class, e.g. "a*" for "(a|a)*" or "[ab]*" for "(a|b)*"',
    });
  });

  it("passes ordinary URL patterns, separated repetitions and disjoint alternatives", () => {
    for (const p of [
      "^/items(/\\d+)?$",
      "^/boards/[^/]+/cards$",
      "\\?page=\\d+",
      "^/items",
      "^/(?:[^/]+/)*cards$",
      "^/a(/\\d+)*$",
      "^/items\\?(page=\\d+&?)*$",
      "(foo|bar)*",
      "(ab|ac)*",
      "(\\d|[a-z])+",
      "(a?b)+",
      "[(a+)+]",
      "\\(a+\\)+",
      "(a){2}",
      "a+b+",
      "(?=a+)+x|y",
      "^/items/(\\d+)$",
      "#/(list|board)/\\d+",
    ])
      expect(regexRisk(p), p).toBeUndefined();
  });

  it("leaves patterns too large to judge to capture's time bound instead of overflowing or stalling", () => {
    expect(regexRisk(`${"(".repeat(10_000)}a${")".repeat(10_000)}`)).toBeUndefined();
    const many = `(${Array.from({ length: 2000 }, (_, i) => `x${i.toString(36)}`).join("|")})*`;
    expect(regexRisk(many)).toBeUndefined();
    expect(regexRisk(`${"(a)".repeat(20_000)}(a+)+`)).toMatchObject({
      reason: expect.stringContaining('"(a+)"'),
    });
  });
});
