import { describe, expect, it } from "vitest";
import { buildEvidence } from "../../test/fixtures/evidence/build-evidence.js";
import { learn } from "./learn.js";

const AUTH = "[REDACTED:header:authorization]";

describe("learnAuth", () => {
  it("records each endpoint's carriers as the alternatives its requests sent, never a value", () => {
    const { model } = learn(
      buildEvidence([
        { method: "POST", path: "/api/login", status: 200, req: { email: "a@b" }, res: { ok: true } },
        {
          path: "/api/items",
          status: 200,
          res: [{ id: 1 }],
          headers: [{ name: "Authorization", value: AUTH }],
        },
        {
          path: "/api/items?key=[REDACTED:secret:key]",
          status: 200,
          res: [{ id: 1 }],
          headers: [{ name: "Cookie", value: "session=[REDACTED:header:cookie]" }],
        },
        {
          path: "/api/items/1",
          status: 200,
          res: { id: 1 },
          headers: [{ name: "X-Api-Key", value: "[REDACTED:header:x-api-key]" }],
        },
      ]),
    );
    expect(model.auth!.schemes.map((s) => [s.id, s.kind, s.name])).toEqual([
      ["authorization", "authorization", "Authorization"],
      ["cookie_session", "cookie", "session"],
      ["header_x-api-key", "header", "X-Api-Key"],
      ["query_key", "query", "key"],
    ]);
    expect(model.auth!.endpoints).toEqual({
      get_items: [["authorization"], ["cookie_session", "query_key"]],
      get_items_by_id: [["header_x-api-key"]],
      post_login: [[]],
    });
    expect(JSON.stringify(model.auth)).not.toContain("REDACTED");
  });

  it("names the HTTP scheme only when the recording shows it: the header's own word, or the app's challenge", () => {
    const shown = learn(
      buildEvidence([
        {
          path: "/api/me",
          status: 200,
          res: { id: 1 },
          headers: [{ name: "authorization", value: `Bearer ${AUTH}` }],
        },
      ]),
    ).model.auth!;
    expect(shown.schemes.map((s) => s.id)).toEqual(["bearer"]);
    const challenged = learn(
      buildEvidence([
        {
          path: "/api/me",
          status: 401,
          res: {},
          resHeaders: [{ name: "WWW-Authenticate", value: 'Basic realm="app"' }],
        },
        { path: "/api/me", status: 200, res: { id: 1 }, headers: [{ name: "authorization", value: AUTH }] },
      ]),
    ).model.auth!;
    expect(challenged.schemes.map((s) => [s.id, s.explain])).toEqual([
      ["basic", "HTTP Basic authentication (the Authorization header)"],
    ]);
    // Redacted whole and never challenged: an opaque Authorization header, not a guess at its scheme.
    const opaque = learn(
      buildEvidence([
        { path: "/api/me", status: 200, res: { id: 1 }, headers: [{ name: "authorization", value: AUTH }] },
      ]),
    ).model.auth!;
    expect(opaque.schemes.map((s) => [s.id, s.explain])).toEqual([
      ["authorization", "An Authorization header; its scheme was redacted with the credential"],
    ]);
  });
});
