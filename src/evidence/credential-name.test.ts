import { describe, expect, it } from "vitest";
import { isCredentialName, nameWords } from "./credential-name.js";

describe("isCredentialName", () => {
  it.each([
    "password",
    "Passwd",
    "pass",
    "token",
    "access_token",
    "refreshToken",
    "id_token",
    "client_secret",
    "api_key",
    "apiKey",
    "x-api-key",
    "session",
    "session_id",
    "csrf",
    "csrftoken",
    "csrfmiddlewaretoken",
    "X-CSRF-Token",
    "authorization",
    "cookie",
    "user.password",
  ])("treats %s as a credential", (name) => {
    expect(isCredentialName(name)).toBe(true);
  });

  it.each([
    "title",
    "author",
    "compass",
    "passenger",
    "token_type",
    "tokens_used",
    "password_hint",
    "expires_in",
    "session_expires_at",
    "id",
  ])("leaves %s alone", (name) => {
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
