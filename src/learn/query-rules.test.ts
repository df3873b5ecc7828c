/**
 * Query hypotheses on small hand-made recordings: each kind of meaning is
 * confirmed only by reads it changed, against the state of that moment, and
 * rightly rejected when a read disagrees.
 */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, list, twinRequest } from "../../test/support/learn-specs.js";
import { queryLeaves } from "../model/query-language.js";
import { planQuery, type QueryPlan, runQueryPlan } from "../model/query-plan.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const THINGS = [
  { id: 1, title: "Milk", status: "open", price: 3, owner: { id: 7, name: "Ann" }, tags: ["food"] },
  { id: 2, title: "Bread", status: "done", price: 5, owner: { id: 8, name: "Bo" }, tags: ["food", "bakery"] },
  { id: 3, title: "Soap", status: "open", price: 2, owner: { id: 7, name: "Ann" }, tags: [] },
  { id: 4, title: "Apples", status: "done", price: 4, owner: { id: 9, name: "Cy" }, tags: ["food"] },
];
const pick = (...ids: number[]) => ids.map((id) => THINGS.find((t) => t.id === id)!);
const read = (query: string, ...ids: number[]): RecordSpec => ({
  path: `/api/things?${query}`,
  status: 200,
  res: pick(...ids),
});
const rulesOf = (specs: RecordSpec[]) => {
  const { model } = learnSpecs([list(THINGS), ...specs]);
  const c = model.collections[0]!;
  return { rules: c.query!.rules.map(({ explain: _, ...r }) => r), model, c };
};
const replayed = (specs: RecordSpec[]) =>
  learnSpecs([list(THINGS), ...specs]).model.replays.map((r) => r.path_and_query);

describe("filters", () => {
  it("confirms an equality on the field the parameter names, and serves it from state", () => {
    const { rules, c } = rulesOf([read("status=open", 1, 3)]);
    expect(rules).toEqual([
      {
        kind: "filter",
        path: [{ field: true }],
        op: "eq",
        op_tokens: {},
        op_prefix: null,
        list_separator: null,
        fields: { status: "status" },
      },
    ]);
    expect(c.filters).toEqual([{ param: "status", field: "status", kind: "equals" }]);
    expect(replayed([read("status=open", 1, 3)])).toEqual([]);
  });

  it("rejects an equality the answer contradicts: the value is only known to change nothing", () => {
    const { rules, c } = rulesOf([read("status=open", 1, 2, 3, 4)]);
    expect(c.filters).toEqual([]);
    expect(rules).toEqual([{ kind: "ignore", path: ["status"], values: ["open"] }]);
  });

  it("keeps a name whose value changed nothing out of a confirmed filter syntax: only its recorded value applies", () => {
    const { rules, c } = rulesOf([read("status=open", 1, 3), read("title=x", 1, 2, 3, 4)]);
    const filter = rules.find((r) => r.kind === "filter");
    expect(filter).toMatchObject({ fields: { status: "status" }, not_fields: ["title"] });
    expect(rules).toContainEqual({ kind: "ignore", path: ["title"], values: ["x"] });
    expect(c.filters).toEqual([{ param: "status", field: "status", kind: "equals" }]);
    // Any other title is unlearned, not read as a filter on the field by the syntax `status=` confirmed.
    const plan = (q: [string, string][]) => planQuery(c.query!, queryLeaves(q), THINGS);
    expect(plan([["title", "Milk"]])).toMatchObject({ unlearned: [{ path: ["title"] }] });
    expect(plan([["title", "x"]])).toHaveProperty("plan");
    expect(plan([["status", "done"]])).toHaveProperty("plan");
  });

  it("keeps a filter syntax beside a read whose value is of a kind the field never holds (project_id=website)", () => {
    // `owner_id=ann` cannot be an equality on the integer `owner.id` (serve never filters by it): that it meant
    // something else here (a search for "Ann", or nothing) speaks against no filter syntax (a Redmine
    // `project_id=website` beside `issue_id=1`, which was left unlearned).
    const anns = [THINGS[0]!, THINGS[2]!];
    const { model } = learnSpecs([
      list(anns),
      { path: "/api/things?owner_id=ann", status: 200, res: anns },
      { path: "/api/things?price=2", status: 200, res: [THINGS[2]] },
    ]);
    const rules = model.collections[0]!.query!.rules;
    expect(rules.find((r) => r.kind === "filter")).toMatchObject({ fields: { price: "price" } });
    // A name that is a field searches only it (owner.id holds no text): `owner_id=ann` is no search of owner.name,
    // so its answer, the whole list, confirms that exact value as changing nothing; any other value is unlearned.
    expect(rules).toContainEqual(
      expect.objectContaining({ kind: "ignore", path: ["owner_id"], values: ["ann"] }),
    );
    const plan = planQuery(model.collections[0]!.query!, queryLeaves([["owner_id", "bo"]]), THINGS);
    expect(plan).toHaveProperty("unlearned");
  });

  it("rightly still rejects a filter syntax by a read whose value is of the field's kind (status=open,done is no one value)", () => {
    // The comma list kept every thing: the whole value `open,done` as one equality would have kept none.
    const { rules } = rulesOf([read("status=open,done", 1, 2, 3, 4), read("status=done", 2, 4)]);
    expect(rules.find((r) => r.kind === "filter")).toMatchObject({ list_separator: "," });
  });

  it("confirms nothing from a filter that excluded nothing: the read replays", () => {
    const same = [
      { id: 1, status: "open" },
      { id: 2, status: "open" },
    ];
    const { model } = learnSpecs([list(same), { path: "/api/things?status=open", status: 200, res: same }]);
    expect(model.collections[0]!.query!.rules).toEqual([]);
    expect(model.replays.map((r) => r.path_and_query)).toEqual(["/api/things?status=open"]);
  });

  it("reads `<object>_id` as that object's id, and a comma list as any of its values", () => {
    const { rules } = rulesOf([
      read("owner_id=7", 1, 3),
      read("status=open,done", 1, 2, 3, 4),
      read("status=done", 2, 4),
    ]);
    expect(rules).toEqual([
      {
        kind: "filter",
        path: [{ field: true }],
        op: "eq",
        op_tokens: {},
        op_prefix: null,
        list_separator: ",",
        fields: { owner_id: "owner.id", status: "status" },
      },
    ]);
  });

  it("matches an array field when any element does", () => {
    const { rules } = rulesOf([read("tags=bakery", 2)]);
    expect(rules.map((r) => r.kind)).toEqual(["filter"]);
  });

  it("learns operators from bracket and JSON syntaxes as one path, with the operator the last name spells", () => {
    const json = encodeURIComponent(JSON.stringify({ where: { price: { gt: 3 } } }));
    const { rules } = rulesOf([
      read(`filter=${json}`, 2, 4),
      read("filter[where][title][like]=%25p%25", 3, 4),
    ]);
    expect(rules).toEqual([
      {
        kind: "filter",
        path: [{ literal: "filter" }, { literal: "where" }, { field: true }, { op: true }],
        op: null,
        op_tokens: { gt: "gt", like: "like" },
        op_prefix: "",
        list_separator: null,
        fields: { price: "price", title: "title" },
      },
    ]);
  });
});

describe("pagination", () => {
  it("tells limit from offset by what the pages cut, and names only break a tie the pages leave", () => {
    const { rules, c } = rulesOf([read("limit=2&offset=2", 3, 4), read("limit=1", 1)]);
    expect(rules).toEqual([
      { kind: "limit", path: ["limit"] },
      { kind: "offset", path: ["offset"] },
    ]);
    expect(c.pagination).toEqual({ limit_param: "limit", offset_param: "offset" });
  });

  it("learns a page number of the size another parameter gives", () => {
    const { rules } = rulesOf([read("per_page=3&page=1", 1, 2, 3), read("per_page=3&page=2", 4)]);
    expect(rules).toEqual([
      { kind: "limit", path: ["per_page"] },
      { kind: "page", path: ["page"], base: 1 },
    ]);
  });

  it("confirms nothing from a page that cut nothing", () => {
    expect(rulesOf([read("limit=10", 1, 2, 3, 4)]).rules).toEqual([]);
    expect(replayed([read("limit=10", 1, 2, 3, 4)])).toEqual(["/api/things?limit=10"]);
  });
});

describe("sort", () => {
  it("learns the syntax of a sort value: -field, field:dir, and a companion direction parameter", () => {
    const { rules } = rulesOf([
      read("sort=-price", 2, 4, 1, 3),
      read("order=title:asc", 4, 2, 1, 3),
      read("orderby=price&dir=desc", 2, 4, 1, 3),
    ]);
    expect(rules).toEqual([
      {
        kind: "sort",
        path: ["order"],
        syntax: { separator: ",", style: "colon" },
        direction_path: null,
        default_direction: "asc",
        fields: { title: "title" },
      },
      {
        kind: "sort",
        path: ["orderby"],
        syntax: { separator: ",", style: "minus" },
        direction_path: ["dir"],
        default_direction: "asc",
        fields: { price: "price" },
      },
      {
        kind: "sort",
        path: ["sort"],
        syntax: { separator: ",", style: "minus" },
        direction_path: null,
        default_direction: "asc",
        fields: { price: "price" },
      },
    ]);
  });

  it("rejects a sort the answer's order contradicts (the value is then only known to change nothing)", () => {
    expect(rulesOf([read("sort=title", 1, 2, 3, 4)]).rules).toEqual([
      { kind: "ignore", path: ["sort"], values: ["title"] },
    ]);
  });

  it("orders entities equal in the sorted fields only when a read sorted two such (in list order)", () => {
    const serve = (specs: RecordSpec[], query: [string, string][]) => {
      const { model, seed } = learnSpecs([list(THINGS), ...specs]);
      const ep = createEpisode(model, seed, { episodeId: "ties" });
      const got = handleRequest(model, ep, twinRequest("GET", "/api/things", null, query));
      return { status: got.status, body: got.body as { value: unknown } };
    };
    // Sorted by price: no two things cost the same, so the read shows nothing of ties.
    const byPrice = read("sort=price", 3, 1, 4, 2);
    expect(rulesOf([byPrice]).rules.find((r) => r.kind === "sort")).not.toHaveProperty("ties");
    const untied = serve([byPrice], [["sort", "status"]]);
    expect(untied.status).toBe(501);
    expect(JSON.stringify(untied.body.value)).toContain("in what order entities with equal status come");
    // Sorted by status: Milk before Soap and Bread before Apples, as the plain list holds them.
    const byStatus = read("sort=status", 2, 4, 1, 3);
    expect(rulesOf([byStatus]).rules.find((r) => r.kind === "sort")).toMatchObject({ ties: "list_order" });
    const placed = serve([byStatus], [["sort", "-status"]]);
    expect(placed.status).toBe(200);
    expect((placed.body.value as { id: number }[]).map((t) => t.id)).toEqual([1, 3, 2, 4]);
    // Only a tie the page shows matters: by owner descending Cy and Bo lead, Ann's two things tie behind them.
    const { model, seed } = learnSpecs([list(THINGS), byPrice, read("sort=price&limit=1", 3)]);
    const ep = createEpisode(model, seed, { episodeId: "page" });
    const page = (limit: string) =>
      handleRequest(
        model,
        ep,
        twinRequest("GET", "/api/things", null, [
          ["sort", "-owner_id"],
          ["limit", limit],
        ]),
      );
    expect(page("2").status).toBe(200);
    expect((page("2").body as { value: { id: number }[] }).value.map((t) => t.id)).toEqual([4, 2]);
    expect(page("3").status).toBe(501);
    // Rightly refused: a read whose ties break against the list order contradicts the stable sort.
    expect(rulesOf([read("sort=status", 4, 2, 1, 3)]).rules.find((r) => r.kind === "sort")).toBeUndefined();
  });

  it("says where entities lacking the sorted field go only when a read sorted one among others", () => {
    // Bread and Apples have no due date: a read sorted by price never showed where such entities go.
    const due = THINGS.map((t) => (t.id % 2 === 1 ? { ...t, due: `2026-0${t.id}-01` } : t));
    const answer = (query: string, ids: number[]): RecordSpec => ({
      path: `/api/things?${query}`,
      status: 200,
      res: ids.map((id) => due.find((t) => t.id === id)!),
    });
    const serve = (specs: RecordSpec[], query: [string, string][]) => {
      const { model, seed } = learnSpecs([list(due), ...specs]);
      const ep = createEpisode(model, seed, { episodeId: "sorted" });
      const got = handleRequest(model, ep, twinRequest("GET", "/api/things", null, query));
      return { status: got.status, body: got.body as { value: unknown } };
    };
    const byPrice = answer("sort=price", [3, 1, 4, 2]);
    expect(rulesOf([list(due), byPrice]).rules.find((r) => r.kind === "sort")).not.toHaveProperty("missing");
    const unplaced = serve([byPrice], [["sort", "due"]]);
    expect(unplaced.status).toBe(501);
    expect(JSON.stringify(unplaced.body.value)).toContain("where entities without due go when sorted by it");
    // Sorting by a field every entity holds is answered.
    expect(serve([byPrice], [["sort", "title"]]).status).toBe(200);
    // A read that sorted by due put the two without one after the rest: the same sort of another field is placed so.
    const byDue = answer("sort=due", [1, 3, 2, 4]);
    const rule = rulesOf([list(due), byDue]).rules.find((r) => r.kind === "sort");
    expect(rule).toMatchObject({ missing: "greatest" });
    const placed = serve([byDue], [["sort", "-due"]]);
    expect(placed.status).toBe(200);
    expect((placed.body.value as { id: number }[]).map((t) => t.id)).toEqual([2, 4, 3, 1]);
  });
});

describe("search", () => {
  it("learns which text fields a search looks in, from what it found and what it left out", () => {
    const { rules } = rulesOf([read("q=a", 2, 3, 4)]);
    expect(rules).toEqual([{ kind: "search", path: ["q"], fields: ["title"], case_sensitive: false }]);
  });

  it("rejects a search when an entity it left out holds the text in every field that would explain it", () => {
    expect(rulesOf([read("q=Ann", 1)]).rules).toEqual([]);
  });
});

describe("projections and parameters with no effect", () => {
  it("learns a field list and never writes the projected shape back into the state", () => {
    const spec: RecordSpec = {
      path: "/api/things?_fields=id,title",
      status: 200,
      res: THINGS.map(({ id, title }) => ({ id, title })),
    };
    const { model, seed } = learnSpecs([list(THINGS), spec]);
    expect(model.collections[0]!.query!.rules.map((r) => [r.kind, r.path])).toEqual([
      ["fields", [{ literal: "_fields" }]],
    ]);
    expect(seed.collections.things).toEqual(THINGS);
  });

  it("takes in the scalar fields a whole entity gained, never an object or array a query read added (an expansion)", () => {
    const bare = [
      { id: 1, title: "Milk" },
      { id: 2, title: "Bread" },
    ];
    const { seed } = learnSpecs([
      { path: "/api/things", status: 200, res: bare },
      {
        path: "/api/things?title=Milk",
        status: 200,
        res: [{ id: 1, title: "Milk", desc: "bulk", owner: { id: 7 }, tags: ["x"] }],
      },
      { path: "/api/things?fields=id", status: 200, res: [{ id: 2 }] },
    ]);
    expect(seed.collections.things).toEqual([{ id: 1, title: "Milk", desc: "bulk" }, bare[1]]);
  });

  it("takes a parameter new on every read that changed nothing for a cache-buster", () => {
    const { rules } = rulesOf([read("_=1796109801612", 1, 2, 3, 4), read("_=1796109809999", 1, 2, 3, 4)]);
    expect(rules).toEqual([{ kind: "ignore", path: ["_"], values: null }]);
  });
});

describe("the default filter of a plain list", () => {
  it("keeps an entity only a filtered read showed, hidden from the plain list by the field that differs", () => {
    const shown = THINGS.filter((t) => t.status === "open");
    const { model, seed } = learnSpecs([
      list(shown),
      { path: "/api/things?status=done", status: 200, res: pick(2, 4) },
      list(shown),
    ]);
    expect(model.collections[0]!.query!.default_filter).toEqual([{ field: "status", value: "open" }]);
    expect(seed.collections.things!.map((t) => t.id)).toEqual([1, 3, 2, 4]);
  });

  it("takes an entity a filtered read showed after the last plain list as hidden by it too (no later list needed)", () => {
    const shown = THINGS.filter((t) => t.status === "open");
    const { model, seed } = learnSpecs([
      list(shown),
      { path: "/api/things?status=done", status: 200, res: pick(2, 4) },
    ]);
    expect(model.collections[0]!.query!.default_filter).toEqual([{ field: "status", value: "open" }]);
    expect(seed.collections.things!.map((t) => t.id)).toEqual([1, 3, 2, 4]);
    const ep = createEpisode(model, seed, { episodeId: "hidden" });
    const ids = (query: [string, string][]) =>
      (
        handleRequest(model, ep, twinRequest("GET", "/api/things", null, query)).body as {
          value: { id: number }[];
        }
      ).value.map((t) => t.id);
    expect(ids([])).toEqual([1, 3]);
    expect(ids([["status", "done"]])).toEqual([2, 4]);
  });

  it("rightly sets none for an entity a recorded create made after the plain list (it was not there to hide)", () => {
    const shown = THINGS.filter((t) => t.status === "open");
    const made = { id: 5, title: "Tea", status: "done", price: 1, owner: { id: 7, name: "Ann" }, tags: [] };
    const { model } = learnSpecs([
      list(shown),
      { method: "POST", path: "/api/things", status: 201, req: { title: "Tea", status: "done" }, res: made },
      { path: "/api/things?status=done", status: 200, res: [made] },
    ]);
    expect(model.collections[0]!.query?.default_filter ?? []).toEqual([]);
  });

  it("rightly sets none from a plain list of one entity, whose every value could be the default", () => {
    const { model } = learnSpecs([
      list(pick(1)),
      { path: "/api/things?status=open", status: 200, res: pick(1, 3) },
    ]);
    expect(model.collections[0]!.query?.default_filter ?? []).toEqual([]);
  });
});

describe("list operators in an operator slot, and answers whose shape a parameter changes", () => {
  it("splits a list operator's value at its commas (filter[id][_in]=1,3) and serves it from state", () => {
    const { rules, model } = rulesOf([
      read("filter[status][_eq]=open", 1, 3),
      read("filter[id][_in]=2,4", 2, 4),
    ]);
    expect(rules).toEqual([
      {
        kind: "filter",
        path: [{ literal: "filter" }, { field: true }, { op: true }],
        op: null,
        op_tokens: { _eq: "eq", _in: "in" },
        op_prefix: "_",
        list_separator: null,
        op_list_separator: ",",
        fields: { status: "status", id: "id" },
      },
    ]);
    const planned = planQuery(
      model.collections[0]!.query!,
      queryLeaves([["filter[id][_in]", "1,3,4"]]),
      THINGS,
    );
    expect(planned).toMatchObject({
      plan: { filters: [{ field: "id", op: "in", values: ["1", "3", "4"] }] },
    });
  });

  it("rejects an equality's comma as a list (filter[title][_eq]=a,b stays one value)", () => {
    const { model } = rulesOf([read("filter[status][_eq]=open", 1, 3), read("filter[id][_in]=2,4", 2, 4)]);
    const planned = planQuery(
      model.collections[0]!.query!,
      queryLeaves([["filter[title][_eq]", "Milk,Soap"]]),
      THINGS,
    );
    expect(planned).toMatchObject({
      plan: { filters: [{ field: "title", op: "eq", values: ["Milk,Soap"] }] },
    });
  });

  it("never takes a parameter that adds an envelope key as no effect: it adds that key (envelope-params.ts)", () => {
    const specs: RecordSpec[] = [
      { path: "/api/things", status: 200, res: { data: THINGS } },
      { path: "/api/things?meta=total_count", status: 200, res: { data: THINGS, meta: { total_count: 4 } } },
    ];
    const { model } = learnSpecs(specs);
    // One unfiltered, unpaged read: every count the value may be is 4, so every reading stays open.
    expect(model.collections[0]!.query?.rules.map((r) => [r.kind, "fields" in r ? r.fields : null])).toEqual([
      ["envelope", [{ pointer: "/meta/total_count", of: ["total", "count", "scope_total"] }]],
    ]);
    expect(model.collections[0]!.query?.rules.some((r) => r.kind === "ignore")).toBe(false);
    expect(model.replays.map((r) => r.path_and_query)).toEqual([]);
  });
});

describe("operators spelt in a name's suffix or in the value", () => {
  it("learns field_op names (price_gte, status_ne), like as a case-folded substring, one syntax for every op", () => {
    const { rules, model } = rulesOf([
      read("price_gte=4", 2, 4),
      read("status_ne=open", 2, 4),
      read("title_like=ea", 2),
    ]);
    expect(rules).toEqual([
      {
        kind: "filter",
        path: [{ field_op: "_" }],
        op: null,
        op_tokens: { gte: "gte", ne: "ne", like: "icontains" },
        op_prefix: "",
        list_separator: null,
        fields: { price: "price", status: "status", title: "title" },
      },
    ]);
    // An operator never recorded, spelt in the same style, is read by its spelling.
    expect(planQuery(model.collections[0]!.query!, queryLeaves([["price_lt", "4"]]), THINGS)).toMatchObject({
      plan: { filters: [{ field: "price", op: "lt", values: ["4"] }] },
    });
  });

  it("learns operators spelt in the value (price=gt.3, id=in.(1,3), title=ilike.*AP*) and field.dir sorts", () => {
    const { rules } = rulesOf([
      read("price=gt.3", 2, 4),
      read("id=in.(1,3)", 1, 3),
      read("title=ilike.*AP*", 3, 4),
      read("order=price.desc", 2, 4, 1, 3),
    ]);
    expect(rules).toEqual([
      {
        kind: "filter",
        path: [{ field: true }],
        op: null,
        op_tokens: { gt: "gt", in: "in", ilike: "ilike" },
        op_prefix: "",
        list_separator: null,
        value_op: { separator: "." },
        fields: { price: "price", id: "id", title: "title" },
      },
      {
        kind: "sort",
        path: ["order"],
        syntax: { separator: ",", style: "dot" },
        direction_path: null,
        default_direction: "asc",
        fields: { price: "price" },
      },
    ]);
  });

  it("rejects an operator in the value the answer contradicts (price=gt.3 answered with every thing)", () => {
    const { rules } = rulesOf([read("price=gt.3", 1, 2, 3, 4)]);
    expect(rules.filter((r) => r.kind === "filter")).toEqual([]);
  });

  it("learns operator symbols before the operand (title=~a case folded, price=!3) and serves them for any field", () => {
    const { rules, model } = rulesOf([read("title=~a", 2, 3, 4), read("price=!3", 2, 3, 4)]);
    expect(rules).toEqual([
      {
        kind: "filter",
        path: [{ field: true }],
        op: null,
        op_tokens: { "~": "icontains", "!": "ne" },
        op_prefix: "",
        list_separator: null,
        value_op: { separator: "" },
        fields: { title: "title", price: "price" },
      },
    ]);
    const ep = createEpisode(model, learnSpecs([list(THINGS)]).seed, { episodeId: "sym" });
    const got = handleRequest(model, ep, twinRequest("GET", "/api/things", null, [["status", "!open"]]));
    expect([got.status, got.served_by, got.body]).toEqual([
      200,
      "state",
      { kind: "json", value: pick(2, 4) },
    ]);
  });

  it("rejects an operator symbol the answer contradicts (title=~a answered with every thing)", () => {
    const { rules } = rulesOf([read("title=~a", 1, 2, 3, 4)]);
    expect(rules.filter((r) => r.kind === "filter")).toEqual([]);
  });
});

describe("a word value selecting by a boolean field", () => {
  const TICKETS = [
    { id: 1, title: "Login", state: { id: 1, name: "New", is_closed: false }, urgent: false },
    { id: 2, title: "Crash", state: { id: 5, name: "Closed", is_closed: true }, urgent: false },
    { id: 3, title: "Docs", state: { id: 2, name: "Doing", is_closed: false }, urgent: true },
  ];
  const tickets = (...ids: number[]) => ids.map((id) => TICKETS.find((t) => t.id === id)!);
  const word = (query: string, ...ids: number[]): RecordSpec => ({
    path: `/api/tickets?${query}`,
    status: 200,
    res: tickets(...ids),
  });
  const learned = (entities: typeof TICKETS, specs: RecordSpec[]) => {
    const { model } = learnSpecs([{ path: "/api/tickets", status: 200, res: entities }, ...specs]);
    return { c: model.collections[0]!, replays: model.replays.map((r) => r.path_and_query) };
  };

  it("confirms `state_id=open` as the entities whose state.is_closed is false, and `closed` as true", () => {
    const { c, replays } = learned(TICKETS, [word("state_id=open", 1, 3), word("state_id=closed", 2)]);
    const words = c.query!.rules.filter((r) => r.kind === "word").map(({ explain: _, ...r }) => r);
    expect(words).toEqual([
      { kind: "word", path: ["state_id"], value: "closed", field: "state.is_closed", equals: true },
      { kind: "word", path: ["state_id"], value: "open", field: "state.is_closed", equals: false },
    ]);
    expect(replays).toEqual([]);
    // Served from state: a ticket closed since is left out of `open`.
    const now = [TICKETS[0]!, { ...TICKETS[2]!, state: { id: 5, name: "Closed", is_closed: true } }];
    const planned = planQuery(c.query!, queryLeaves([["state_id", "open"]]), now);
    expect(planned).toHaveProperty("plan");
    const out = runQueryPlan((planned as { plan: QueryPlan }).plan, now);
    expect("rows" in out && out.rows.map((e) => e["id"])).toEqual([1]);
    // A word the recording never showed is unlearned, not read by the field the others selected on.
    expect(planQuery(c.query!, queryLeaves([["state_id", "mine"]]), TICKETS)).toMatchObject({
      unlearned: [{ path: ["state_id"] }],
    });
  });

  it("rejects a word two boolean fields explain alike: the read replays", () => {
    // `urgent` is true exactly where state.is_closed is: `open` fits both fields, so the evidence does not decide.
    const twins = TICKETS.map((t) => ({ ...t, urgent: t.state.is_closed }));
    const { c, replays } = learned(twins, [
      { path: "/api/tickets?state_id=open", status: 200, res: [twins[0]!, twins[2]!] },
    ]);
    expect((c.query?.rules ?? []).filter((r) => r.kind === "word")).toEqual([]);
    expect(replays).toEqual(["/api/tickets?state_id=open"]);
  });

  it("takes a word that kept every entity as changing nothing, not as a selection", () => {
    const open = [TICKETS[0]!, TICKETS[2]!];
    const { c } = learned(open, [{ path: "/api/tickets?state_id=open", status: 200, res: open }]);
    expect(c.query!.rules.map(({ explain: _, ...r }) => r)).toEqual([
      { kind: "ignore", path: ["state_id"], values: ["open"] },
    ]);
  });
});
