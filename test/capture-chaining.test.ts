/**
 * Values from earlier answers, in a real Chromium against the items app: a
 * sign-in answered with a bearer token in its body, chained into the
 * Authorization header; a create answered with a server-assigned id, read,
 * replaced and deleted through `{response, pointer}` in the path, a header
 * and a JSON body; a note created with a Location that a second note links
 * to; a CSRF header whose name is taken from a cookie named per install; an
 * HTTP Basic sign-in. The token, the password and the cookies are searched for
 * in every written byte.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ItemsApp, startItemsApp } from "../scripts/fixtures/items-app/server.mjs";
import { type CaptureOutcome, runCapture } from "../src/capture/run-capture.js";
import type { EvidenceRecord } from "../src/evidence/evidence-schema.js";
import { evidenceToHar } from "../src/evidence/har-export.js";
import { parseScenario } from "../src/scenario/parse-scenario.js";
import { canonicalJson } from "../src/util/canonical-json.js";

const PASSWORD = "chained-password-7Qx";
const BEARER = { response: "login", pointer: "/token", prefix: "Bearer " };
const CSRF = { cookie: "csrftoken" };
const ID = { response: "create", pointer: "/id" };
/** Signs in with a request step: the answer's body holds the bearer token later steps chain. */
const LOGIN = {
  step_id: "login",
  action: "request",
  method: "POST",
  path: "/api/login",
  json: { email: "admin@example.test", password: { $value: { secret: "password" } } },
  expected_status: [200],
};

let app: ItemsApp;

beforeAll(async () => {
  app = await startItemsApp({ port: 0, password: PASSWORD });
}, 60_000);

afterAll(async () => {
  await app?.close();
});

function scenario(steps: unknown[], extra: Record<string, unknown> = {}) {
  const doc = {
    schema_version: 1,
    name: "chained",
    start_url: `${app.url}/`,
    secrets: [{ id: "password", env: "CHAINED_PASSWORD" }],
    ...extra,
    steps,
  };
  return parseScenario(JSON.stringify(doc), "chained.json");
}

const capture = (s: ReturnType<typeof scenario>) =>
  runCapture({ scenario: s, env: { ...process.env, CHAINED_PASSWORD: PASSWORD } });

/** The request-step record of a step. */
function sent(outcome: CaptureOutcome, stepId: string): EvidenceRecord {
  const r = outcome.evidence.records.find((x) => x.step_id === stepId && x.initiator === "request-step");
  if (!r) throw new Error(`no request-step record for ${stepId}`);
  return r;
}

const header = (r: EvidenceRecord, name: string) => r.request.headers.find((h) => h.name === name)?.value;

/** Every credential the app saw in this capture's requests: bearer tokens, cookie values, Basic credentials. */
function liveCredentials(from: number): string[] {
  const out = new Set<string>();
  for (const r of app.requests.slice(from)) {
    const auth = r.headers["authorization"];
    if (typeof auth === "string") {
      out.add(auth.replace(/^\S+\s+/, ""));
      if (/^Basic /.test(auth)) out.add(Buffer.from(auth.slice(6), "base64").toString("utf8"));
    }
    const cookie = r.headers["cookie"];
    if (typeof cookie === "string")
      for (const part of cookie.split(";")) out.add(part.slice(part.indexOf("=") + 1).trim());
  }
  return [...out].filter((v) => v.length >= 8);
}

/** The bytes apptwin writes for an evidence: the evidence file and its HAR export. */
const written = (outcome: CaptureOutcome) =>
  canonicalJson(outcome.evidence) + JSON.stringify(evidenceToHar(outcome.evidence));

describe("values from earlier answers", () => {
  let outcome: CaptureOutcome;
  let from: number;

  beforeAll(async () => {
    from = app.requests.length;
    outcome = await capture(
      scenario([
        { step_id: "open", action: "navigate", path: "/notes" },
        LOGIN,
        {
          step_id: "create",
          action: "request",
          method: "POST",
          path: "/api/items",
          headers: { authorization: BEARER, "x-csrf-token": CSRF },
          json: { title: "Chained milk" },
          expected_status: [201],
        },
        {
          step_id: "read",
          action: "request",
          method: "GET",
          path: "/api/items/{id}",
          params: { id: ID },
          headers: { authorization: BEARER, "x-item-id": ID },
        },
        {
          step_id: "replace",
          action: "request",
          method: "PUT",
          path: "/api/items/{id}",
          params: { id: ID },
          headers: { authorization: BEARER, "x-csrf-token": CSRF },
          json: {
            id: { $value: ID },
            title: { $value: { response: "read", pointer: "/title", prefix: "Oat " } },
            done: { $value: { response: "read", pointer: "/done" } },
            note: { response: "read", pointer: "/title" },
          },
          expected_status: [200],
        },
        {
          step_id: "read-replaced",
          action: "request",
          method: "GET",
          path: "/api/items/{id}",
          params: { id: ID },
          headers: { authorization: BEARER },
        },
        {
          step_id: "delete",
          action: "request",
          method: "DELETE",
          path: "/api/items/{id}",
          params: { id: ID },
          headers: { authorization: BEARER, "x-csrf-token": CSRF },
          expected_status: [204],
        },
        {
          step_id: "read-deleted",
          action: "request",
          method: "GET",
          path: "/api/items/{id}",
          params: { id: ID },
          headers: { authorization: BEARER },
          expected_status: [404],
        },
        {
          step_id: "note-parent",
          action: "request",
          method: "POST",
          path: "/api/notes",
          headers: {
            authorization: BEARER,
            "X-CSRF-Token-{install}": { cookie_matching: "^CSRF-Token-(?<install>[0-9A-F]+)$" },
          },
          json: { title: "Parent" },
          expected_status: [201],
        },
        {
          step_id: "note-child",
          action: "request",
          method: "POST",
          path: "/api/notes",
          headers: {
            authorization: BEARER,
            "X-CSRF-Token-{install}": { cookie_matching: "^CSRF-Token-(?<install>[0-9A-F]+)$" },
          },
          json: { title: "Child", parent: { $value: { response: "note-parent", header: "location" } } },
          expected_status: [201],
        },
        {
          step_id: "read-child",
          action: "request",
          method: "GET",
          path: "/api/notes/{id}",
          params: { id: { response: "note-child", pointer: "/data/id" } },
          headers: { authorization: BEARER },
        },
      ]),
    );
  }, 120_000);

  it("passes, every chained request carrying the server-assigned id", () => {
    expect(outcome.evidence.steps.map((s) => [s.step_id, s.status, s.error])).toEqual(
      outcome.evidence.steps.map((s) => [s.step_id, "passed", null]),
    );
    expect(outcome.evidence.verdict).toBe("passed");
    const created = JSON.parse(sent(outcome, "create").response!.body!.text) as { id: number };
    expect(created.id).toBe(6);
    for (const step of ["read", "replace", "read-replaced", "delete", "read-deleted"])
      expect(new URL(sent(outcome, step).request.url).pathname, step).toBe("/api/items/6");
    expect(header(sent(outcome, "read"), "x-item-id")).toBe("6");
  });

  it("keeps a chained number a number in a JSON body, a prefix makes it text, and a plain object stays as written", () => {
    expect(JSON.parse(sent(outcome, "replace").request.body!.text)).toEqual({
      id: 6,
      title: "Oat Chained milk",
      done: false,
      note: { response: "read", pointer: "/title" },
    });
    expect(JSON.parse(sent(outcome, "read-replaced").response!.body!.text)).toMatchObject({
      id: 6,
      title: "Oat Chained milk",
    });
    expect(sent(outcome, "read-deleted").response!.status).toBe(404);
  });

  it("chains a Location into a JSON body and sends the CSRF header named after the install's cookie", () => {
    const parent = sent(outcome, "note-parent");
    expect(parent.response!.headers.find((h) => h.name.toLowerCase() === "location")?.value).toBe(
      "/api/notes/1",
    );
    expect(parent.request.headers.map((h) => h.name)).toContain(
      `x-csrf-token-${app.installId.toLowerCase()}`,
    );
    expect(JSON.parse(sent(outcome, "note-child").request.body!.text)).toEqual({
      title: "Child",
      parent: "/api/notes/1",
    });
    expect(JSON.parse(sent(outcome, "read-child").response!.body!.text)).toEqual({
      data: { id: 2, title: "Child", parent: "/api/notes/1" },
    });
  });

  it("keeps the bearer token taken from the login answer, the password and the cookies out of every written byte", () => {
    const creds = liveCredentials(from);
    const bearer = app.requests
      .slice(from)
      .map((r) => r.headers["authorization"])
      .find((a): a is string => typeof a === "string");
    expect(bearer).toMatch(/^Bearer [A-Za-z0-9_-]{43}$/);
    expect(creds.length).toBeGreaterThanOrEqual(3);
    const bytes = written(outcome);
    for (const secret of [PASSWORD, ...creds]) expect(bytes).not.toContain(secret);
    expect(header(sent(outcome, "create"), "authorization")).toBe("[REDACTED:header:authorization]");
    expect(JSON.parse(sent(outcome, "login").response!.body!.text).token).toBe("[REDACTED:field:token]");
  });
});

describe("failing to read a value from an earlier answer", () => {
  it("fails the step naming the step, the pointer and what the answer held at the nearest pointer; nothing is sent", async () => {
    const before = app.requests.length;
    const outcome = await capture(
      scenario([
        { step_id: "open", action: "navigate", path: "/notes" },
        LOGIN,
        {
          step_id: "read",
          action: "request",
          method: "GET",
          path: "/api/items/{id}",
          params: { id: { response: "login", pointer: "/user/profile/id" } },
          headers: { authorization: BEARER },
        },
        { step_id: "after", action: "navigate", path: "/notes" },
      ]),
    );
    expect(outcome.evidence.verdict).toBe("failed");
    expect(outcome.evidence.steps[2]!.error).toBe(
      'params.id: the answer of step "login" has nothing at /user/profile/id; at /user it holds an object with the keys id, email, name; nothing was sent',
    );
    expect(outcome.evidence.steps[3]!.status).toBe("cancelled");
    expect(app.requests.slice(before).map((r) => r.url)).not.toContain("/api/items/undefined");
    expect(app.requests.slice(before).filter((r) => r.url.startsWith("/api/items"))).toEqual([]);
  }, 60_000);

  it("fails a header whose cookie pattern matches no cookie, listing the cookies' names", async () => {
    const outcome = await capture(
      scenario([
        { step_id: "open", action: "navigate", path: "/notes" },
        {
          step_id: "write",
          action: "request",
          method: "POST",
          path: "/api/notes",
          headers: { "X-CSRF-{x}": { cookie_matching: "^XSRF-(?<x>.+)$" } },
          json: { title: "x" },
        },
      ]),
    );
    expect(outcome.evidence.steps[1]!.error).toBe(
      `header X-CSRF-{x}: no cookie of ${app.origin} has a name matching /^XSRF-(?<x>.+)$/ (cookies: CSRF-Token-${app.installId}); nothing was sent`,
    );
  }, 60_000);
});

describe("HTTP Basic sign-in", () => {
  it("signs in to the start origin only, and the password never reaches the evidence", async () => {
    const from = app.requests.length;
    const otherFrom = app.other.requests.length;
    const outcome = await capture(
      scenario(
        [
          { step_id: "open", action: "navigate", path: "/basic/" },
          { step_id: "signed-in", action: "expect-text", text: "You are admin" },
          { step_id: "whoami", action: "request", method: "GET", path: "/basic/api/whoami" },
        ],
        { http_credentials: { username: "admin", password: { secret: "password" } } },
      ),
    );
    expect(outcome.evidence.steps.map((s) => s.error)).toEqual([null, null, null]);
    // The page reads /challenge from the other origin, which the scenario does not allow: warned, incomplete (issue 13).
    expect(outcome.evidence.verdict).toBe("incomplete");
    expect([
      ...new Set(
        outcome.evidence.warnings.filter((w) => w.code === "origin_not_allowed").map((w) => w.message),
      ),
    ]).toEqual([expect.stringContaining(`from ${app.other.origin} (GET)`)]);
    expect(JSON.parse(sent(outcome, "whoami").response!.body!.text)).toEqual({ user: "admin", via: "basic" });
    const basic = app.requests
      .slice(from)
      .map((r) => r.headers["authorization"])
      .filter((a) => typeof a === "string");
    expect(basic.length).toBeGreaterThan(0);
    const challenged = app.other.requests.slice(otherFrom).filter((r) => r.url === "/challenge");
    expect(challenged.length).toBeGreaterThan(0);
    expect(challenged.map((r) => r.headers["authorization"] ?? null)).toEqual(challenged.map(() => null));
    const bytes = written(outcome);
    for (const secret of [PASSWORD, ...liveCredentials(from)]) expect(bytes).not.toContain(secret);
    const page = outcome.evidence.records.find((r) => new URL(r.request.url).pathname === "/basic/");
    expect(page?.response?.status).toBe(200);
  }, 60_000);

  it("sends them unasked on a request step, where an API answers a bare 401 that no browser answers", async () => {
    const from = app.requests.length;
    const outcome = await capture(
      scenario(
        [
          { step_id: "open", action: "navigate", path: "/" },
          { step_id: "whoami", action: "request", method: "GET", path: "/basic-api/whoami" },
          {
            step_id: "own",
            action: "request",
            method: "GET",
            path: "/basic-api/whoami",
            headers: { Authorization: { secret: "password", prefix: "Bearer " } },
            expected_status: [401],
          },
        ],
        { http_credentials: { username: "admin", password: { secret: "password" } } },
      ),
    );
    expect(outcome.evidence.steps.map((s) => s.error)).toEqual([null, null, null]);
    expect(JSON.parse(sent(outcome, "whoami").response!.body!.text)).toEqual({
      user: "admin",
      via: "basic-api",
    });
    // A step's own Authorization wins: the credentials are never added beside it.
    const seen = app.requests.slice(from).filter((r) => r.url === "/basic-api/whoami");
    expect(seen.map((r) => r.headers["authorization"])).toEqual([
      `Basic ${Buffer.from(`admin:${PASSWORD}`).toString("base64")}`,
      `Bearer ${PASSWORD}`,
    ]);
    const bytes = written(outcome);
    for (const secret of [
      PASSWORD,
      ...liveCredentials(from).filter((c) => c.includes(PASSWORD) || c.length > 12),
    ])
      expect(bytes).not.toContain(secret);
    expect(bytes).not.toContain(Buffer.from(`admin:${PASSWORD}`).toString("base64"));
  }, 60_000);

  it("adds nothing when the scenario has no http_credentials", async () => {
    const outcome = await capture(
      scenario([
        { step_id: "open", action: "navigate", path: "/" },
        {
          step_id: "whoami",
          action: "request",
          method: "GET",
          path: "/basic-api/whoami",
          expected_status: [401],
        },
      ]),
    );
    expect(outcome.evidence.steps.map((s) => s.error)).toEqual([null, null]);
    expect(header(sent(outcome, "whoami"), "authorization") ?? null).toBeNull();
  }, 60_000);
});
