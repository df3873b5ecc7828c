import { describe, expect, it } from "vitest";
import { BOARDS_SEED_STATE, boardsModel } from "../../../test/fixtures/models/boards-twin.js";
import { ITEMS_SEED_STATE, itemsModel } from "../../../test/fixtures/models/items-twin.js";
import { endpoint } from "../../../test/fixtures/models/model-builders.js";
import { learnSpecs } from "../../../test/support/learn-specs.js";
import { createEpisode, episodeState, resetEpisode } from "./create-episode.js";
import { diffState } from "./diff-state.js";
import { handleRequest } from "./handle-request.js";
import type { TwinRequest } from "./twin-types.js";

const req = (method: string, path: string, extra: Partial<TwinRequest> = {}): TwinRequest => ({
  method,
  path,
  query: [],
  headers: {},
  body: null,
  ...extra,
});
const json = (value: unknown) => ({ kind: "json" as const, value });

describe("handleRequest on the items model", () => {
  const model = itemsModel();

  it("lists from state with the {data,total} envelope, filter and pagination", () => {
    const ep = createEpisode(model, ITEMS_SEED_STATE, { episodeId: "e1" });
    const all = handleRequest(model, ep, req("GET", "/api/items"));
    expect(all.status).toBe(200);
    expect(all.served_by).toBe("state");
    expect((all.body as { value: { total: number } }).value.total).toBe(5);
    const done = handleRequest(
      model,
      ep,
      req("GET", "/api/items", {
        query: [
          ["done", "true"],
          ["limit", "1"],
        ],
      }),
    );
    expect(done.body).toEqual({
      kind: "json",
      value: { data: [ITEMS_SEED_STATE.collections.items![1]], total: 2 },
    });
    const page = handleRequest(
      model,
      ep,
      req("GET", "/api/items/", {
        query: [
          ["offset", "3"],
          ["limit", "5"],
        ],
      }),
    );
    expect((page.body as { value: { data: { id: number }[] } }).value.data.map((i) => i.id)).toEqual([4, 5]);
  });

  it("reads an item and answers the recorded not-found for an unknown id", () => {
    const ep = createEpisode(model, ITEMS_SEED_STATE, { episodeId: "e1" });
    expect(handleRequest(model, ep, req("GET", "/api/items/3")).body).toEqual(
      json(ITEMS_SEED_STATE.collections.items![2]),
    );
    const miss = handleRequest(model, ep, req("GET", "/api/items/99"));
    expect([miss.status, miss.body, miss.served_by]).toEqual([404, json({ error: "not_found" }), "state"]);
  });

  it("creates with the id sequence and the episode clock, then reads it back", () => {
    const ep = createEpisode(model, ITEMS_SEED_STATE, { episodeId: "e1" });
    const created = handleRequest(model, ep, req("POST", "/api/items", { body: json({ title: "Milk" }) }));
    expect(created.status).toBe(201);
    expect(created.headers["content-type"]).toBe("application/json");
    expect(created.body).toEqual(
      json({
        id: 6,
        title: "Milk",
        done: false,
        created_at: "2026-03-01T12:00:01.000Z",
        updated_at: "2026-03-01T12:00:01.000Z",
      }),
    );
    expect(handleRequest(model, ep, req("GET", "/api/items/6")).body).toEqual(created.body);
    const second = handleRequest(
      model,
      ep,
      req("POST", "/api/items", { body: json({ title: "Eggs", done: true }) }),
    );
    expect(second.body).toMatchObject(json({ id: 7, done: true, created_at: "2026-03-01T12:00:02.000Z" }));
  });

  it("patches (merge), puts (replace, keeping created_at) and deletes in the app's key order", () => {
    const ep = createEpisode(model, ITEMS_SEED_STATE, { episodeId: "e1" });
    const patched = handleRequest(model, ep, req("PATCH", "/api/items/1", { body: json({ done: true }) }));
    expect(JSON.stringify((patched.body as { value: unknown }).value)).toBe(
      '{"id":1,"title":"Buy coffee beans","done":true,"created_at":"2026-01-05T09:00:00.000Z","updated_at":"2026-03-01T12:00:01.000Z"}',
    );
    const put = handleRequest(
      model,
      ep,
      req("PUT", "/api/items/2", { body: json({ title: "Passport", done: false }) }),
    );
    expect(put.body).toEqual(
      json({
        id: 2,
        title: "Passport",
        done: false,
        created_at: "2026-01-12T14:30:00.000Z",
        updated_at: "2026-03-01T12:00:02.000Z",
      }),
    );
    const del = handleRequest(model, ep, req("DELETE", "/api/items/3"));
    expect([del.status, del.body, del.headers]).toEqual([204, null, {}]);
    expect(handleRequest(model, ep, req("GET", "/api/items/3")).status).toBe(404);
    expect(handleRequest(model, ep, req("DELETE", "/api/items/3")).status).toBe(404);
  });

  it("replays in order, the last answer repeating, with the query normalised", () => {
    const ep = createEpisode(model, ITEMS_SEED_STATE, { episodeId: "e1" });
    const q: [string, string][] = [
      ["range", "week"],
      ["tz", "UTC"],
    ];
    const answers = [1, 2, 3].map(() =>
      handleRequest(model, ep, req("GET", "/api/items/summary", { query: q })),
    );
    expect(answers.map((a) => (a.body as { value: { open: number } }).value.open)).toEqual([3, 4, 4]);
    expect(answers[0]!.served_by).toBe("replay");
    expect(answers[0]!.headers["content-type"]).toBe("application/json");
  });

  it("explains a replayed route asked with an unrecorded query", () => {
    const ep = createEpisode(model, ITEMS_SEED_STATE, { episodeId: "e1" });
    const miss = handleRequest(model, ep, req("GET", "/api/items/summary", { query: [["range", "day"]] }));
    // A 501, never a 404: the app has the route, and a client would take a 404 for its not-found.
    expect(miss.status).toBe(501);
    expect(miss.served_by).toBe("miss");
    expect(miss.body).toEqual(
      json({
        error: "unrecorded_request",
        message:
          'GET /api/items/summary with query parameter "range" matches GET /api/items/summary, but no answer was recorded for this exact request, and this route is answered only by replaying recorded requests: what the app answers to it is unknown; the recorded ones are listed in "recorded"',
        request: "GET /api/items/summary",
        route: "GET /api/items/summary",
        recorded: ["GET /api/items/summary?range=week&tz=UTC"],
        hint: "Record this request in a scenario (or record GET /api/items/summary so that a rule of the twin is confirmed), then rebuild.",
      }),
    );
  });

  it("prefers a literal segment over a parameter", () => {
    const ep = createEpisode(model, ITEMS_SEED_STATE, { episodeId: "e1" });
    expect(handleRequest(model, ep, req("POST", "/api/items/archive")).status).toBe(501);
  });

  it("answers a withheld endpoint with 501, the reason and the hint", () => {
    const ep = createEpisode(model, ITEMS_SEED_STATE, { episodeId: "e1" });
    const res = handleRequest(model, ep, req("POST", "/api/items/archive", { body: json({}) }));
    expect(res).toEqual({
      status: 501,
      headers: { "content-type": "application/json" },
      body: json({
        error: "not_served",
        message:
          "apptwin does not serve POST /api/items/archive: the recording did not prove its effect (not_read_back).",
        reason: "not_read_back",
        hint: "After POST /api/items/archive, read GET /api/items back in the same scenario, then rebuild.",
      }),
      served_by: "withheld",
      rule: "post_items_archive",
    });
  });

  it("answers a miss with every route and the nearest", () => {
    const ep = createEpisode(model, ITEMS_SEED_STATE, { episodeId: "e1" });
    const res = handleRequest(model, ep, req("GET", "/api/itemz/4"));
    expect(res.status).toBe(404);
    expect(res.served_by).toBe("miss");
    expect(res.body).toEqual(
      json({
        error: "no_route",
        message: "No route of this twin serves GET /api/itemz/4. The nearest route is GET /api/items/{id}.",
        request: "GET /api/itemz/4",
        nearest: "GET /api/items/{id}",
        routes: [
          "DELETE /api/items/{id}",
          "GET /api/items",
          "GET /api/items/summary",
          "GET /api/items/{id}",
          "PATCH /api/items/{id}",
          "POST /api/items",
          "POST /api/items/archive",
          "POST /api/login",
          "PUT /api/items/{id}",
        ],
      }),
    );
  });
});

describe("episodes", () => {
  const model = itemsModel();
  const calls = [
    req("POST", "/api/items", { body: json({ title: "Milk" }) }),
    req("PATCH", "/api/items/6", { body: json({ done: true }) }),
    req("DELETE", "/api/items/2"),
    req("GET", "/api/items", { query: [["limit", "10"]] }),
  ];

  it("give byte-identical answers to the same calls on two fresh episodes", () => {
    const run = () => {
      const ep = createEpisode(model, ITEMS_SEED_STATE, { episodeId: "same" });
      return JSON.stringify(calls.map((c) => handleRequest(model, ep, c)));
    };
    expect(run()).toBe(run());
  });

  it("do not see each other's writes, and never touch the seed", () => {
    const a = createEpisode(model, ITEMS_SEED_STATE, { episodeId: "a" });
    const b = createEpisode(model, ITEMS_SEED_STATE, { episodeId: "b" });
    handleRequest(model, a, calls[0]!);
    expect(episodeState(a).collections.items).toHaveLength(6);
    expect(episodeState(b).collections.items).toHaveLength(5);
    expect(ITEMS_SEED_STATE.collections.items).toHaveLength(5);
  });

  it("reset returns the seed, and diff lists exactly the changes", () => {
    const ep = createEpisode(model, ITEMS_SEED_STATE, { episodeId: "a" });
    for (const c of calls) handleRequest(model, ep, c);
    const changes = diffState(ITEMS_SEED_STATE, episodeState(ep));
    expect(changes.map((c) => [c.collection, c.id, c.kind, c.fields])).toEqual([
      ["items", "2", "deleted", undefined],
      ["items", "6", "created", undefined],
    ]);
    handleRequest(model, ep, req("PATCH", "/api/items/1", { body: json({ title: "Beans" }) }));
    expect(diffState(ITEMS_SEED_STATE, episodeState(ep))[0]).toMatchObject({
      id: "1",
      kind: "updated",
      fields: ["title", "updated_at"],
    });
    resetEpisode(model, ep);
    expect(episodeState(ep)).toEqual(ITEMS_SEED_STATE);
    const again = handleRequest(model, ep, calls[0]!);
    expect(again.body).toMatchObject(json({ id: 6, created_at: "2026-03-01T12:00:01.000Z" }));
  });
});

describe("a write answered with a redirect (post-redirect-get)", () => {
  it("answers the learned status with the Location filled from the created entity", () => {
    const base = itemsModel();
    const model = {
      ...base,
      write_rules: base.write_rules.map((r) =>
        r.tool_name === "post_items"
          ? { ...r, status: 303, response: { kind: "empty" as const }, location: "/items/{id}" }
          : r,
      ),
    };
    const ep = createEpisode(model, ITEMS_SEED_STATE, { episodeId: "prg" });
    const created = handleRequest(model, ep, req("POST", "/api/items", { body: json({ title: "Tea" }) }));
    expect(created.status).toBe(303);
    expect(created.body).toBeNull();
    const id = episodeState(ep).collections.items!.at(-1)!.id;
    expect(id).toBe(model.id_sequences.items);
    expect(created.headers).toEqual({ location: `/items/${id}` });
  });
});

describe("nested UUID collections", () => {
  const model = boardsModel();

  it("lists only the parent's entities in field order and creates with a v4 UUID from the episode PRNG", () => {
    const ep = createEpisode(model, BOARDS_SEED_STATE, { episodeId: "x", seed: 7 });
    const list = handleRequest(model, ep, req("GET", "/api/boards/A/cards"));
    expect((list.body as { value: { title: string }[] }).value.map((c) => c.title)).toEqual([
      "Fix login",
      "Write notes",
    ]);
    const created = handleRequest(
      model,
      ep,
      req("POST", "/api/boards/A/cards", { body: { kind: "form", fields: [["title", "New"]] } }),
    );
    const card = (created.body as { value: { card: Record<string, unknown> } }).value.card;
    expect(card.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(card).toMatchObject({ board_id: "A", title: "New", created_ms: 1_735_689_600_500 });
    const item = handleRequest(model, ep, req("GET", `/api/boards/A/cards/${card.id}`));
    expect(item.body).toEqual(json({ card }));
    expect(handleRequest(model, ep, req("GET", `/api/boards/B/cards/${card.id}`)).status).toBe(404);
    const createIn = (episodeId: string, seed: number) =>
      (
        handleRequest(
          model,
          createEpisode(model, BOARDS_SEED_STATE, { episodeId, seed }),
          req("POST", "/api/boards/A/cards", { body: { kind: "form", fields: [["title", "New"]] } }),
        ).body as { value: { card: { id: string } } }
      ).value.card.id;
    // Same seed, another name: the same UUID (same calls, same answers); another seed: another UUID.
    expect(createIn("y", 7)).toBe(card.id);
    expect(createIn("x", 8)).not.toBe(card.id);
  });
});

describe("validation failures the recording confirmed", () => {
  const invalid = { message: "title is required", field: "title" };
  const validation = {
    field: "title",
    pointer: "/title",
    status: 422,
    content_type: "application/json; charset=utf-8",
    body: invalid,
    explain: "answers 422 when title is missing or blank",
  };
  const form = (fields: [string, string][]) => ({ body: { kind: "form" as const, fields } });

  it("answers the recorded 422 to a body missing or blank in the field, before the write (state and clock untouched)", () => {
    const model = {
      ...boardsModel(),
      validations: [{ tool_name: "post_boards_cards_by_board_id", ...validation }],
    };
    const ep = createEpisode(model, BOARDS_SEED_STATE, { episodeId: "v" });
    const clock = ep.clock_ms;
    for (const body of [form([["title", "  "]]), form([]), form([["status", "todo"]])]) {
      expect(handleRequest(model, ep, req("POST", "/api/boards/A/cards", body))).toEqual({
        status: 422,
        headers: { "content-type": "application/json; charset=utf-8" },
        body: json(invalid),
        served_by: "validation",
        rule: "post_boards_cards_by_board_id",
      });
    }
    expect([ep.clock_ms, diffState(BOARDS_SEED_STATE, episodeState(ep))]).toEqual([clock, []]);
    const ok = handleRequest(model, ep, req("POST", "/api/boards/A/cards", form([["title", "New"]])));
    expect([ok.status, ok.served_by]).toEqual([201, "state"]);
  });

  it("answers it on a withheld endpoint too, and the 501 to a valid request", () => {
    const model = { ...itemsModel(), validations: [{ tool_name: "post_items_archive", ...validation }] };
    const ep = createEpisode(model, ITEMS_SEED_STATE, { episodeId: "v" });
    const bad = handleRequest(model, ep, req("POST", "/api/items/archive", { body: json({ title: "" }) }));
    expect([bad.status, bad.body, bad.served_by]).toEqual([422, json(invalid), "validation"]);
    const good = handleRequest(model, ep, req("POST", "/api/items/archive", { body: json({ title: "x" }) }));
    expect([good.status, good.served_by]).toEqual([501, "withheld"]);
    // A request with no object body is not judged: the app's answer to it was never recorded.
    expect(handleRequest(model, ep, req("POST", "/api/items/archive")).status).toBe(501);
  });
});

describe("a merge rule widened to a field the create sets (settable_by)", () => {
  it("changes the field when the patch sends it and keeps it otherwise", () => {
    const base = itemsModel();
    const model = {
      ...base,
      write_rules: base.write_rules.map((w) =>
        w.tool_name !== "patch_items_by_id"
          ? w
          : {
              ...w,
              fields: [
                {
                  field: "title",
                  rule: {
                    kind: "from_request" as const,
                    pointer: "/title",
                    otherwise: { kind: "keep" as const },
                    settable_by: "POST /api/items",
                  },
                },
                {
                  field: "done",
                  rule: {
                    kind: "from_request" as const,
                    pointer: "/done",
                    otherwise: { kind: "keep" as const },
                  },
                },
              ],
            },
      ),
    };
    const ep = createEpisode(model, ITEMS_SEED_STATE, { episodeId: "s" });
    const before = ITEMS_SEED_STATE.collections.items![2]!;
    const titled = handleRequest(model, ep, req("PATCH", "/api/items/3", { body: json({ title: "x" }) }));
    expect(titled.body).toEqual(json({ ...before, title: "x" }));
    const done = handleRequest(
      model,
      ep,
      req("PATCH", "/api/items/3", { body: json({ done: !before.done }) }),
    );
    expect(done.body).toEqual(json({ ...before, title: "x", done: !before.done }));
  });
});

describe("a sign-in keyed by who signs in (responses with a match)", () => {
  const answer = (status: number, value: unknown, match?: Record<string, string>) => ({
    status,
    headers: { "content-type": "application/json" },
    body: { encoding: "json" as const, value },
    ...(match ? { match } : {}),
  });
  const alice = { user: { id: 1, email: "alice@x.test" } };
  const alice2 = { user: { id: 1, email: "alice@x.test" }, again: true };
  const bob = { user: { id: 2, email: "bob@x.test" } };
  const refusal = { error: "invalid_credentials" };
  const withLogin = (responses: ReturnType<typeof answer>[]) => {
    const base = itemsModel();
    return {
      ...base,
      replays: base.replays.map((r) => (r.tool_name === "post_login" ? { ...r, responses } : r)),
    };
  };
  const signIn = (body: TwinRequest["body"]) => req("POST", "/api/login", { body });
  const answerValue = (r: { body: unknown }) => (r.body as { value: unknown }).value;

  it("answers the response whose match fits the JSON or form body, in order per user, else the refusal", () => {
    const model = withLogin([
      answer(200, alice, { "/email": "alice@x.test" }),
      answer(200, bob, { "/email": "bob@x.test" }),
      answer(200, alice2, { "/email": "alice@x.test" }),
      answer(401, refusal),
    ]);
    const ep = createEpisode(model, ITEMS_SEED_STATE, { episodeId: "s" });
    const answers = [
      signIn(json({ email: "bob@x.test", password: "p" })),
      signIn({ kind: "form", fields: [["email", "alice@x.test"]] }),
      signIn(json({ email: "alice@x.test" })),
      signIn(json({ email: "alice@x.test" })),
      signIn(json({ email: "carol@x.test", password: "p" })),
      signIn(json({ password: "p" })),
      signIn(null),
    ].map((r) => handleRequest(model, ep, r));
    expect(answers.map((a) => [a.status, answerValue(a), a.served_by])).toEqual([
      [200, bob, "replay"],
      [200, alice, "replay"],
      [200, alice2, "replay"],
      [200, alice2, "replay"],
      [401, refusal, "replay"],
      [401, refusal, "replay"],
      [401, refusal, "replay"],
    ]);
  });

  it("answers a user never recorded with the first recorded answer when no refusal was recorded", () => {
    const model = withLogin([
      answer(200, alice, { "/email": "alice@x.test" }),
      answer(200, bob, { "/email": "bob@x.test" }),
    ]);
    const ep = createEpisode(model, ITEMS_SEED_STATE, { episodeId: "s" });
    const answers = ["bob@x.test", "carol@x.test", "carol@x.test", "bob@x.test"].map((email) =>
      handleRequest(model, ep, signIn(json({ email }))),
    );
    expect(answers.map((a) => [a.status, answerValue(a)])).toEqual([
      [200, bob],
      [200, alice],
      [200, alice],
      [200, bob],
    ]);
  });
});

describe("a state-backed read with a query parameter learning never confirmed", () => {
  const base = itemsModel();
  // `q` was recorded once (`?q=milk`) and never confirmed as a filter: its one answer is replayed.
  const model = {
    ...base,
    endpoints: base.endpoints.map((e) =>
      e.tool_name === "get_items"
        ? { ...e, params: [...e.params, { name: "q", in: "query" as const, schema: { type: "string" } }] }
        : e,
    ),
    replays: [
      ...base.replays,
      {
        method: "GET",
        path_and_query: "/api/items?q=milk",
        tool_name: "get_items",
        responses: [
          {
            status: 200,
            headers: { "content-type": "application/json" },
            body: { encoding: "json" as const, value: { data: [], total: 0 } },
          },
        ],
      },
    ],
  };

  it("replays the exact recorded request", () => {
    const ep = createEpisode(model, ITEMS_SEED_STATE, { episodeId: "e1" });
    const hit = handleRequest(model, ep, req("GET", "/api/items", { query: [["q", "milk"]] }));
    expect([hit.status, hit.served_by, hit.body]).toEqual([
      200,
      "replay",
      { kind: "json", value: { data: [], total: 0 } },
    ]);
  });

  it("answers anything else with an unlearned_query miss naming the parameter, never the whole list", () => {
    const ep = createEpisode(model, ITEMS_SEED_STATE, { episodeId: "e1" });
    const miss = handleRequest(
      model,
      ep,
      req("GET", "/api/items", {
        query: [
          ["q", "eggs"],
          ["done", "true"],
        ],
      }),
    );
    expect([miss.status, miss.served_by, miss.rule]).toEqual([501, "miss", "get_items"]);
    expect(miss.body).toEqual(
      json({
        error: "unlearned_query",
        message:
          'GET /api/items?q=eggs&done=true holds query parameter "q" whose meaning the recording never confirmed, and this exact request was not recorded; apptwin does not guess an answer.',
        request: "GET /api/items?q=eggs&done=true",
        route: "GET /api/items",
        unlearned: [
          {
            param: "q",
            seen: ["milk"],
            explain:
              'the recording sent "q" ("milk") but no confirmed rule (filter, search, sort, page, projection, no effect) fits this value',
          },
        ],
        hint: 'Record reads of GET /api/items with "q" (several values, at least one that leaves something out), after a read of it without them, so learning can confirm the meaning against the state; then rebuild the bundle.',
        recorded: ["GET /api/items?q=milk"],
      }),
    );
    const never = handleRequest(model, ep, req("GET", "/api/items", { query: [["search", "zzz"]] }));
    expect([never.status, (never.body as { value: { unlearned: unknown } }).value.unlearned]).toEqual([
      501,
      [{ param: "search", seen: [], explain: 'the recording never sent "search" to GET /api/items' }],
    ]);
  });

  it("explains an item read with a query too, instead of answering the bare item", () => {
    const ep = createEpisode(model, ITEMS_SEED_STATE, { episodeId: "e1" });
    const miss = handleRequest(model, ep, req("GET", "/api/items/3", { query: [["expand", "owner"]] }));
    expect([miss.status, miss.served_by, (miss.body as { value: { error: string } }).value.error]).toEqual([
      501,
      "miss",
      "unlearned_query",
    ]);
  });
});

describe("a collection read the way a real app shows it", () => {
  const base = itemsModel();
  const projects = [
    { id: 1, identifier: "website", name: "Website", homepage: "https://example.test" },
    { id: 2, identifier: "mobile-app", name: "Mobile App" },
    { id: 3, identifier: "docs", name: "Docs" },
  ];
  const model = {
    ...base,
    endpoints: [
      endpoint({
        tool_name: "get_projects",
        method: "GET",
        template: "/projects.json",
        kind: "list",
        collection: "projects",
        serving: "state",
      }),
      endpoint({
        tool_name: "get_projects_by_id",
        method: "GET",
        template: "/projects/{id}.json",
        kind: "item",
        collection: "projects",
        serving: "state",
      }),
    ],
    collections: [
      {
        ...base.collections[0]!,
        name: "projects",
        list_endpoint: "get_projects",
        item_endpoint: "get_projects_by_id",
        alt_id_fields: ["identifier"],
        envelope: {
          kind: "object" as const,
          items_key: "projects",
          total_key: "total_count",
          constants: { offset: 0 },
          echoes: { limit: { param: "limit", default: 25 } },
        },
        item_envelope: { kind: "object" as const, item_key: "project" },
        list_view: { omit: ["homepage"], nulls: [], defaults: { homepage: "" } },
        filters: [],
        pagination: null,
        query: { rules: [{ kind: "limit" as const, path: ["limit"], explain: "" }], default_filter: [] },
        not_found: null,
      },
    ],
    write_rules: [],
    replays: [],
  };
  const seed = { collections: { projects } };

  it("lists in the list's own view, echoing the limit the request sent", () => {
    const ep = createEpisode(model, seed, { episodeId: "p1" });
    const page = handleRequest(model, ep, req("GET", "/projects.json", { query: [["limit", "2"]] }));
    expect(page.body).toEqual(
      json({
        offset: 0,
        projects: [
          { id: 1, identifier: "website", name: "Website" },
          { id: 2, identifier: "mobile-app", name: "Mobile App" },
        ],
        total_count: 3,
        limit: 2,
      }),
    );
    const all = handleRequest(model, ep, req("GET", "/projects.json"));
    expect((all.body as { value: { limit: number } }).value.limit).toBe(25);
  });

  it("reads an item by either of its ids, with the field lists leave out (its one recorded value when never read)", () => {
    const ep = createEpisode(model, seed, { episodeId: "p2" });
    expect(handleRequest(model, ep, req("GET", "/projects/website.json")).body).toEqual(
      json({ project: projects[0] }),
    );
    expect(handleRequest(model, ep, req("GET", "/projects/2.json")).body).toEqual(
      json({ project: { ...projects[1], homepage: "" } }),
    );
    expect(handleRequest(model, ep, req("GET", "/projects/nope.json")).status).toBe(404);
  });
});

describe("a write with fields no accepted request sent", () => {
  const { model, seed } = learnSpecs([
    { path: "/api/notes", status: 200, res: [{ id: 1, title: "A" }] },
    { method: "POST", path: "/api/notes", status: 201, req: { title: "B" }, res: { id: 2, title: "B" } },
    {
      path: "/api/notes",
      status: 200,
      res: [
        { id: 1, title: "A" },
        { id: 2, title: "B" },
      ],
    },
  ]);
  const post = (value: unknown) =>
    handleRequest(
      model,
      createEpisode(model, seed, { episodeId: "x" }),
      req("POST", "/api/notes", { body: json(value) }),
    );

  it("answers 501 unlearned_field naming the fields no accepted request sent, and writes nothing", () => {
    const episode = createEpisode(model, seed, { episodeId: "x" });
    const refused = handleRequest(
      model,
      episode,
      req("POST", "/api/notes", { body: json({ title: "x", id: 99, color: "red" }) }),
    );
    expect([refused.status, refused.served_by, refused.rule]).toEqual([501, "miss", "post_notes"]);
    expect(refused.body).toEqual(
      json({
        error: "unlearned_field",
        message:
          'POST /api/notes: no accepted POST /api/notes in the recording sets "color", "id", and no confirmed rule shows them settable there; the twin does not know whether the app sets, ignores or refuses them, so it writes nothing.',
        hint: 'Record a POST /api/notes that sends "color", "id" and a read of the notes after it (or the app\'s refusal of such a body), then rebuild the bundle.',
        fields: ["color", "id"],
      }),
    );
    expect(
      (handleRequest(model, episode, req("GET", "/api/notes")).body as { value: unknown[] }).value,
    ).toHaveLength(2);
  });

  it("writes a body of recorded fields", () => {
    const created = post({ title: "x" });
    expect([created.status, (created.body as { value: unknown }).value]).toEqual([
      201,
      { id: 3, title: "x" },
    ]);
  });
});
