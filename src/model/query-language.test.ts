import { describe, expect, it } from "vitest";
import { parseSort, queryLeaves, resolveField, valuePasses } from "./query-language.js";

describe("queryLeaves", () => {
  it("reads bracket names and JSON values as one path, keeping JSON types", () => {
    expect(
      queryLeaves([
        ["filter", '{"where":{"id":{"gt":2}},"order":["title ASC"],"limit":2}'],
        ["filter[where][done]", "true"],
        ["tags[]", "a"],
        ["tags[]", "b"],
        ["q", "{not json"],
      ]),
    ).toEqual([
      { path: ["filter", "where", "id", "gt"], value: 2, pair: 0 },
      { path: ["filter", "order"], value: ["title ASC"], pair: 0 },
      { path: ["filter", "limit"], value: 2, pair: 0 },
      { path: ["filter", "where", "done"], value: "true", pair: 1 },
      { path: ["tags"], value: ["a", "b"], pair: 2 },
      { path: ["q"], value: "{not json", pair: 4 },
    ]);
  });
});

describe("queryLeaves beyond its limits", () => {
  it("stands for what lies beyond them with one leaf no rule knows, never drops it silently", () => {
    let deep: unknown = { isComplete: true };
    for (let i = 0; i < 10; i++) deep = { and: [deep] };
    const cut = queryLeaves([["filter", JSON.stringify({ where: deep })]]);
    expect(cut).toHaveLength(1);
    expect(cut[0]!.path.at(-1)).toBe("\u2026beyond-limit");
    const wide = Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`x${i}`, false]));
    const many = queryLeaves([["filter", JSON.stringify({ fields: wide, where: { isComplete: true } })]]);
    expect(many).toHaveLength(65);
    expect(many.filter((l) => l.path.at(-1) === "\u2026beyond-limit")).toHaveLength(1);
  });
});

describe("resolveField", () => {
  const sample = [
    { id: 1, isComplete: false, assigned_to: { id: 5, name: "J" }, title: { rendered: "T" }, tag: "home" },
    { id: 2, tag: { project: "work" } },
  ];
  it("resolves a name by structure: itself, a spelling alike, an object's id, an object's scalar members", () => {
    expect(resolveField("is_complete", sample)).toEqual(["isComplete"]);
    expect(resolveField("assigned_to_id", sample)).toEqual(["assigned_to.id"]);
    expect(resolveField("title", sample)).toEqual(["title.rendered"]);
    expect(resolveField("tag", sample)).toEqual(["tag", "tag.project"]);
    expect(resolveField("nope", sample)).toEqual([]);
  });
});

describe("valuePasses", () => {
  it("applies operators with numbers compared as numbers, lists as any, arrays by element", () => {
    expect(valuePasses(10, "gt", ["9"])).toBe(true);
    expect(valuePasses("b", "in", ["a", "b"])).toBe(true);
    expect(valuePasses([2, 3], "eq", ["3"])).toBe(true);
    expect(valuePasses("Call the plumber", "like", ["%the%"])).toBe(true);
    expect(valuePasses("Call THE plumber", "like", ["%the%"])).toBe(false);
    expect(valuePasses("Call THE plumber", "ilike", ["%the%"])).toBe(true);
    expect(valuePasses(3, "ne", ["3", "4"])).toBe(false);
    expect(valuePasses(3, "between", [1, 5])).toBe(true);
    expect(valuePasses({ a: 1 }, "eq", ['{"a":1}'])).toBe(false);
  });
});

describe("parseSort", () => {
  it("reads each spelling, and refuses a value the spelling cannot hold", () => {
    expect(parseSort("-id,title", { separator: ",", style: "minus" })).toEqual([
      { name: "id", direction: "desc" },
      { name: "title", direction: null },
    ]);
    expect(parseSort("subject:desc", { separator: ",", style: "colon" })).toEqual([
      { name: "subject", direction: "desc" },
    ]);
    expect(parseSort(["title ASC"], { separator: ",", style: "space" })).toEqual([
      { name: "title", direction: "asc" },
    ]);
    expect(parseSort("subject:desc", { separator: ",", style: "minus" })).toBeNull();
    expect(parseSort("title sideways", { separator: ",", style: "space" })).toBeNull();
  });
});

describe("tuple expressions", () => {
  it("reads (field,op,value)~and(…) as one leaf per term under the parameter, and leaves ~or whole", () => {
    expect(queryLeaves([["where", "(Status,eq,draft)~and(Views,gt,10)"]])).toEqual([
      { path: ["where", "Status", "eq"], value: "draft", pair: 0 },
      { path: ["where", "Views", "gt"], value: "10", pair: 0 },
    ]);
    expect(queryLeaves([["where", "(Status,eq,draft)~or(Views,gt,10)"]])).toEqual([
      { path: ["where"], value: "(Status,eq,draft)~or(Views,gt,10)", pair: 0 },
    ]);
  });
});
