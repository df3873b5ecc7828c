import { describe, expect, it } from "vitest";
import { credentialNameKind, isCredentialName, nameWords } from "./credential-name.js";

describe("credential names (one rule for validation and redaction)", () => {
  it("splits names into words", () => {
    expect(nameWords("refreshToken")).toEqual(["refresh", "token"]);
    expect(nameWords("X-API-Key")).toEqual(["x", "api", "key"]);
    expect(nameWords("JSONWebToken")).toEqual(["json", "web", "token"]);
  });

  it("names credentials word-wise and by roots", () => {
    for (const n of [
      "password",
      "pwd",
      "otp",
      "sid",
      "x-session-id",
      "accessToken",
      "refresh_token",
      "x-api-key",
      "api_key",
      "csrfmiddlewaretoken",
      "X-CSRF-Token",
      "authenticity_token",
      "client_secret",
      "credentials",
      "cookieValue",
      "bearerToken",
      "passphrase",
      "data-jupyter-api-token",
    ])
      expect(credentialNameKind(n), n).toBe("credential");
  });

  it("says a qualified name describes a credential", () => {
    for (const n of [
      "token_type",
      "password_hint",
      "tokenName",
      "csrf-param",
      "token_expires_in",
      "secret_label",
    ])
      expect(credentialNameKind(n), n).toBe("describes");
    expect(isCredentialName("token_type")).toBe(false);
  });

  it("leaves names that only look alike", () => {
    for (const n of [
      "author",
      "compass",
      "passenger",
      "title",
      "id",
      "email",
      "username",
      "x-wp-nonce",
      "expires_in",
    ])
      expect(credentialNameKind(n), n).toBe("none");
  });
});

describe("the names redaction always hid", () => {
  it.each([
    "Passwd",
    "pass",
    "access_token",
    "id_token",
    "apiKey",
    "session",
    "session_id",
    "csrf",
    "csrftoken",
    "authorization",
    "cookie",
    "user.password",
  ])("treats %s as a credential", (name) => {
    expect(isCredentialName(name)).toBe(true);
  });

  it.each(["tokens_used", "session_expires_at", "expires_in"])("does not take %s for one", (name) => {
    expect(isCredentialName(name)).toBe(false);
  });

  it("splits names into words", () => {
    expect(nameWords("XMLHttpRequest_refreshToken-v2")).toEqual([
      "xml",
      "http",
      "request",
      "refresh",
      "token",
      "v2",
    ]);
  });
});
