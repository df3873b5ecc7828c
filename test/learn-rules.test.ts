/** One small recording per write-rule kind and per withheld reason, each asserting exactly what is learned. */
import { describe, expect, it } from "vitest";
import { learnModel } from "../src/bundle/learn-model.js";
import { explainRule } from "../src/learn/explain.js";
import { createEpisode } from "../src/serve/runtime/create-episode.js";
import { handleRequest } from "../src/serve/runtime/handle-request.js";
import { buildEvidence, isoAt, type RecordSpec } from "./fixtures/evidence/build-evidence.js";

const T0 = Date.UTC(2026, 2, 1, 10, 0, 0);
const seedItems = [{ id: 1, title: "A" }];
const list = (data: unknown[]): RecordSpec => ({ path: "/api/things", status: 200, res: data });

function learnSpecs(specs: RecordSpec[]) {
  return learnModel(buildEvidence(specs));
}
const fieldsOf = (specs: RecordSpec[], tool: string) =>
  Object.fromEntries(
    learnSpecs(specs)
      .model.write_rules.find((r) => r.tool_name === tool)!
      .fields.map((f) => [f.field, f.rule]),
  );
const withheldOf = (specs: RecordSpec[]) =>
  learnSpecs(specs).coverage.writes.withheld.map((w) => [w.tool_name, w.reason, w.hint]);

describe("write rules", () => {
  it("learns from_request, id_sequence, clock (iso), constant and copy on a create", () => {
    const made = (id: number, title: string, at: number) => ({
      id,
      title,
      done: false,
      rank: id,
      at: isoAt(at),
    });
    const fields = fieldsOf(
      [
        list([{ id: 1, title: "A", done: false, rank: 1, at: "2026-01-01T00:00:00.000Z" }]),
        { method: "POST", path: "/api/things", status: 201, req: { title: "B" }, res: made(2, "B", 1) },
        { method: "POST", path: "/api/things", status: 201, req: { title: "C" }, res: made(3, "C", 2) },
        list([
          { id: 1, title: "A", done: false, rank: 1, at: "2026-01-01T00:00:00.000Z" },
          made(2, "B", 1),
          made(3, "C", 2),
        ]),
      ],
      "post_things",
    );
    expect(fields).toEqual({
      id: { kind: "id_sequence", start: 4, step: 1 },
      title: { kind: "from_request", pointer: "/title", otherwise: { kind: "omit" } },
      done: { kind: "constant", value: false },
      rank: { kind: "copy", from: "id" },
      at: { kind: "clock", format: "iso" },
    });
  });

  it("continues the id sequence after the highest id ever seen, deleted ones included", () => {
    const { model } = learnSpecs([
      list([
        { id: 1, title: "A" },
        { id: 9, title: "Z" },
      ]),
      list([{ id: 1, title: "A" }]),
      { method: "POST", path: "/api/things", status: 201, req: { title: "B" }, res: { id: 10, title: "B" } },
      list([
        { id: 1, title: "A" },
        { id: 10, title: "B" },
      ]),
    ]);
    expect(model.id_sequences).toEqual({ things: 11 });
  });

  it("learns uuid ids, epoch-s clocks and path params on a nested create", () => {
    const parent = "2b7e1516-28ae-4d2a-8f15-9cf4f3c0a1b2";
    const u = "7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
    const at = Math.floor((T0 + 1000) / 1000);
    const fields = fieldsOf(
      [
        { path: `/api/groups/${parent}/members`, status: 200, res: [] },
        {
          method: "POST",
          path: `/api/groups/${parent}/members`,
          status: 201,
          req: { name: "Ann" },
          res: { uid: u, groupId: parent, name: "Ann", joined: at },
        },
        {
          path: `/api/groups/${parent}/members`,
          status: 200,
          res: [{ uid: u, groupId: parent, name: "Ann", joined: at }],
        },
      ],
      "post_groups_members_by_group_id",
    );
    expect(fields).toEqual({
      uid: { kind: "uuid" },
      groupId: { kind: "path_param", name: "group_id" },
      name: { kind: "from_request", pointer: "/name", otherwise: { kind: "omit" } },
      joined: { kind: "clock", format: "epoch_s" },
    });
  });

  it("learns from_request for body keys holding '%', '/' and '~' (pointers are RFC 6901, never URI-decoded)", () => {
    const keys = { "100%": "y", "a%20b": "z", "a/b~c": "w" };
    const fields = fieldsOf(
      [
        list([{ id: 1, title: "A", "100%": "x", "a%20b": "x", "a/b~c": "x" }]),
        { method: "POST", path: "/api/things", status: 201, req: { ...keys }, res: { id: 2, ...keys } },
        list([
          { id: 1, title: "A", "100%": "x", "a%20b": "x", "a/b~c": "x" },
          { id: 2, ...keys },
        ]),
      ],
      "post_things",
    );
    expect(fields["100%"]).toEqual({ kind: "from_request", pointer: "/100%", otherwise: { kind: "omit" } });
    expect(fields["a%20b"]).toEqual({ kind: "from_request", pointer: "/a%20b", otherwise: { kind: "omit" } });
    expect(fields["a/b~c"]).toEqual({
      kind: "from_request",
      pointer: "/a~1b~0c",
      otherwise: { kind: "omit" },
    });
  });

  it("learns keep and epoch-ms clocks on a patch, confirmed by an item read", () => {
    const before = { id: 1, title: "A", done: false, touched: T0 - 86_400_000 };
    const after = { ...before, done: true, touched: T0 + 2000 };
    const fields = fieldsOf(
      [
        { path: "/api/things/1", status: 200, res: before },
        list([before]),
        { method: "PATCH", path: "/api/things/1", status: 200, req: { done: true }, res: after },
        { path: "/api/things/1", status: 200, res: after },
      ],
      "patch_things_by_id",
    );
    expect(fields).toEqual({
      id: { kind: "keep" },
      title: { kind: "keep" },
      done: { kind: "from_request", pointer: "/done", otherwise: { kind: "keep" } },
      touched: { kind: "clock", format: "epoch_ms" },
    });
  });

  it("explains every rule kind in one sentence", () => {
    expect(explainRule({ kind: "keep" })).toBe("kept as it was");
    expect(explainRule({ kind: "copy", from: "id" })).toBe('a copy of field "id"');
    expect(explainRule({ kind: "clock", format: "epoch_s" })).toBe("the episode clock, as epoch seconds");
    expect(explainRule({ kind: "path_param", name: "board_id" })).toBe("the path parameter {board_id}");
    expect(explainRule({ kind: "uuid" })).toBe("a fresh UUID");
    expect(explainRule({ kind: "constant", value: false })).toBe("always false");
  });
});

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

  it("read_back_disagrees: the read-back shows another value", () => {
    expect(withheldOf([list(seedItems), create(), list([...seedItems, { id: 2, title: "Other" }])])).toEqual([
      [
        "post_things",
        "read_back_disagrees",
        'The read after POST /api/things shows a different "title" than the write implied; record the write and its read-back again with nothing in between',
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

  it("no_collection: the write's path matches no collection (an RPC-style action)", () => {
    expect(
      withheldOf([{ method: "POST", path: "/api/ping", status: 200, req: {}, res: { ok: true } }]),
    ).toEqual([
      [
        "post_ping",
        "no_collection",
        "POST /api/ping changes no collection the recording read: if it writes entities, record a GET of their list (such as GET /api/ping) before and after it, so its effect can be read back; an action no read can show stays withheld",
      ],
    ]);
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

  it("unexplained_field: a per-scope counter seen once is not learned as a constant", () => {
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
        'Field "position" in POST /api/things counts up within its scope (each new value is the highest seen + 1); the twin has no per-scope counter rule, so no recording can close this gap: the write stays withheld rather than answer a constant',
        false,
      ],
    ]);
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

describe("sign-in", () => {
  const login = (status: number, res: unknown, headers: RecordSpec["headers"] = []): RecordSpec => ({
    method: "POST",
    path: "/api/session",
    status,
    req: { email: "a@example.test", password: "[REDACTED:field:password]" },
    res,
    headers,
  });

  it("replays a sign-in (credentials in, token out), only its successful answers, and withholds nothing", () => {
    const { model, coverage } = learnSpecs([
      login(401, { error: "invalid_credentials" }),
      login(200, { token: "[REDACTED:field:token]" }),
    ]);
    expect(coverage.writes.withheld).toEqual([]);
    expect(coverage.sign_in!.map((s) => [s.tool_name, s.explain])).toEqual([
      [
        "post_session",
        "POST /api/session replays the recorded sign-in answer; the twin does not check credentials.",
      ],
    ]);
    expect(model.endpoints[0]).toMatchObject({ serving: "replay", kind: "other", withheld: null });
    expect(model.replays.map((r) => [r.path_and_query, r.responses.map((x) => x.status)])).toEqual([
      ["/api/session", [200]],
    ]);
  });

  it("replays a sign-in whose only session is a Set-Cookie (no body)", () => {
    const cookie = [{ name: "Set-Cookie", value: "[REDACTED:header:set-cookie]" }];
    const { model, coverage } = learnSpecs([{ ...login(204, undefined), resHeaders: cookie }]);
    expect(coverage.writes.withheld).toEqual([]);
    expect(coverage.sign_in!.map((s) => s.tool_name)).toEqual(["post_session"]);
    expect(model.replays.map((r) => [r.path_and_query, r.responses])).toEqual([
      ["/api/session", [{ status: 204, headers: {}, body: null }]],
    ]);
  });

  it("replays a form sign-in answered with a redirect and a Set-Cookie (post-redirect-get)", () => {
    const { model, coverage } = learnSpecs([
      {
        method: "POST",
        path: "/login",
        status: 302,
        form: { email: "a@example.test", password: "[REDACTED:field:password]" },
        resHeaders: [
          { name: "Location", value: "/items" },
          { name: "Set-Cookie", value: "[REDACTED:header:set-cookie]" },
        ],
      },
    ]);
    expect(coverage.writes.withheld).toEqual([]);
    expect(coverage.sign_in!.map((s) => s.tool_name)).toEqual(["post_login"]);
    expect(model.replays.map((r) => [r.path_and_query, r.responses])).toEqual([
      ["/login", [{ status: 302, headers: { location: "/items" }, body: null }]],
    ]);
  });

  it("is not a sign-in when the only redacted field of the answer is a password (a user created with one)", () => {
    const signUp: RecordSpec = {
      method: "POST",
      path: "/api/users",
      status: 201,
      req: { email: "b@example.test", password: "[REDACTED:field:password]" },
      res: { id: 5, email: "b@example.test", password_hash: "[REDACTED:field:password_hash]" },
    };
    const { coverage } = learnSpecs([signUp]);
    expect(coverage.sign_in).toEqual([]);
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason])).toEqual([
      ["post_users", "no_collection"],
    ]);
  });

  const user = (id: number, email: string) => ({ id, email, name: email.split("@")[0] });
  const signInAs = (email: string, status: number, res: unknown): RecordSpec => ({
    method: "POST",
    path: "/api/session",
    status,
    req: { email, password: "[REDACTED:field:password]", remember: true },
    res,
  });

  it("keys the replay of a JSON sign-in by the fields that tell the recorded users apart, never the password", () => {
    const alice = { token: "[REDACTED:field:token]", user: user(1, "alice@example.test") };
    const bob = { token: "[REDACTED:field:token]", user: user(2, "bob@example.test") };
    const refusal = { error: "invalid_credentials" };
    const { model, coverage } = learnSpecs([
      signInAs("alice@example.test", 200, alice),
      signInAs("bob@example.test", 200, bob),
      signInAs("carol@example.test", 401, refusal),
    ]);
    expect(coverage.writes.withheld).toEqual([]);
    const explain =
      'POST /api/session replays the recorded sign-in answer of the user with the same "email" (2 recorded); the twin does not check credentials, and a sign-in by a user never recorded gets the app\'s recorded refusal (401).';
    expect(coverage.sign_in!.map((s) => s.explain)).toEqual([explain]);
    expect(model.endpoints[0]!.explain).toBe(explain);
    expect(model.replays[0]!.responses.map((r) => [r.status, r.match])).toEqual([
      [200, { "/email": "alice@example.test" }],
      [200, { "/email": "bob@example.test" }],
      [401, undefined],
    ]);
    // Served: bob signing in first gets his own answer, a stranger the app's refusal.
    const ep = createEpisode(model, { collections: {} }, { episodeId: "e1" });
    const signIn = (email: string) =>
      handleRequest(model, ep, {
        method: "POST",
        path: "/api/session",
        query: [],
        headers: {},
        body: { kind: "json", value: { email, password: "anything" } },
      });
    expect(signIn("bob@example.test")).toMatchObject({ status: 200, body: { value: bob } });
    expect(signIn("alice@example.test")).toMatchObject({ status: 200, body: { value: alice } });
    expect(signIn("dave@example.test")).toMatchObject({ status: 401, body: { value: refusal } });
  });

  it("keys a form sign-in the same way; without a recorded refusal a stranger gets the first recorded answer", () => {
    const answer = (id: number, name: string): RecordSpec => ({
      method: "POST",
      path: "/login",
      status: 200,
      form: { username: name, password: "[REDACTED:field:password]", next: "/items" },
      res: { user: { id, name } },
      resHeaders: [{ name: "Set-Cookie", value: "[REDACTED:header:set-cookie]" }],
    });
    const { model } = learnSpecs([answer(1, "alice"), answer(2, "bob")]);
    expect(model.endpoints[0]!.explain).toBe(
      'POST /login replays the recorded sign-in answer of the user with the same "username" (2 recorded); the twin does not check credentials, and a sign-in by a user never recorded gets the first recorded answer.',
    );
    expect(model.replays[0]!.responses.map((r) => r.match)).toEqual([
      { "/username": "alice" },
      { "/username": "bob" },
    ]);
    const ep = createEpisode(model, { collections: {} }, { episodeId: "e1" });
    const signIn = (name: string) =>
      handleRequest(model, ep, {
        method: "POST",
        path: "/login",
        query: [],
        headers: {},
        body: {
          kind: "form",
          fields: [
            ["username", name],
            ["password", "x"],
          ],
        },
      }).body;
    expect([signIn("bob"), signIn("alice"), signIn("carol")]).toEqual([
      { kind: "json", value: { user: { id: 2, name: "bob" } } },
      { kind: "json", value: { user: { id: 1, name: "alice" } } },
      { kind: "json", value: { user: { id: 1, name: "alice" } } },
    ]);
  });

  it("does not key a sign-in of one user: a wrong password of the same user tells no users apart", () => {
    const { model } = learnSpecs([
      signInAs("alice@example.test", 401, { error: "invalid_credentials" }),
      signInAs("alice@example.test", 200, { token: "[REDACTED:field:token]" }),
    ]);
    expect(model.replays[0]!.responses).toEqual([
      {
        status: 200,
        headers: { "content-type": "application/json; charset=utf-8" },
        body: expect.anything(),
      },
    ]);
    expect(model.endpoints[0]!.explain).toBe(
      "POST /api/session replays the recorded sign-in answer; the twin does not check credentials.",
    );
  });

  it("is not a sign-in when the answer hands back no session: the write stays withheld", () => {
    expect(withheldOf([login(200, { ok: true })]).map((w) => w.slice(0, 2))).toEqual([
      ["post_session", "no_collection"],
    ]);
  });
});

describe("robustness", () => {
  it("warns about a truncated body and a non-JSON API answer, without crashing", () => {
    const { coverage } = learnSpecs([
      {
        path: "/api/things",
        status: 200,
        resRaw: { text: '[{"id":1', mime: "application/json", truncated: true },
      },
      { path: "/api/health", status: 200, resRaw: { text: "ok", mime: "text/html" } },
    ]);
    expect(coverage.warnings.map((w) => [w.code, w.path])).toEqual([
      ["truncated_body", "records[0].response.body"],
      ["non_json_response", "records[1].response.body"],
    ]);
    expect(coverage.reads.map((r) => [r.tool_name, r.serving])).toEqual([
      ["get_health", "replay"],
      ["get_things", "replay"],
    ]);
  });

  it("replays different answers to the same request in order", () => {
    const { model } = learnSpecs([
      { path: "/api/stats", status: 200, res: { n: 1 } },
      { path: "/api/stats", status: 200, res: { n: 2 } },
    ]);
    expect(model.replays[0]!.responses.map((r) => r.body)).toEqual([
      { encoding: "json", value: { n: 1 } },
      { encoding: "json", value: { n: 2 } },
    ]);
  });

  it("does not confirm a filter the state contradicts: the query is replayed", () => {
    const all = [
      { id: 1, done: true },
      { id: 2, done: false },
    ];
    const { model } = learnSpecs([list(all), { path: "/api/things?done=true", status: 200, res: all }]);
    expect(model.collections[0]!.filters).toEqual([]);
    expect(model.replays.map((r) => r.path_and_query)).toEqual(["/api/things?done=true"]);
  });
});

describe("rules learned from too little", () => {
  it("never learns a created id as a constant (string ids of digits, one create)", () => {
    const { model, coverage } = learnSpecs([
      list([{ id: "1", t: "a" }]),
      { method: "POST", path: "/api/things", status: 201, req: { t: "b" }, res: { id: "2", t: "b" } },
      list([
        { id: "1", t: "a" },
        { id: "2", t: "b" },
      ]),
    ]);
    expect(model.write_rules).toEqual([]);
    expect(coverage.writes.withheld.map((w) => [w.hint, w.closable])).toEqual([
      [
        'Field "id" in POST /api/things is a string id the app assigns; the twin has rules only for integer sequences and UUIDs, so no recording can close this gap: the write stays withheld',
        false,
      ],
    ]);
  });

  it("does not confirm a filter that excluded nothing (every entity matched by coincidence)", () => {
    const all = [
      { id: 1, status: "open" },
      { id: 2, status: "open" },
    ];
    const { model } = learnSpecs([list(all), { path: "/api/things?status=open", status: 200, res: all }]);
    expect(model.collections[0]!.filters).toEqual([]);
    expect(model.replays.map((r) => r.path_and_query)).toEqual(["/api/things?status=open"]);
  });

  it("does not confirm pagination from a page that cut nothing", () => {
    const all = [{ id: 1 }, { id: 2 }];
    const { model } = learnSpecs([list(all), { path: "/api/things?limit=10", status: 200, res: all }]);
    expect(model.collections[0]!.pagination).toBeNull();
    expect(model.replays.map((r) => r.path_and_query)).toEqual(["/api/things?limit=10"]);
  });

  it("keeps collection names unique when a joined name is taken too", () => {
    const { model, seed } = learnSpecs([
      { path: "/api/a/items", status: 200, res: [{ id: 1 }] },
      { path: "/api/b/items", status: 200, res: [{ id: 2 }] },
      { path: "/api/b_items", status: 200, res: [{ id: 3 }] },
    ]);
    expect(model.collections.map((c) => [c.name, c.list_endpoint])).toEqual([
      ["b_items", "get_b_items"],
      ["b_items_2", "get_b_items_2"],
      ["items", "get_a_items"],
    ]);
    expect(seed.collections).toEqual({ b_items: [{ id: 2 }], b_items_2: [{ id: 3 }], items: [{ id: 1 }] });
  });
});

describe("order of overlapping records", () => {
  const A = { id: 1, title: "A" };
  const B = { id: 1, title: "B" };
  const patch: RecordSpec = {
    method: "PATCH",
    path: "/api/things/1",
    status: 200,
    req: { title: "B" },
    res: B,
    time: T0 + 1000,
    duration: 800,
  };
  const item = (res: unknown, time: number): RecordSpec => ({
    path: "/api/things/1",
    status: 200,
    res,
    time,
  });

  it("does not judge a write by a read that started before its answer ended (it may show the old state)", () => {
    const { coverage } = learnSpecs([
      { ...list([A]), time: T0 },
      { ...item(A, T0), time: T0 + 1 },
      patch,
      item(A, T0 + 1200),
      item(B, T0 + 3000),
    ]);
    expect(coverage.writes.withheld).toEqual([]);
    expect(coverage.writes.served.map((w) => w.tool_name)).toEqual(["patch_things_by_id"]);
  });

  it("does not confirm a write by a read that overlapped it", () => {
    const { coverage } = learnSpecs([{ ...list([A]), time: T0 }, patch, item(B, T0 + 1200)]);
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason])).toEqual([
      ["patch_things_by_id", "not_read_back"],
    ]);
  });

  it("confirms a request step's write by the read of a later request step, whatever its recorded duration", () => {
    // Request steps run one after another, each awaiting its answer: the browser's timing of a 204 or a
    // loaded machine may end the write's record after the next step's read started (a real capture did).
    const step = (spec: RecordSpec, stepId: string): RecordSpec => ({
      ...spec,
      initiator: "request-step",
      stepId,
    });
    const { coverage } = learnSpecs([
      { ...list([A]), time: T0 },
      step(patch, "patch"),
      step(item(B, T0 + 1200), "read-patch"),
    ]);
    expect(coverage.writes.withheld).toEqual([]);
    expect(coverage.writes.served.map((w) => w.tool_name)).toEqual(["patch_things_by_id"]);
  });

  it("falls back to record order when the records have no times", () => {
    const untimed = [list([A]), { ...patch, time: null }, item(B, 0)].map((s) => ({ ...s, time: null }));
    expect(learnSpecs(untimed).coverage.writes.served.map((w) => w.tool_name)).toEqual([
      "patch_things_by_id",
    ]);
  });
});

describe("id field", () => {
  it("keeps id when one entity lacks it (not a foreign key unique by coincidence), and warns", () => {
    const { model, seed, coverage } = learnSpecs([
      list([
        { id: 1, owner_id: 7, title: "A" },
        { owner_id: 8, title: "B" },
      ]),
    ]);
    expect(model.collections.map((c) => c.id_field)).toEqual(["id"]);
    expect(seed.collections["things"]).toEqual([{ id: 1, owner_id: 7, title: "A" }]);
    expect(coverage.warnings.map((w) => [w.code, w.path, w.message])).toEqual([
      [
        "missing_id",
        "records[0].response.body[1]",
        'an entity of things has no id field "id"; the twin leaves it out of the seed state',
      ],
    ]);
  });

  it("prefers <singular>_id over another unique *_id", () => {
    const { model } = learnSpecs([
      list([
        { owner_id: 1, thing_id: 5, t: "a" },
        { owner_id: 2, thing_id: 6, t: "b" },
      ]),
    ]);
    expect(model.collections.map((c) => c.id_field)).toEqual(["thing_id"]);
  });

  it("requires the id to be unique in every list read, not only the first ones", () => {
    const specs = Array.from({ length: 200 }, () =>
      list([
        { id: 1, code: 10 },
        { id: 2, code: 20 },
      ]),
    );
    specs.push(
      list([
        { id: 1, code: 10 },
        { id: 1, code: 30 },
      ]),
    );
    expect(learnSpecs(specs).model.collections.map((c) => c.id_field)).toEqual([]);
  });
});

describe("post-redirect-get", () => {
  const A = { id: 1, title: "A" };
  const B = { id: 2, title: "B" };
  const formCreate = (location: string): RecordSpec => ({
    method: "POST",
    path: "/api/things",
    status: 303,
    form: { title: "B" },
    resHeaders: [{ name: "Location", value: location }],
  });

  it("judges a create answered 303 by its read-back and answers with the status and a Location template", () => {
    const { model, coverage } = learnSpecs([list([A]), formCreate("/api/things/2"), list([A, B])]);
    expect(coverage.writes.withheld).toEqual([]);
    expect(model.write_rules).toMatchObject([
      {
        tool_name: "post_things",
        kind: "create",
        status: 303,
        location: "/api/things/{id}",
        response: { kind: "empty" },
        fields: [
          { field: "id", rule: { kind: "id_sequence", start: 3, step: 1 } },
          { field: "title", rule: { kind: "from_request", pointer: "/title", otherwise: { kind: "omit" } } },
        ],
      },
    ]);
    expect(model.write_rules[0]!.explain).toBe(
      "POST /api/things creates one thing and answers 303 with no body, redirecting to /api/things/{id} (id: the next integer id (from 3, step 1), after the highest ever seen; title: taken from the request body at /title).",
    );
  });

  it("finds the entity a redirected create made as the one new id of the next full list", () => {
    const { model } = learnSpecs([list([A]), formCreate("http://127.0.0.1:4010/things"), list([A, B])]);
    expect(model.write_rules.map((r) => [r.tool_name, r.status, r.location])).toEqual([
      ["post_things", 303, "/things"],
    ]);
  });

  it("reads a Location id that is not valid percent-encoding as it is (no read shows it), never crashing learning", () => {
    const { coverage } = learnSpecs([list([A]), formCreate("/api/things/2%"), list([A, B])]);
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason])).toEqual([
      ["post_things", "not_read_back"],
    ]);
  });

  it("judges an update answered 302 by its read-back", () => {
    const { model } = learnSpecs([
      list([A]),
      { path: "/api/things/1", status: 200, res: A },
      {
        method: "PUT",
        path: "/api/things/1",
        status: 302,
        form: { title: "C" },
        resHeaders: [{ name: "location", value: "/things" }],
      },
      { path: "/api/things/1", status: 200, res: { id: 1, title: "C" } },
    ]);
    expect(model.write_rules.map((r) => [r.tool_name, r.kind, r.status, r.location])).toEqual([
      ["put_things_by_id", "replace", 302, "/things"],
    ]);
  });
});

describe("real-recording oddities", () => {
  it("learns nothing from a 304 (the browser's cache answered; the twin has no cache)", () => {
    const { model, coverage } = learnSpecs([
      { path: "/api/stats", status: 200, res: { n: 1 } },
      { path: "/api/stats", status: 304 },
    ]);
    expect(model.replays[0]!.responses.map((r) => r.status)).toEqual([200]);
    expect(coverage.counts).toEqual({ records: 2, api_records: 1, assets: 0, ignored: 1 });
  });

  it("replays a redirect with its Location", () => {
    const ev = buildEvidence([{ path: "/api/redirect-out", status: 302 }]);
    ev.records[0]!.response!.headers.push({ name: "Location", value: "http://127.0.0.1:4011/landing" });
    ev.records[0]!.response!.redirect_to = "http://127.0.0.1:4011/landing";
    expect(learnModel(ev).model.replays[0]!.responses).toEqual([
      { status: 302, headers: { location: "http://127.0.0.1:4011/landing" }, body: null },
    ]);
  });

  it("replays a redirect to the app's own origin as a path, so a browser stays on the twin", () => {
    const ev = buildEvidence([{ path: "/api/go-home", status: 302 }]);
    const to = `${new URL(ev.records[0]!.request.url).origin}/items?tab=all`;
    ev.records[0]!.response!.headers.push({ name: "Location", value: to });
    ev.records[0]!.response!.redirect_to = to;
    expect(learnModel(ev).model.replays[0]!.responses).toEqual([
      { status: 302, headers: { location: "/items?tab=all" }, body: null },
    ]);
  });
});

describe("partial updates of fields the recording never patched", () => {
  const before = { id: 1, title: "A", done: false, at: "2026-01-01T00:00:00.000Z" };
  const created = (title: string) => ({ id: 2, title, done: false, at: isoAt(1) });
  const patched = { ...before, done: true, at: isoAt(3) };
  const specs = (patchReq: unknown, patchRes: unknown): RecordSpec[] => [
    list([before]),
    { method: "POST", path: "/api/things", status: 201, req: { title: "B" }, res: created("B") },
    list([before, created("B")]),
    { method: "PATCH", path: "/api/things/1", status: 200, req: patchReq, res: patchRes },
    { path: "/api/things/1", status: 200, res: patchRes },
  ];

  it("takes a field the create sets from the request when a patch sends it, else keeps it", () => {
    const { model } = learnSpecs(specs({ done: true }, patched));
    const patch = model.write_rules.find((r) => r.tool_name === "patch_things_by_id")!;
    expect(Object.fromEntries(patch.fields.map((f) => [f.field, f.rule]))).toEqual({
      id: { kind: "keep" },
      title: {
        kind: "from_request",
        pointer: "/title",
        otherwise: { kind: "keep" },
        settable_by: "POST /api/things",
      },
      done: { kind: "from_request", pointer: "/done", otherwise: { kind: "keep" } },
      at: { kind: "clock", format: "iso" },
    });
    expect(patch.explain).toBe(
      "PATCH /api/things/{id} updates one thing and answers 200 with the entity (id: kept as it was; title: from the request when sent (settable: POST /api/things sets it), else kept; done: taken from the request body at /done, or kept as it was when the request has none; at: the episode clock, as an ISO 8601 time).",
    );
  });

  it("never widens an action (POST /things/{id}/archive), the id, or a field the app assigns", () => {
    const archived = { ...before, done: true, at: isoAt(3) };
    const { model } = learnSpecs([
      ...specs({ done: true }, patched).slice(0, 3),
      { method: "POST", path: "/api/things/1/archive", status: 200, res: archived },
      { path: "/api/things/1", status: 200, res: archived },
    ]);
    const action = model.write_rules.find((r) => r.tool_name === "post_things_archive_by_thing_id")!;
    expect(action.fields.map((f) => [f.field, f.rule.kind])).toEqual([
      ["id", "keep"],
      ["title", "keep"],
      ["done", "constant"],
      ["at", "clock"],
    ]);
  });
});

describe("validation failures confirmed by a recorded failure", () => {
  const thing = (id: number, title: string) => ({ id, title, status: "open" });
  const specs = (failReq: unknown, failRes: unknown): RecordSpec[] => [
    list([thing(1, "A")]),
    {
      method: "POST",
      path: "/api/things",
      status: 201,
      req: { title: "B", status: "open" },
      res: thing(2, "B"),
    },
    { method: "POST", path: "/api/things", status: 422, req: failReq, res: failRes },
    list([thing(1, "A"), thing(2, "B")]),
  ];

  it("learns the recorded 422 for a request blank in a field every success sent, named by the answer", () => {
    const { model, coverage } = learnSpecs(
      specs({ title: "  " }, { message: "title is required", field: "title" }),
    );
    expect(model.validations).toEqual([
      {
        tool_name: "post_things",
        field: "title",
        pointer: "/title",
        status: 422,
        content_type: "application/json; charset=utf-8",
        body: { message: "title is required", field: "title" },
        explain:
          'POST /api/things answers 422 with the recorded body when the request body lacks "title" or leaves it blank (every successful request sent it; recorded at records[2]).',
      },
    ]);
    expect(coverage.validations).toEqual([
      {
        tool_name: "post_things",
        method: "POST",
        template: "/api/things",
        field: "title",
        status: 422,
        explain: model.validations![0]!.explain,
      },
    ]);
  });

  it("learns nothing when the failed request lacks several such fields and the answer names none", () => {
    const { model, coverage } = learnSpecs(specs({}, { error: "invalid" }));
    expect(model.validations).toEqual([]);
    expect(coverage.validations).toEqual([]);
    expect(coverage.warnings.map((w) => w.code)).toEqual(["failed_write"]);
  });

  it("learns nothing from a failure that is not about a missing field (every such field was sent)", () => {
    const { model } = learnSpecs(specs({ title: "C", status: "bogus" }, { message: "bad status" }));
    expect(model.validations).toEqual([]);
  });

  it("learns nothing from an auth or not-found failure", () => {
    const { model } = learnSpecs(
      specs({ title: "" }, { message: "title" }).map((s) => (s.status === 422 ? { ...s, status: 401 } : s)),
    );
    expect(model.validations).toEqual([]);
  });
});

describe("generalisations that must not outrun the evidence", () => {
  const thing = (id: number, title: string, status = "open") => ({ id, title, status });
  const twin = (specs: RecordSpec[]) => {
    const { model, seed } = learnSpecs(specs);
    const ep = createEpisode(model, seed, { episodeId: "g" });
    return (method: string, path: string, value: unknown) =>
      handleRequest(model, ep, {
        method,
        path,
        query: [],
        headers: {},
        body: { kind: "json", value },
      });
  };

  it("does not blame a field the failure lacked when its answer names another field it sent", () => {
    const { model } = learnSpecs([
      list([thing(1, "A")]),
      {
        method: "POST",
        path: "/api/things",
        status: 201,
        req: { title: "B", status: "open" },
        res: thing(2, "B"),
      },
      {
        method: "POST",
        path: "/api/things",
        status: 422,
        req: { status: "bogus" },
        res: { message: "status must be open or done", field: "status" },
      },
      list([thing(1, "A"), thing(2, "B")]),
    ]);
    expect(model.validations).toEqual([]);
  });

  it("on a PATCH learns a failure only from a field sent blank, and never answers it to a PATCH that leaves the field out", () => {
    const done = thing(1, "A", "done");
    const specs: RecordSpec[] = [
      list([thing(1, "A")]),
      { method: "POST", path: "/api/things", status: 201, req: { title: "B" }, res: thing(2, "B") },
      list([thing(1, "A"), thing(2, "B")]),
      { method: "PATCH", path: "/api/things/1", status: 200, req: { status: "done" }, res: done },
      { path: "/api/things/1", status: 200, res: done },
      {
        method: "PATCH",
        path: "/api/things/1",
        status: 422,
        req: { status: null },
        res: { message: "status is required", field: "status" },
      },
    ];
    const { model } = learnSpecs(specs);
    expect(
      model.validations!.map((v) => [v.tool_name, v.field, v.status, v.only_when_sent, v.explain]),
    ).toEqual([
      [
        "patch_things_by_id",
        "status",
        422,
        true,
        'PATCH /api/things/{id} answers 422 with the recorded body when the request body sends "status" null or blank (a partial update may leave it out; recorded at records[5]).',
      ],
    ]);
    const send = twin(specs);
    const renamed = send("PATCH", "/api/things/1", { title: "Z" });
    expect([renamed.status, renamed.served_by, renamed.body]).toEqual([
      200,
      "state",
      { kind: "json", value: thing(1, "Z", "done") },
    ]);
    expect(send("PATCH", "/api/things/1", { status: " " }).status).toBe(422);
    // An empty PATCH refused for being empty says nothing about `status`.
    const empty: RecordSpec = { ...specs[5]!, status: 400, req: {}, res: { error: "nothing to update" } };
    expect(learnSpecs([...specs.slice(0, 5), empty]).model.validations).toEqual([]);
  });

  it("never learns an unredacted JWT under an unusual name as a constant from one create", () => {
    const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIyIn0.c2lnbmF0dXJl";
    const made = { id: 2, title: "B", access: jwt };
    const { model, coverage } = learnSpecs([
      list([{ id: 1, title: "A", access: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.b3RoZXJzaWc" }]),
      { method: "POST", path: "/api/things", status: 201, req: { title: "B" }, res: made },
      list([{ id: 1, title: "A", access: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.b3RoZXJzaWc" }, made]),
    ]);
    expect(model.write_rules).toEqual([]);
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason, w.closable])).toEqual([
      ["post_things", "unexplained_field", false],
    ]);
  });

  it("does not widen a field another update of the collection was seen to ignore", () => {
    const item = (title: string, sku: string, done = false) => ({ id: 1, title, sku, done });
    const { model } = learnSpecs([
      list([item("A", "S1")]),
      {
        method: "POST",
        path: "/api/things",
        status: 201,
        req: { title: "B", sku: "S2" },
        res: { id: 2, title: "B", sku: "S2", done: false },
      },
      list([item("A", "S1"), { id: 2, title: "B", sku: "S2", done: false }]),
      // The PUT sends a new sku and the app keeps the old one: sku is fixed once created.
      {
        method: "PUT",
        path: "/api/things/1",
        status: 200,
        req: { title: "C", sku: "S9", done: false },
        res: item("C", "S1"),
      },
      { path: "/api/things/1", status: 200, res: item("C", "S1") },
      {
        method: "PATCH",
        path: "/api/things/1",
        status: 200,
        req: { done: true },
        res: item("C", "S1", true),
      },
      { path: "/api/things/1", status: 200, res: item("C", "S1", true) },
    ]);
    const patch = model.write_rules.find((r) => r.tool_name === "patch_things_by_id")!;
    expect(Object.fromEntries(patch.fields.map((f) => [f.field, f.rule]))).toMatchObject({
      title: { kind: "from_request", settable_by: "POST /api/things" },
      sku: { kind: "keep" },
    });
  });
});
