import { describe, expect, it } from "vitest";
import { branchSteps, type GroupedFilter, groupToken, passesFilters, underGroup } from "./filter-groups.js";
import { queryLeaves } from "./query-language.js";

const THINGS = [
  { id: 1, status: "open", price: 3 },
  { id: 2, status: "done", price: 5 },
  { id: 3, status: "open", price: 2 },
  { id: 4, status: "done", price: 4 },
];
const kept = (filters: GroupedFilter[]) => THINGS.filter((e) => passesFilters(e, filters)).map((e) => e.id);

describe("group tokens and branch steps", () => {
  it("reads or/and by spelling, with a `$` or `_` prefix, and nothing else", () => {
    expect(["or", "$or", "_OR", "and", "$and", "nor", "order", "0"].map(groupToken)).toEqual([
      "any",
      "any",
      "any",
      "all",
      "all",
      null,
      null,
      null,
    ]);
  });

  it("gives the JSON and the bracket spelling of a branch the same steps", () => {
    const json = queryLeaves([["filter", '{"where":{"or":[{"id":1},{"id":{"gt":3}}]}}']]);
    const brackets = queryLeaves([
      ["filter[where][or][0][id]", "1"],
      ["filter[where][or][1][id][gt]", "3"],
    ]);
    expect(json.map((l) => l.path)).toEqual(brackets.map((l) => l.path));
    expect(branchSteps(json[1]!.path, 4)).toEqual([
      { group: '["filter","where","or"]', branch: 1, mode: "any" },
    ]);
    expect(underGroup(json[1]!.path, '["filter","where","or"]')).toBe(true);
    // An index under no group token is no branch (`fields` as an array), nor is the token itself a group member.
    expect(branchSteps(["filter", "fields", "0"])).toEqual([]);
    expect(underGroup(["filter", "where", "or"], '["filter","where","or"]')).toBe(false);
  });
});

describe("passesFilters", () => {
  const or = (branch: number) => ({ group: '["or"]', branch, mode: "any" as const });
  it("keeps the union of an or's branches, each branch the conjunction of its conditions", () => {
    expect(
      kept([
        { field: "id", op: "eq", values: [1], within: [or(0)] },
        { field: "status", op: "eq", values: ["done"], within: [or(1)] },
        { field: "price", op: "gt", values: [4], within: [or(1)] },
      ]),
    ).toEqual([1, 2]);
  });

  it("keeps the intersection of an and's branches, and nests an or inside it beside a plain condition", () => {
    const and = (branch: number) => ({ group: '["and"]', branch, mode: "all" as const });
    const inner = (branch: number) => ({ group: '["and","0","or"]', branch, mode: "any" as const });
    expect(
      kept([
        { field: "id", op: "eq", values: [1], within: [and(0), inner(0)] },
        { field: "id", op: "eq", values: [2], within: [and(0), inner(1)] },
        { field: "id", op: "eq", values: [4], within: [and(0), inner(2)] },
        { field: "status", op: "eq", values: ["done"], within: [and(1)] },
        { field: "price", op: "lt", values: [5] },
      ]),
    ).toEqual([4]);
  });
});
