/**
 * Query meanings inferred from a sibling collection (inferred-queries.ts): a page size one collection of an API
 * confirmed applies to a sibling under the same prefix and envelope, labelled inferred; refused when a recorded read
 * of the sibling refutes it; none with infer: false.
 */
import { describe, expect, it } from "vitest";
import { buildEvidence, type RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnModel } from "../bundle/learn-model.js";

const items = [
  { id: 1, title: "Milk", status: "open" },
  { id: 2, title: "Bread", status: "done" },
  { id: 3, title: "Eggs", status: "open" },
];
const tags = [
  { id: 1, label: "home", status: "open" },
  { id: 2, label: "work", status: "done" },
];
const base: RecordSpec[] = [
  { path: "/api/items", status: 200, res: items },
  { path: "/api/items?limit=1", status: 200, res: [items[0]] },
  { path: "/api/items?status=open", status: 200, res: [items[0], items[2]] },
  { path: "/api/tags", status: 200, res: tags },
];
const rulesOf = (specs: RecordSpec[], name: string, infer = true) =>
  learnModel(buildEvidence(specs), { infer }).model.collections.find((c) => c.name === name)!.query!;

describe("query meanings inferred from a sibling collection", () => {
  it("gives a sibling the page size, labelled inferred, and never a filter (a field's values are the collection's own)", () => {
    const q = rulesOf(base, "tags");
    expect(q.rules.find((r) => r.kind === "limit")).toMatchObject({
      path: ["limit"],
      inferred: { from: "items" },
    });
    expect(q.rules.some((r) => r.kind === "filter")).toBe(false);
    const { coverage } = learnModel(buildEvidence(base));
    const row = coverage.reads.find((r) => r.template === "/api/tags")!;
    expect(row.inferred_query?.map((x) => [x.param, x.serving])).toEqual([["limit", "inferred"]]);
  });

  it("is not inferred where the sibling's own read decided the parameter (a page size that changed nothing there)", () => {
    const q = rulesOf([...base, { path: "/api/tags?limit=1", status: 200, res: tags }], "tags");
    expect(q.rules.some((r) => r.kind === "limit")).toBe(false);
    // Its own read shows the page size changed nothing there: the rule it confirmed stands, none is inferred.
    expect(q.rules.find((r) => r.kind === "ignore")).toMatchObject({ path: ["limit"] });
  });

  it("infers nothing with infer: false (apptwin build --no-infer)", () => {
    const q = rulesOf(base, "tags", false);
    expect(q.rules.filter((r) => "inferred" in r && r.inferred)).toEqual([]);
    expect(q.refused_inferences).toBeUndefined();
  });
});

describe("an inferred page rule's envelope echo", () => {
  const env = (key: string, list: unknown[], limit: number) => ({
    [key]: list,
    total_count: list.length,
    limit,
  });
  const wrapped: RecordSpec[] = [
    { path: "/api/items", status: 200, res: env("items", items, 25) },
    { path: "/api/items?limit=1", status: 200, res: { ...env("items", [items[0]], 1), total_count: 3 } },
    {
      path: "/api/items?limit=2",
      status: 200,
      res: { ...env("items", items.slice(0, 2), 2), total_count: 3 },
    },
  ];
  const twinOf = (specs: RecordSpec[]) =>
    learnModel(buildEvidence(specs)).model.collections.find((c) => c.name === "tags")!;

  it("is carried with the rule where the sibling's plain answers held the sibling's default there", () => {
    const tagsOf = twinOf([...wrapped, { path: "/api/tags", status: 200, res: env("tags", tags, 25) }]);
    expect(tagsOf.query!.rules.find((r) => r.kind === "limit")).toMatchObject({
      inferred: { from: "items" },
    });
    expect(tagsOf.envelope).toMatchObject({ echoes: { limit: { param: "limit", default: 25 } } });
    expect(tagsOf.envelope.kind === "object" && "limit" in tagsOf.envelope.constants).toBe(false);
  });

  it("rightly refuses the rule where this collection's answers held that key at another value", () => {
    const tagsOf = twinOf([...wrapped, { path: "/api/tags", status: 200, res: env("tags", tags, 100) }]);
    expect(tagsOf.query!.rules.some((r) => r.kind === "limit")).toBe(false);
    expect(tagsOf.query!.refused_inferences?.map((r) => [r.param, r.reason])).toEqual([
      ["limit", "items answers limit back in limit (25 when unset), where every tags answer held 100"],
    ]);
  });
});
