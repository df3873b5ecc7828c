/** Sign-ins: replayed (never judged as writes), keyed by who signs in, and when an answer is not a sign-in. */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, list, withheldOf } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

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

  describe("a session refresh (issue 10 item 6)", () => {
    const cookie = [{ name: "cookie", value: "refresh=[REDACTED:header:cookie]" }];
    const refresh = (req: unknown, res: unknown): RecordSpec => ({
      method: "POST",
      path: "/api/auth/refresh",
      status: 200,
      ...(req === undefined ? {} : { req }),
      res,
      headers: cookie,
    });

    it("is replayed like a sign-in: credentials only in its headers, nothing of its own sent, a session back", () => {
      const { model, coverage } = learnSpecs([
        refresh(undefined, { access_token: "[REDACTED:field:access_token]", expires_in: 900 }),
        refresh({}, { access_token: "[REDACTED:field:access_token]", expires_in: 900 }),
      ]);
      expect(coverage.writes.withheld).toEqual([]);
      expect(coverage.sign_in!.map((s) => [s.tool_name, s.explain])).toEqual([
        [
          "post_auth_refresh",
          "POST /api/auth/refresh replays the recorded answer of a session refresh (it sent credentials only in its headers and got a session back); the twin does not check credentials.",
        ],
      ]);
      expect(model.endpoints[0]).toMatchObject({ serving: "replay", kind: "other", withheld: null });
    });

    it("is no refresh when every Set-Cookie clears its cookie (a sign-out): acknowledged when reads around agree", () => {
      const out = (clear: string): RecordSpec => ({
        method: "POST",
        path: "/api/auth/logout",
        status: 204,
        headers: cookie,
        resHeaders: [{ name: "Set-Cookie", value: clear }],
      });
      const things = list([{ id: 1, title: "A" }]);
      for (const clear of [
        "session=; Path=/; HttpOnly",
        "session=[REDACTED:header:cookie]; Max-Age=0; Path=/",
        "session=[REDACTED:header:cookie]; Expires=Thu, 01 Jan 1970 00:00:00 GMT",
      ]) {
        const { coverage } = learnSpecs([things, out(clear), things]);
        expect(coverage.sign_in, clear).toEqual([]);
        expect(
          coverage.writes.acknowledged?.map((a) => a.tool_name),
          clear,
        ).toEqual(["post_auth_logout"]);
      }
      // A cookie set for later (Expires after the answer) is a session back: a refresh.
      const later = "session=[REDACTED:header:cookie]; Expires=Thu, 31 Dec 2099 00:00:00 GMT";
      expect(learnSpecs([things, out(later), things]).coverage.sign_in!.map((x) => x.tool_name)).toEqual([
        "post_auth_logout",
      ]);
    });

    it("is refused for a bodiless POST whose cookie the app sets on its reads too (a cookie rolled on every answer)", () => {
      const rolled = [{ name: "Set-Cookie", value: "username-app=[REDACTED:header:set-cookie]; Path=/" }];
      const file = { path: "a.txt", content: "v1" };
      const { coverage } = learnSpecs([
        { path: "/api/files/a.txt", status: 200, res: file, headers: cookie, resHeaders: rolled },
        {
          method: "POST",
          path: "/api/files/a.txt/restore",
          status: 204,
          headers: cookie,
          resHeaders: rolled,
        },
        { path: "/api/files/a.txt", status: 200, res: file, headers: cookie, resHeaders: rolled },
      ]);
      expect(coverage.sign_in).toEqual([]);
      // A cookie only the write sets is still a session back.
      const own = [{ name: "Set-Cookie", value: "session=[REDACTED:header:set-cookie]; Path=/" }];
      const again = learnSpecs([
        { path: "/api/files/a.txt", status: 200, res: file, headers: cookie, resHeaders: rolled },
        { method: "POST", path: "/api/auth/refresh", status: 204, headers: cookie, resHeaders: own },
      ]);
      expect(again.coverage.sign_in!.map((x) => x.tool_name)).toEqual(["post_auth_refresh"]);
    });

    it("is refused for a write that sends content of its own, though it rolls a cookie", () => {
      const { coverage } = learnSpecs([
        {
          ...refresh({ theme: "dark" }, undefined),
          resHeaders: [{ name: "Set-Cookie", value: "[REDACTED:header:set-cookie]" }],
        },
      ]);
      expect(coverage.sign_in).toEqual([]);
      expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason])).toEqual([
        ["post_auth_refresh", "no_collection"],
      ]);
    });
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
