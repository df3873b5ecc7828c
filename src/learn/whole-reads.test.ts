/**
 * Reads that show a scope whole besides a plain list (`whole-reads.ts`), on small hand-made recordings: a read that
 * only sorts, by a sort some read confirmed, lists the whole scope; a query read made before the first whole list of
 * its run of reads is judged against it. Each rightly rejected where the evidence does not allow it.
 */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, list } from "../../test/support/learn-specs.js";
import type { Collection } from "../model/model-schema.js";
import { orderingQuery, sortsOnlyByRule } from "./whole-reads.js";

const THINGS = [
  { id: 1, title: "Milk", status: "open" },
  { id: 2, title: "Bread", status: "done" },
  { id: 3, title: "Soap", status: "open" },
  { id: 4, title: "Apples", status: "done" },
];
const pick = (...ids: number[]) => ids.map((id) => THINGS.find((t) => t.id === id)!);
const read = (query: string, ...ids: number[]): RecordSpec => ({
  path: `/api/things?${query}`,
  status: 200,
  res: pick(...ids),
});
const write: RecordSpec = { method: "PATCH", path: "/api/things/9", status: 404, res: { error: "no" } };
const rulesOf = (specs: RecordSpec[]) =>
  (learnSpecs(specs).model.collections[0]?.query?.rules ?? []).map((r) => r.kind);
const SORT: NonNullable<Collection["query"]> = {
  default_filter: [],
  rules: [
    {
      kind: "sort",
      path: ["sort"],
      syntax: { separator: ",", style: "minus" },
      direction_path: null,
      default_direction: "asc",
      fields: { title: "title" },
      explain: "",
    },
  ],
};

describe("reads that only sort", () => {
  it("plans a read of only a confirmed sort as ordering-only, and nothing else", () => {
    const q = orderingQuery(SORT)!;
    expect(sortsOnlyByRule(q, [["sort", "title"]], THINGS)).toBe(true);
    // Rejected: another parameter beside the sort, no parameter at all, a name no sort rule takes.
    expect(
      sortsOnlyByRule(
        q,
        [
          ["sort", "title"],
          ["limit", "2"],
        ],
        THINGS,
      ),
    ).toBe(false);
    expect(sortsOnlyByRule(q, [], THINGS)).toBe(false);
    expect(sortsOnlyByRule(q, [["order", "title"]], THINGS)).toBe(false);
  });

  it("takes no sort inferred from a sibling collection, and none from a query without one", () => {
    const inferred = { ...SORT, rules: SORT.rules.map((r) => ({ ...r, inferred: { from: "others" } })) };
    expect(orderingQuery(inferred)).toBeNull();
    expect(orderingQuery(undefined)).toBeNull();
  });

  it("lists the scope whole: the reads before the first plain list, with no write between, are judged", () => {
    // The read opens with a sort; the plain list comes only after a write; the later sorted read confirms the sort.
    const specs = [
      read("sort=title", 4, 2, 1, 3),
      read("status=open", 1, 3),
      write,
      list(THINGS),
      read("sort=-title", 3, 1, 2, 4),
    ];
    expect(rulesOf(specs)).toEqual(["filter", "sort"]);
    // Rejected: without the plain list nothing confirms the sort, so the sorted read is no whole list.
    expect(rulesOf([read("sort=title", 4, 2, 1, 3), read("status=open", 1, 3)])).toEqual([]);
  });

  it("leaves the plain list's order to plain lists: a scope only sorted reads showed is still unlisted", () => {
    const { model } = learnSpecs([
      list(THINGS),
      {
        method: "POST",
        path: "/api/things",
        status: 201,
        req: { title: "Tea" },
        res: { id: 5, title: "Tea" },
      },
      read("sort=title", 4, 2, 1, 3),
      read("sort=-title", 3, 1, 2, 4),
    ]);
    // The sorted reads after the create never showed 5: the sort is still a sort, the plain order insertion.
    expect(model.collections[0]!.query?.rules.map((r) => r.kind)).toContain("sort");
    expect(model.collections[0]!.list_order).toEqual({ kind: "insertion" });
  });
});

describe("query reads before the first whole list of their run", () => {
  it("judges a filter read made before the plain list when nothing was written between", () => {
    expect(rulesOf([read("status=open", 1, 3), list(THINGS)])).toEqual(["filter"]);
  });

  it("does not judge it across a write: the state it saw is not the list's", () => {
    expect(rulesOf([read("status=open", 1, 3), write, list(THINGS)])).toEqual([]);
  });
});
