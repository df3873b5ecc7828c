/**
 * Reads whose answer holds the same entities with fewer fields (a projection): "no effect" is refuted by them (the
 * ids alike, the fields not), and a field named by the last segment with the value false is learned as left out
 * (`fields[desc]=false`, `omit_keys`) when every such read confirms it.
 */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs } from "../../test/support/learn-specs.js";
import type { Entity } from "../model/model-schema.js";
import { queryLeaves } from "../model/query-language.js";
import { planQuery, runQueryPlan } from "../model/query-plan.js";
import { explainRead, leftOut, type QueryRead } from "./query-hypotheses.js";

const TODOS = [
  { id: 1, title: "Milk", desc: "two pints", tag: "shop", done: false },
  { id: 2, title: "Bread", desc: "rye", tag: "shop", done: true },
  { id: 3, title: "Fence", desc: "white", tag: "garden", done: false },
];
const without = (e: Entity, ...names: string[]) =>
  Object.fromEntries(Object.entries(e).filter(([k]) => !names.includes(k)));
const list: RecordSpec = { path: "/api/todos", status: 200, res: TODOS };
const read = (query: string, res: unknown): RecordSpec => ({ path: `/api/todos?${query}`, status: 200, res });
const rulesOf = (specs: RecordSpec[]) => {
  const { model } = learnSpecs(specs);
  const c = model.collections.find((x) => x.name === "todos")!;
  return { rules: (c.query?.rules ?? []).map(({ explain: _, ...r }) => r), c };
};
const whole = (leaves: [string, string][], answer: Entity[]): QueryRead => ({
  leaves: queryLeaves(leaves),
  base: TODOS,
  answer,
  total: null,
  idField: "id",
  defaultFilter: [],
});

describe("a read answering the same entities with fewer fields", () => {
  it('refutes "no effect": the ids alike, the fields not', () => {
    const explained = explainRead(
      whole(
        [["fields[desc]", "false"]],
        TODOS.map((t) => without(t, "desc")),
      ),
    );
    expect(explained.some((e) => e.meanings.some((m) => m.kind === "ignore"))).toBe(false);
    const omit = explained.find((e) => e.meanings[0]!.kind === "fields");
    expect(omit?.meanings[0]).toMatchObject({ syntax: "omit_keys", names: ["desc"] });
    expect(omit?.decisive).toEqual([true]);
  });

  it("learns a field left out by the value false and serves it, with no no-effect rule", () => {
    const { rules, c } = rulesOf([
      list,
      read(
        "fields[desc]=false",
        TODOS.map((t) => without(t, "desc")),
      ),
      read(
        "fields[tag]=false&fields[done]=false",
        TODOS.map((t) => without(t, "tag", "done")),
      ),
    ]);
    expect(rules.filter((r) => r.kind === "ignore")).toEqual([]);
    expect(rules).toContainEqual({
      kind: "fields",
      path: [{ literal: "fields" }, { field: true }],
      syntax: "omit_keys",
    });
    // A value never recorded: the field it names is left out, the others kept.
    const planned = planQuery(c.query!, queryLeaves([["fields[title]", "false"]]), TODOS);
    expect("plan" in planned).toBe(true);
    const ran = runQueryPlan((planned as { plan: Parameters<typeof runQueryPlan>[0] }).plan, TODOS);
    expect("rows" in ran && ran.rows).toEqual(TODOS.map((t) => without(t, "title")));
    // Kept and left-out fields in one read: no read showed which wins, so the left-out leaf is unlearned.
    const mixed = planQuery(
      {
        ...c.query!,
        rules: [
          ...c.query!.rules,
          { kind: "fields", path: [{ literal: "fields" }, { field: true }], syntax: "keys", explain: "" },
        ],
      },
      queryLeaves([
        ["fields[title]", "true"],
        ["fields[desc]", "false"],
      ]),
      TODOS,
    );
    expect(mixed).toMatchObject({ unlearned: [{ path: ["fields", "desc"] }] });
  });

  it("refuses the exclusion where the app answered the field anyway: the value false changed nothing", () => {
    const { rules } = rulesOf([list, read("fields[desc]=false", TODOS)]);
    expect(rules.some((r) => r.kind === "fields")).toBe(false);
    expect(rules).toContainEqual(expect.objectContaining({ kind: "ignore" }));
  });

  it("takes a field some answered entities show and others lack, or one the list view leaves out, for no projection", () => {
    const uneven = [without(TODOS[0]!, "tag"), TODOS[1]!, TODOS[2]!];
    expect(leftOut(TODOS, uneven, [])).toEqual([]);
    expect(
      leftOut(
        TODOS,
        TODOS.map((t) => without(t, "desc")),
        ["desc"],
      ),
    ).toEqual([]);
    expect(
      leftOut(
        TODOS,
        TODOS.map((t) => without(t, "desc")),
        [],
      ),
    ).toEqual(["desc"]);
  });

  it('refutes "no effect" on a read judged against known entities (partial) when the answer lacks one it knew', () => {
    // No whole list: the walk knew three todos; `category_id=2` answered one of them, so it did change the answer.
    const read: QueryRead = { ...whole([["category_id", "2"]], [TODOS[1]!]), partial: true };
    expect(explainRead(read).some((e) => e.meanings[0]!.kind === "ignore")).toBe(false);
  });
});
