import { describe, expect, it } from "vitest";
import type { Collection, Entity, QueryRule } from "../../model/model-schema.js";
import { queryLeaves } from "../../model/query-language.js";
import { planQuery, runQueryPlan } from "../../model/query-plan.js";
import { queryRead } from "./collection-read.js";
import { CollectionState, SeedCollection } from "./collection-state.js";

const rules: QueryRule[] = [
  {
    kind: "filter",
    path: [{ field: true }],
    op: "eq",
    op_tokens: {},
    op_prefix: null,
    list_separator: ",",
    fields: { status: "status" },
    explain: "",
  },
  {
    kind: "sort",
    path: ["orderby"],
    syntax: { separator: ",", style: "minus" },
    direction_path: ["order"],
    default_direction: "asc",
    fields: {},
    ties: "list_order",
    explain: "",
  },
  { kind: "limit", path: ["per_page"], explain: "" },
  { kind: "offset", path: ["offset"], explain: "" },
  { kind: "page", path: ["page"], base: 1, explain: "" },
  { kind: "fields", path: [{ literal: "_fields" }], syntax: "list", explain: "" },
];

function collection(defaultFilter: { field: string; value: unknown }[]): Collection {
  return {
    name: "things",
    id_field: "id",
    id_kind: "int",
    list_endpoint: null,
    item_endpoint: null,
    envelope: { kind: "object", constants: {}, items_key: "data", total_key: "total" },
    item_envelope: { kind: "bare" },
    parent: null,
    list_order: { kind: "insertion" },
    filters: [],
    pagination: null,
    not_found: null,
    query: { rules, default_filter: defaultFilter },
    explain: "",
  } as unknown as Collection;
}

/** What the read answered before the page was read in place: the plan run over every entity. */
function overAll(c: Collection, list: CollectionState, q: [string, string][]) {
  const rows = [...list.values()];
  const planned = planQuery(c.query!, queryLeaves(q), rows.slice(0, 50));
  if ("unlearned" in planned) return "unlearned";
  const ran = runQueryPlan(planned.plan, rows);
  return "ambiguous" in ran ? "ambiguous" : { data: ran.rows, total: ran.total };
}

describe("queryRead", () => {
  const seed: Entity[] = Array.from({ length: 300 }, (_, i) => ({
    id: i + 1,
    title: `T${i % 7}`,
    status: i % 3 === 0 ? "draft" : "publish",
  }));
  const list = new CollectionState("things", "id", new SeedCollection(seed));
  for (let id = 5; id <= 300; id += 11) list.delete(String(id));
  list.put("2", { id: 2, title: "changed", status: "publish" });
  for (let i = 0; i < 5; i++) list.append({ id: 400 + i, title: "new", status: i % 2 ? "draft" : "publish" });

  const queries: [string, string][][] = [
    [],
    [["per_page", "20"]],
    [
      ["per_page", "20"],
      ["page", "3"],
    ],
    [
      ["offset", "250"],
      ["per_page", "40"],
    ],
    [["offset", "1000"]],
    [
      ["per_page", "5"],
      ["_fields", "id,title"],
    ],
    [
      ["status", "draft"],
      ["per_page", "10"],
    ],
    [
      ["orderby", "-title"],
      ["per_page", "7"],
      ["page", "2"],
    ],
  ];

  it("answers a page-only query read in place exactly as the plan over the whole collection does", () => {
    for (const defaultFilter of [[], [{ field: "status", value: "publish" }]]) {
      const c = collection(defaultFilter);
      for (const q of queries) {
        const read = queryRead(c, list, {}, q, "list_things");
        const want = overAll(c, list, q);
        expect("status" in read ? read.body : read, JSON.stringify(q)).toEqual(
          typeof want === "string" ? want : { kind: "json", value: want },
        );
      }
    }
  });
});
