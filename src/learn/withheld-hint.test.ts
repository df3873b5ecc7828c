/** One small recording per withheld reason, asserting the reason and its hint word for word. */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, list, seedItems, withheldOf } from "../../test/support/learn-specs.js";

describe("withheld reasons", () => {
  const create = (extra: Partial<RecordSpec> = {}): RecordSpec => ({
    method: "POST",
    path: "/api/things",
    status: 201,
    req: { title: "B" },
    res: { id: 2, title: "B" },
    ...extra,
  });

  it("not_read_back: no later read shows the created entity", () => {
    expect(withheldOf([list(seedItems), create()])).toEqual([
      [
        "post_things",
        "not_read_back",
        "Record a GET /api/things after POST /api/things to confirm its effect",
      ],
    ]);
  });

  it("not_read_back: creates that named no entity say what the reads after them did not show, never ask for those reads", () => {
    const anonymous = create({ res: undefined });
    const specs = [list(seedItems), anonymous, { ...anonymous, req: { title: "C" } }];
    const after = list([...seedItems, { id: 2, title: "B" }, { id: 3, title: "C" }]);
    const { coverage } = learnSpecs([...specs, after]);
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason, w.hint, w.closable])).toEqual([
      [
        "post_things",
        "not_read_back",
        "POST /api/things answered no id of the entity it created (no entity in its body, no Location naming one), and no full GET /api/things after it showed exactly one new entity for it alone; record one POST /api/things between two full reads of GET /api/things, with no other create between them",
        true,
      ],
    ]);
  });

  it("no_collection: a write that changed a collection's read but names no one entity of it (the whole collection) is not closable", () => {
    const items = (status: string) => [
      { id: 1, status: "draft" },
      { id: 2, status },
    ];
    const { coverage } = learnSpecs([
      list(items("draft")),
      // Entities sent without their ids: no whole-collection write the twin can apply (replace-all.test.ts).
      { method: "PUT", path: "/api/things", status: 204, req: [{ status: "draft" }, { status: "done" }] },
      list(items("done")),
    ]);
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason, w.hint, w.closable])).toEqual([
      [
        "put_things",
        "no_collection",
        'PUT /api/things changed what GET /api/things answers (collection "things"), but it names no one entity of it by its path, lists no ids beside the fields to set (a batch) and creates none: the twin has no rule for a write to the whole collection or to several entities sent otherwise, so no recording can close this gap: the write stays withheld',
        false,
      ],
    ]);
  });

  it("read_back_disagrees: the read-back shows another value", () => {
    expect(withheldOf([list(seedItems), create(), list([...seedItems, { id: 2, title: "Other" }])])).toEqual([
      [
        "post_things",
        "read_back_disagrees",
        'The read after POST /api/things (records[2]) shows a different "title" than the write implied, and no other write set it in between: the app stored another value than the one it was sent or answered, which no rule of the twin reproduces, so no recording can close this gap: the write stays withheld',
      ],
    ]);
  });

  it("failed_status: every observation failed", () => {
    expect(withheldOf([list(seedItems), create({ status: 422, res: { error: "invalid" } })])).toEqual([
      [
        "post_things",
        "failed_status",
        "Every POST /api/things answered 422; record one that succeeds (2xx) and read its effect back",
      ],
    ]);
  });

  it("no_collection: the write's path matches no collection (an RPC-style action), naming no route the app lacks", () => {
    expect(
      withheldOf([{ method: "POST", path: "/api/ping", status: 200, req: {}, res: { ok: true } }]),
    ).toEqual([
      [
        "post_ping",
        "no_collection",
        "POST /api/ping changes no collection the recording read: if it writes entities, record a GET of their list before and after it, so its effect can be read back; if it changes nothing, the same reads answering alike before and after it make it acknowledged (answered as recorded, changing nothing)",
      ],
    ]);
  });

  it("no_collection: names the list at the write's path when the recording read it", () => {
    const ping: RecordSpec = { method: "POST", path: "/api/ping", status: 200, req: {}, res: { ok: true } };
    expect(withheldOf([{ path: "/api/ping", status: 200, res: { pings: 1 } }, ping])).toEqual([
      [
        "post_ping",
        "no_collection",
        "POST /api/ping changes no collection the recording read: if it writes entities, record a GET of their list (such as GET /api/ping) before and after it, so its effect can be read back; if it changes nothing, the same reads answering alike before and after it make it acknowledged (answered as recorded, changing nothing)",
      ],
    ]);
  });

  it("never names a read route the model lacks: an update whose collection has no item read names the list", () => {
    const patch: RecordSpec = { method: "PATCH", path: "/api/things/1", status: 200, req: { title: "Z" } };
    const { model, coverage } = learnSpecs([list(seedItems), patch]);
    const routes = new Set(model.endpoints.map((e) => `${e.method} ${e.template}`));
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason, w.hint])).toEqual([
      [
        "patch_things_by_id",
        "not_read_back",
        "Record a GET /api/things after PATCH /api/things/{id} to confirm its effect",
      ],
    ]);
    for (const w of coverage.writes.withheld)
      for (const named of w.hint.match(/\b(GET|HEAD) \/\S*/g) ?? []) expect(routes).toContain(named);
  });

  it("says every gap a recording can close is closable", () => {
    const { coverage } = learnSpecs([list(seedItems), create()]);
    expect(coverage.writes.withheld.map((w) => [w.reason, w.closable])).toEqual([["not_read_back", true]]);
    expect(coverage.next).toBe(coverage.writes.withheld[0]!.hint);
  });

  it("unexplained_field: a random token the entity keeps, which no recording can explain", () => {
    const e = { id: 2, title: "B", code: "k3f9x2m8q1" };
    const { coverage } = learnSpecs([list(seedItems), create({ res: e }), list([...seedItems, e])]);
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason, w.hint, w.closable])).toEqual([
      [
        "post_things",
        "unexplained_field",
        'Field "code" in POST /api/things is a random token the app generates (10 letters and digits) that no request sent; the twin has no rule that reproduces it, so no recording can close this gap: the write stays withheld',
        false,
      ],
    ]);
  });

  it("unexplained_field: a random token only the create's answer carries (an etag) cannot be closed by recording", () => {
    const e = { id: 2, title: "B" };
    const { coverage } = learnSpecs([
      list(seedItems),
      create({ res: { ...e, etag: "9f2c41d07be3a865" } }),
      list([...seedItems, e]),
    ]);
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason, w.hint, w.closable])).toEqual([
      [
        "post_things",
        "unexplained_field",
        'Field "etag" in the answer of POST /api/things is a random token the app generates (16 hex characters) that only the answer carries: no request sent it and no read shows it, so no recording can explain it and the write stays withheld',
        false,
      ],
    ]);
    expect(coverage.next).toBe(
      "No recording can close the remaining gaps (post_things): the twin has no rule for what they need. Export the environment and report them as withheld",
    );
  });

  it("next skips a gap no recording can close and names one that can", () => {
    const token = { id: 2, title: "B" };
    const odd = { id: 7, title: "Z", note: "2026-03-09T00:00:00.000Z" };
    const { coverage } = learnSpecs([
      { path: "/api/aardvarks", status: 200, res: seedItems },
      {
        method: "POST",
        path: "/api/aardvarks",
        status: 201,
        req: { title: "B" },
        res: { ...token, etag: "9f2c41d07be3a865" },
      },
      { path: "/api/aardvarks", status: 200, res: [...seedItems, token] },
      list(seedItems),
      create({ req: { title: "Z" }, res: odd }),
      list([...seedItems, odd]),
    ]);
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason, w.closable])).toEqual([
      ["post_aardvarks", "unexplained_field", false],
      ["post_things", "unexplained_field", true],
    ]);
    expect(coverage.next).toBe(coverage.writes.withheld[1]!.hint);
  });

  it("unexplained_field: highest + 1 seen once is a counter or a constant, and a second create tells", () => {
    const seed = [
      { id: 10, title: "A", position: 1 },
      { id: 20, title: "B", position: 2 },
    ];
    const e = { id: 21, title: "C", position: 3 };
    const { coverage } = learnSpecs([
      list(seed),
      create({ req: { title: "C" }, res: e }),
      list([...seed, e]),
    ]);
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason, w.hint, w.closable])).toEqual([
      [
        "post_things",
        "unexplained_field",
        'Field "position" in POST /api/things was the highest value seen in its scope + 1 in the only POST /api/things recorded, which a counter and a constant both fit; record another POST /api/things, followed by a GET /api/things, so its value shows which',
        true,
      ],
    ]);
  });

  it("unexplained_field: a per-scope counter every create confirms is never learned as a constant", () => {
    const seed = [
      { id: 10, title: "A", position: 1 },
      { id: 20, title: "B", position: 2 },
    ];
    const c = { id: 21, title: "C", position: 3 };
    const d = { id: 22, title: "D", position: 4 };
    const { coverage } = learnSpecs([
      list(seed),
      create({ req: { title: "C" }, res: c }),
      list([...seed, c]),
      create({ req: { title: "D" }, res: d }),
      list([...seed, c, d]),
    ]);
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason, w.hint, w.closable])).toEqual([
      [
        "post_things",
        "unexplained_field",
        'Field "position" in POST /api/things counts up within its scope (each new value is the highest seen + 1); the twin has no per-scope counter rule, so no recording can close this gap: the write stays withheld rather than answer a constant',
        false,
      ],
    ]);
  });

  it("a value that is highest + 1 once and then repeats is a constant, not a counter", () => {
    const seed = [{ id: 10, title: "A", author: 0 }];
    const c = { id: 11, title: "C", author: 1 };
    const d = { id: 12, title: "D", author: 1 };
    const { model } = learnSpecs([
      list(seed),
      create({ req: { title: "C" }, res: c }),
      list([...seed, c]),
      create({ req: { title: "D" }, res: d }),
      list([...seed, c, d]),
    ]);
    const rule = model.write_rules.find((r) => r.tool_name === "post_things")!;
    expect(rule.fields.find((f) => f.field === "author")!.rule).toEqual({ kind: "constant", value: 1 });
  });

  it("a repeated value read back only by other reads is a constant too: the create's answer counts for the highest", () => {
    const seed = [
      { id: 10, title: "A", author: 0 },
      { id: 20, title: "B", author: 0 },
    ];
    const c = { id: 21, title: "C", author: 1 };
    const d = { id: 22, title: "D", author: 1 };
    // Each create is read back by its item read only, after the next create's answer: the list never shows c.
    const item = (e: typeof c): RecordSpec => ({ path: `/api/things/${e.id}`, status: 200, res: e });
    const { model } = learnSpecs([
      list(seed),
      { path: "/api/things/10", status: 200, res: seed[0] },
      create({ req: { title: "C" }, res: c }),
      create({ req: { title: "D" }, res: d }),
      item(c),
      item(d),
    ]);
    const rule = model.write_rules.find((r) => r.tool_name === "post_things")!;
    expect(rule.fields.find((f) => f.field === "author")!.rule).toEqual({ kind: "constant", value: 1 });
  });

  it("untimed_capture: the app stamps a time and the records have none", () => {
    const e = { id: 2, title: "B", created_at: "2026-03-01T10:00:01.000Z" };
    const specs = [list(seedItems), create({ res: e }), list([...seedItems, e])].map((s) => ({
      ...s,
      time: null,
    }));
    expect(withheldOf(specs)).toEqual([
      [
        "post_things",
        "untimed_capture",
        'Field "created_at" in POST /api/things is a time the app stamps, but the records have no times; record with apptwin capture (or a HAR with timings)',
      ],
    ]);
  });

  it("unsupported_body: neither JSON nor a form", () => {
    const spec = create({ req: undefined, reqRaw: { text: "title;B", mime: "text/csv" } });
    expect(withheldOf([list(seedItems), spec, list([...seedItems, { id: 2, title: "B" }])])).toEqual([
      [
        "post_things",
        "unsupported_body",
        "POST /api/things sent a text/csv body; record it with a JSON or url-encoded form body (within the body limit)",
      ],
    ]);
  });

  it("conflicting_observations: two observations answer different statuses", () => {
    const b = { id: 2, title: "B" };
    const c = { id: 3, title: "C" };
    const specs = [
      list(seedItems),
      create(),
      create({ status: 200, req: { title: "C" }, res: c }),
      list([...seedItems, b, c]),
    ];
    expect(withheldOf(specs)[0]!.slice(0, 2)).toEqual(["post_things", "conflicting_observations"]);
  });
});
