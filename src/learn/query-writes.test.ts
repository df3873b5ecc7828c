/**
 * Writes by query at the list path (`PATCH /api/things?id=eq.2`, `DELETE /api/things?id=eq.3`, a database over HTTP):
 * the entities written are those the query's filters select by the reads' confirmed rules, judged entity by entity,
 * and the entities left out must show unchanged; a create answering `[row]`.
 */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, list, twinRequest } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const thing = (id: number, status: string) => ({ id, title: `T${id}`, status });
const read = (query: string, data: unknown[]): RecordSpec => ({
  path: `/api/things?${query}`,
  status: 200,
  res: data,
});
const write = (method: string, query: string, status: number, req?: unknown, res?: unknown): RecordSpec => ({
  method,
  path: `/api/things?${query}`,
  status,
  ...(req === undefined ? {} : { req }),
  ...(res === undefined ? {} : { res }),
});
const seed = [thing(1, "draft"), thing(2, "draft"), thing(3, "done")];
/** The reads that confirm the filter syntax `field=eq.value` on two fields. */
const filterReads = [
  list(seed),
  read("status=eq.draft", [thing(1, "draft"), thing(2, "draft")]),
  read("id=eq.3", [thing(3, "done")]),
];

describe("writes by query", () => {
  it("writes every entity its filter selects, as the reads select them, and answers the rows", () => {
    const {
      model,
      seed: state,
      coverage,
    } = learnSpecs([
      ...filterReads,
      write("PATCH", "id=eq.2", 200, { status: "done" }, [thing(2, "done")]),
      read("id=eq.2", [thing(2, "done")]),
      write("DELETE", "id=eq.3", 204),
      list([thing(1, "draft"), thing(2, "done")]),
      {
        method: "POST",
        path: "/api/things",
        status: 201,
        req: { title: "T4", status: "draft" },
        res: [thing(4, "draft")],
      },
      list([thing(1, "draft"), thing(2, "done"), thing(4, "draft")]),
    ]);
    expect(coverage.writes.withheld).toEqual([]);
    const rules = Object.fromEntries(model.write_rules.map((r) => [r.tool_name, [r.by_query, r.response]]));
    expect(rules).toEqual({
      delete_things: [true, { kind: "empty" }],
      patch_things: [true, { kind: "rows" }],
      post_things: [undefined, { kind: "rows" }],
    });
    const ep = createEpisode(model, state, { episodeId: "q" });
    const send = (method: string, query: [string, string][], body: unknown = null) =>
      handleRequest(model, ep, twinRequest(method, "/api/things", body, query));
    // The training left 1 draft, 2 done, 4 draft: a filter selecting two drafts writes both, in list order.
    const patched = send("PATCH", [["status", "eq.draft"]], { status: "archived" });
    expect([patched.status, patched.body]).toEqual([
      200,
      { kind: "json", value: [thing(1, "archived"), thing(4, "archived")] },
    ]);
    const created = send("POST", [], { title: "T5", status: "draft" });
    expect([created.status, created.body]).toEqual([201, { kind: "json", value: [thing(5, "draft")] }]);
    expect(send("DELETE", [["id", "eq.1"]]).status).toBe(204);
    const after = { kind: "json", value: [thing(2, "done"), thing(4, "archived"), thing(5, "draft")] };
    expect(send("GET", []).body).toEqual(after);
    // Nothing selected, more than filters, or a filter no rule fits: the explained 501, nothing written.
    const none = send("DELETE", [["id", "eq.99"]]);
    const paged = send(
      "PATCH",
      [
        ["status", "eq.done"],
        ["limit", "1"],
      ],
      { status: "x" },
    );
    const unknown = send("DELETE", [["colour", "eq.red"]]);
    expect(
      [none, paged, unknown].map((r) => [r.status, (r.body as { value: { error: string } }).value.error]),
    ).toEqual([
      [501, "unrecorded_selection"],
      [501, "unlearned_query"],
      [501, "unlearned_query"],
    ]);
    expect(send("GET", []).body).toEqual(after);
  });

  it("is withheld when the list after it shows an entity its filter does not select changed", () => {
    const { coverage } = learnSpecs([
      ...filterReads,
      write("PATCH", "id=eq.1", 200, { status: "done" }, [thing(1, "done")]),
      list([thing(1, "done"), thing(2, "done"), thing(3, "done")]),
    ]);
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason, w.hint, w.closable])).toEqual([
      [
        "patch_things",
        "read_back_disagrees",
        "The full GET /api/things after PATCH /api/things (records[4]) shows the entity 2, which its query does not select by the reads' rules, changed or gone: the app wrote other entities than those the query selects, which no rule of the twin reproduces, so no recording can close this gap: the write stays withheld",
        false,
      ],
    ]);
  });

  it("is withheld with what to record when its scope was never listed, or its filter never read", () => {
    const unlisted = learnSpecs([write("DELETE", "id=eq.3", 204), list([thing(1, "draft")])]);
    const unread = learnSpecs([list(seed), write("DELETE", "id=eq.3", 204), list([thing(1, "draft")])]);
    const said = (c: typeof unlisted.coverage) =>
      c.writes.withheld.map((w) => [w.tool_name, w.reason, w.hint, w.closable]);
    expect([...said(unlisted.coverage), ...said(unread.coverage)]).toEqual([
      [
        "delete_things",
        "not_read_back",
        "DELETE /api/things (records[0]) names the entities it writes by its query, and no full GET /api/things before it showed the entities that query selects among; record a full GET /api/things, then DELETE /api/things, then GET /api/things again",
        true,
      ],
      [
        "delete_things",
        "not_read_back",
        'DELETE /api/things (records[1]) names the entities it writes by a query the reads do not select by (no query rule the reads confirmed fits "id"); record a GET /api/things with the same filter, so its answer shows what the filter selects, and rebuild',
        true,
      ],
    ]);
  });

  it("is withheld, unclosable, when its query holds more than filters", () => {
    const { coverage } = learnSpecs([
      ...filterReads,
      read("status=eq.draft&limit=1", [thing(1, "draft")]),
      write("DELETE", "status=eq.draft&limit=1", 204),
      list([thing(2, "draft"), thing(3, "done")]),
    ]);
    expect(coverage.writes.withheld.map((w) => [w.reason, w.hint, w.closable])).toEqual([
      [
        "not_read_back",
        "DELETE /api/things (records[4]) names the entities it writes by a query the twin cannot apply to a write (the query holds a page beside its filters); the twin writes only the entities a query's filters select, so no recording can close this gap: the write stays withheld",
        false,
      ],
    ]);
  });

  it("keeps a field one selected entity holds and another lacks (absent before and after stays absent)", () => {
    const noted = { ...thing(1, "draft"), note: "n" };
    const { model, coverage } = learnSpecs([
      list([noted, thing(2, "draft"), thing(3, "done")]),
      read("status=eq.draft", [noted, thing(2, "draft")]),
      read("id=eq.3", [thing(3, "done")]),
      write("PATCH", "status=eq.draft", 200, { status: "done" }, [
        { ...noted, status: "done" },
        thing(2, "done"),
      ]),
      list([{ ...noted, status: "done" }, thing(2, "done"), thing(3, "done")]),
    ]);
    expect(coverage.writes.withheld).toEqual([]);
    const rule = model.write_rules.find((r) => r.tool_name === "patch_things")!;
    expect(rule.fields.find((f) => f.field === "note")?.rule).toEqual({ kind: "keep" });
  });

  describe("a query read under the list's prefix, answered by a count (LoopBack's updateAll)", () => {
    const bracket = (q: string) => q.replace(/\[/g, "%5B").replace(/\]/g, "%5D");
    /** Reads by `filter[where][…]` and `filter[order]`, never a plain list: the sorted read shows the scope whole. */
    const reads = [
      read(bracket("filter[order]=id DESC"), [...seed].reverse()),
      read(bracket("filter[where][status]=draft"), [thing(1, "draft"), thing(2, "draft")]),
      read(bracket("filter[where][id]=3"), [thing(3, "done")]),
      read(bracket("filter[order]=id ASC"), seed),
      ...seed.map((t) => ({ path: `/api/things/${t.id}`, status: 200, res: t })),
    ];
    const after = [thing(3, "done"), thing(2, "done"), thing(1, "done")];

    it("writes what `where[…]` selects read as `filter[where][…]`, and answers how many it wrote", () => {
      const {
        model,
        seed: state,
        coverage,
      } = learnSpecs([
        ...reads,
        write("PATCH", bracket("where[status]=draft"), 200, { status: "done" }, { count: 2 }),
        read(bracket("filter[order]=id DESC"), after),
        list([...after].reverse()),
      ]);
      expect(coverage.writes.withheld).toEqual([]);
      const rule = model.write_rules.find((r) => r.tool_name === "patch_things")!;
      expect([rule.by_query, rule.query_prefix, rule.response]).toEqual([
        true,
        ["filter"],
        { kind: "count", key: "count" },
      ]);
      expect(rule.explain).toBe(
        "PATCH /api/things updates each thing its query's filters select, its query read as filter.… (as the reads' query rules do; anything but filters, or a query selecting none, is an explained miss), and answers 200 with the number of them under \"count\" (id: kept as it was; title: kept as it was; status: taken from the request body at /status, or kept as it was when the request has none).",
      );
      const ep = createEpisode(model, state, { episodeId: "lb" });
      const send = (method: string, query: [string, string][], body: unknown = null) =>
        handleRequest(model, ep, twinRequest(method, "/api/things", body, query));
      const patched = send("PATCH", [["where[id]", "2"]], { status: "archived" });
      expect([patched.status, patched.body]).toEqual([200, { kind: "json", value: { count: 1 } }]);
      expect(send("GET", [["filter[where][id]", "2"]]).body).toEqual({
        kind: "json",
        value: [thing(2, "archived")],
      });
    });

    it("is withheld when the answer's number is not how many the query selected", () => {
      const { coverage } = learnSpecs([
        ...reads,
        write("PATCH", bracket("where[status]=draft"), 200, { status: "done" }, { count: 5 }),
        read(bracket("filter[order]=id DESC"), after),
        list([...after].reverse()),
      ]);
      expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason])).toEqual([
        ["patch_things", "unexplained_field"],
      ]);
    });
  });
});
