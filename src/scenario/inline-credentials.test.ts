import { describe, expect, it } from "vitest";
import { credentialShape } from "./credential-shape.js";
import { findInlineCredentials, isCredentialName } from "./inline-credentials.js";

const DECLARE = 'declare a secret in "secrets" and reference it as { "secret": "<id>" }';

describe("inline credentials", () => {
  it("knows credential-named keys in any spelling", () => {
    for (const name of [
      "password",
      "Passwd",
      "client_secret",
      "access_token",
      "X-Api-Key",
      "api key",
      "apikey",
    ]) {
      expect(isCredentialName(name), name).toBe(true);
    }
    for (const name of ["Authorization", "cookie", "credentials", "bearer", "label=Password"]) {
      expect(isCredentialName(name), name).toBe(true);
    }
    for (const name of ["title", "email", "done", "Accept", "user"])
      expect(isCredentialName(name), name).toBe(false);
  });

  it("knows values shaped like credentials, and leaves a bare prefix and prose alone", () => {
    expect(credentialShape("Bearer abc.def")).toBe('a "Bearer …" value');
    expect(credentialShape("Basic YWRtaW46aHVudGVyMg==")).toBe('a "Basic …" value');
    expect(credentialShape("x eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln y")).toBe("a JSON Web Token");
    expect(credentialShape("Bearer ")).toBeUndefined();
    expect(credentialShape("Basic information about items")).toBeUndefined();
    expect(credentialShape("Basic YQ==")).toBe('a "Basic …" value');
    expect(credentialShape("basic dXNlcjpwYXNz")).toBe('a "Basic …" value');
    expect(credentialShape("Basic YWI=")).toBe('a "Basic …" value');
    // Prose: not padded base64 of 4+ characters, or not text once decoded (a credential is "user:password").
    expect(credentialShape("Basic information")).toBeUndefined();
    expect(credentialShape("Basic plan")).toBeUndefined();
    expect(credentialShape("Basic Tier")).toBeUndefined();
    expect(credentialShape("Basic YQ")).toBeUndefined();
    expect(credentialShape("Basic ==")).toBeUndefined();

    expect(credentialShape("items.list.v1")).toBeUndefined();
  });

  it("refuses literals under credential names everywhere in the steps, once per field", () => {
    const steps = [
      { step_id: "open", action: "navigate", path: "/login?token=abc&page=2" },
      { step_id: "pw", action: "fill", target: "label=Password", value: "hunter2" },
      { step_id: "key", action: "fill", target: "testid=api-key", value: { secret: "key" } },
      {
        step_id: "r",
        action: "request",
        method: "POST",
        path: "/api",
        headers: { "X-Api-Key": "k1", accept: "application/json", authorization: "Bearer abc" },
        query: [{ name: "access_token", value: "t" }],
        json: {
          user: { name: "a", password: "p" },
          list: [{ secret: "s" }],
          ok: { password: { secret: "pw" } },
        },
      },
    ];
    const issues = findInlineCredentials("f.json", steps);
    expect(issues.map((i) => `${i.path} | ${i.message}`)).toEqual([
      `steps[0].path | f.json: steps[0].path carries a literal value in the credential-named query parameter "token"; ${DECLARE}`,
      `steps[1].value | f.json: steps[1].value is a literal value for the credential-named target "label=Password"; ${DECLARE}`,
      `steps[3].headers.authorization | f.json: steps[3].headers.authorization holds an inline credential (a "Bearer …" value); ${DECLARE}`,
      `steps[3].headers.X-Api-Key | f.json: steps[3].headers.X-Api-Key is a literal value for the credential-named header "X-Api-Key"; ${DECLARE}`,
      `steps[3].query[0].value | f.json: steps[3].query[0].value is a literal value for the credential-named query field "access_token"; ${DECLARE}`,
      `steps[3].json.user.password | f.json: steps[3].json.user.password is a literal value under the credential-named key "password"; ${DECLARE}`,
    ]);
  });

  it("finds a JWT in any string of a step, e.g. an expected text", () => {
    const steps = [
      { step_id: "t", action: "expect-text", text: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln" },
    ];
    expect(findInlineCredentials("f.json", steps).map((i) => i.message)).toEqual([
      `f.json: steps[0].text holds an inline credential (a JSON Web Token); ${DECLARE}`,
    ]);
  });

  it("refuses literals anywhere under a credential-named JSON key: in arrays and nested objects", () => {
    const steps = [
      {
        step_id: "r",
        action: "request",
        method: "POST",
        path: "/api",
        json: {
          tokens: ["t1", { secret: "ok" }],
          credentials: { user: "admin", pass: "hunter2" },
          password: { secret: "ok" },
          max_tokens: 100,
        },
      },
    ];
    expect(findInlineCredentials("f.json", steps).map((i) => i.path)).toEqual([
      "steps[0].json.tokens[0]",
      "steps[0].json.credentials.user",
      "steps[0].json.credentials.pass",
    ]);
  });

  it("refuses numbers under credential-named keys (only null and booleans pass), but not counts such as max_tokens", () => {
    const steps = [
      {
        step_id: "r",
        action: "request",
        method: "POST",
        path: "/api",
        json: {
          password: 123456,
          credentials: { pin: 1234, remember: true, otp: null },
          api_key: 0,
          token_expires_in: 3600,
          max_tokens: 100,
          password_min_length: 8,
          secret_question: false,
          count: 5,
        },
      },
    ];
    expect(findInlineCredentials("f.json", steps).map((i) => i.message)).toEqual([
      `f.json: steps[0].json.password is a literal value under the credential-named key "password"; ${DECLARE}`,
      `f.json: steps[0].json.credentials.pin is a literal value under the credential-named key "credentials"; ${DECLARE}`,
      `f.json: steps[0].json.api_key is a literal value under the credential-named key "api_key"; ${DECLARE}`,
    ]);
  });

  it("checks a long string for a JWT in linear time", () => {
    const long = "eyJ".repeat(100_000);
    const t0 = Date.now();
    expect(credentialShape(long)).toBeUndefined();
    expect(credentialShape(`${long}.ab.c`)).toBe("a JSON Web Token");
    expect(credentialShape("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.")).toBe("a JSON Web Token");
    expect(credentialShape("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0")).toBeUndefined();
    expect(Date.now() - t0).toBeLessThan(500);
  });
});

describe("inline credentials: the one rule redaction follows", () => {
  const request = (over: Record<string, unknown>) => [
    { step_id: "r", action: "request", method: "POST", path: "/api", ...over },
  ];
  const paths = (steps: unknown[]) => findInlineCredentials("f.json", steps).map((i) => i.path);

  it("refuses the names redaction hides: pwd, otp, sid, x-session-id", () => {
    expect(paths(request({ json: { pwd: "hunter2hunter2", otp: "123456", sid: "s-1" } }))).toEqual([
      "steps[0].json.pwd",
      "steps[0].json.otp",
      "steps[0].json.sid",
    ]);
    expect(paths(request({ headers: { "x-session-id": "abc" } }))).toEqual(["steps[0].headers.x-session-id"]);
    expect(
      paths(request({ query: [{ name: "sid", value: "1" }], form: [{ name: "otp", value: "2" }] })),
    ).toEqual(["steps[0].query[0].value", "steps[0].form[0].value"]);
  });

  it("lets a name that only describes a credential hold what cannot be one, and refuses what could", () => {
    expect(
      paths(
        request({
          json: {
            token_type: "bearer",
            password_hint: "my first dog",
            tokens_used: 12,
            token_url: "https://example.test/oauth/token",
          },
        }),
      ),
    ).toEqual([]);
    expect(paths(request({ json: { token_type: "x8Kq2mZ9pL" } }))).toEqual(["steps[0].json.token_type"]);
    expect(
      paths([{ step_id: "f", action: "fill", target: "label=Password hint", value: "my first dog" }]),
    ).toEqual([]);
  });

  it("reads a $value reference under a credential name as a reference, not a literal", () => {
    expect(paths(request({ json: { csrf_token: { $value: { cookie: "csrftoken" } } } }))).toEqual([]);
  });
});
