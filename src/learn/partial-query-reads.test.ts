/**
 * Query reads of a collection no plain list showed whole, judged against the entities the walk knew at their run of
 * reads (`QueryRead.partial`), and the rules around them: a search only of the fields its name gives, and an
 * operator symbol in the value beside a plain equality.
 */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, list } from "../../test/support/learn-specs.js";
import { queryLeaves } from "../model/query-language.js";
import { planQuery } from "../model/query-plan.js";
import { explainRead, type QueryRead } from "./query-hypotheses.js";

const THINGS = [
  { id: 1, title: "Milk", status: "open", price: 3, owner: { id: 7, name: "Ann" } },
  { id: 2, title: "Bread", status: "done", price: 5, owner: { id: 8, name: "Bo" } },
  { id: 3, title: "Soap", status: "open", price: 2, owner: { id: 7, name: "Ann" } },
  { id: 4, title: "Apples", status: "done", price: 4, owner: { id: 9, name: "Cy" } },
];
const pick = (...ids: number[]) => ids.map((id) => THINGS.find((t) => t.id === id)!);
const items: RecordSpec[] = THINGS.map((t) => ({ path: `/api/things/${t.id}`, status: 200, res: t }));
const read = (query: string, ...ids: number[]): RecordSpec => ({
  path: `/api/things?${query}`,
  status: 200,
  res: pick(...ids),
});
/** A read answering in an envelope that counts its matches (`total_count`, as Redmine's). */
const counted = (query: string, ...ids: number[]): RecordSpec => ({
  path: `/api/things?${query}`,
  status: 200,
  res: { things: pick(...ids), total_count: ids.length },
});
const countedItems: RecordSpec[] = THINGS.map((t) => ({
  path: `/api/things/${t.id}`,
  status: 200,
  res: { thing: t },
}));
const rulesOf = (specs: RecordSpec[]) => {
  const { model } = learnSpecs(specs);
  const c = model.collections.find((x) => x.name === "things")!;
  return { rules: (c.query?.rules ?? []).map(({ explain: _, ...r }) => r), model, c };
};
const partialRead = (leaves: [string, string][], answer: number[]): QueryRead => ({
  leaves: queryLeaves(leaves),
  base: pick(1, 2, 3, 4),
  answer: pick(...answer),
  total: null,
  idField: "id",
  defaultFilter: [],
  partial: true,
});

describe("query reads of a collection no plain list showed", () => {
  it("learns a filter from reads judged against the known entities, once a sort-only read showed them whole", () => {
    // No plain list: the item reads show the four things, `order=price:desc&all=*` answers all four in its order
    // (the sort and a no-effect value: the rules read it as the whole list), and `status=open` answers two in an
    // order the app chose (not the walk's): compared as a set.
    const { rules } = rulesOf([
      ...countedItems,
      counted("order=price:desc&all=*", 2, 4, 1, 3),
      counted("status=open", 3, 1),
    ]);
    expect(rules).toContainEqual(expect.objectContaining({ kind: "filter", fields: { status: "status" } }));
    expect(rules).toContainEqual(expect.objectContaining({ kind: "sort", path: ["order"] }));
    expect(rules).toContainEqual(expect.objectContaining({ kind: "ignore", path: ["all"], values: ["*"] }));
  });

  it("learns nothing from them when no read showed the collection whole: which others it holds is unknown", () => {
    const { rules, c } = rulesOf([...items, read("status=open", 1, 3)]);
    expect(rules).toEqual([]);
    // Nor when the no-effect read has no total saying nothing else matched (it may be a page the app cut).
    expect(
      rulesOf([...items, read("order=price:desc&all=*", 2, 4, 1, 3), read("status=open", 3, 1)]).rules,
    ).toEqual([]);
    expect(planQuery(c.query!, queryLeaves([["status", "done"]]), THINGS)).toHaveProperty("unlearned");
  });

  it("does not judge a page cut from entities in the app's unknown order, nor their ties under a sort", () => {
    expect(explainRead(partialRead([["limit", "1"]], [2]))).toEqual([]);
    // Under a sort, the tie (1 and 3 share owner 7) falls across the page's end: no explanation.
    expect(
      explainRead(
        partialRead(
          [
            ["sort", "owner"],
            ["limit", "1"],
          ],
          [3],
        ),
      ).filter((e) => e.meanings.some((m) => m.kind === "limit")),
    ).toEqual([]);
    // A cut between untied entities is judged: sort by price, first one.
    const sorted = explainRead(
      partialRead(
        [
          ["sort", "price"],
          ["limit", "1"],
        ],
        [3],
      ),
    );
    expect(sorted.some((e) => e.meanings.map((m) => m.kind).join() === "sort,limit")).toBe(true);
  });
});

describe("a search by a parameter named as a field", () => {
  const whole = (leaves: [string, string][], answer: number[]): QueryRead => ({
    ...partialRead(leaves, answer),
    partial: false,
  });
  it("searches only the fields its name gives: owner_id=ann is no search of owner.name", () => {
    const kinds = explainRead(whole([["owner_id", "ann"]], [1, 3])).map((e) => e.meanings[0]!.kind);
    expect(kinds).not.toContain("search");
  });
  it("a name that is no field searches any text field (q=ann finds owner.name)", () => {
    const got = explainRead(whole([["q", "ann"]], [1, 3])).filter((e) => e.meanings[0]!.kind === "search");
    expect(got.map((e) => e.searchFields.get(0)?.fields)).toContainEqual(["owner.name"]);
  });
});

describe("an operator symbol in the value beside a plain equality", () => {
  it("keeps both: subject=~a is read by its symbol and does not contradict status=open", () => {
    const { rules } = rulesOf([list(THINGS), read("status=open", 1, 3), read("title=~a", 2, 3, 4)]);
    expect(rules).toContainEqual(
      expect.objectContaining({ kind: "filter", op: "eq", fields: { status: "status" } }),
    );
    expect(rules).toContainEqual(
      expect.objectContaining({ kind: "filter", value_op: { separator: "" }, fields: { title: "title" } }),
    );
  });
  it("still drops the equality a plain value contradicts (status=open answered with every thing)", () => {
    const { rules } = rulesOf([list(THINGS), read("status=open", 1, 2, 3, 4), read("title=~a", 2, 3, 4)]);
    expect(rules.filter((r) => r.kind === "filter" && r.op === "eq")).toEqual([]);
  });
});
