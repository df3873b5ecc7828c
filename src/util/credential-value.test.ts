import { describe, expect, it } from "vitest";
import { couldBeCredential, looksRandom } from "./credential-value.js";

describe("couldBeCredential", () => {
  it("takes token-like strings of 8 characters or more", () => {
    for (const v of [
      "hunter2hunter2",
      "s3cret-pass",
      "tok-abc12345",
      "kJhGtReWqAsD",
      "a3f9c2d18e7b4f60",
      "12345678",
      "$2y$10$abcdefghijk",
    ])
      expect(couldBeCredential(v), v).toBe(true);
  });

  it("refuses what cannot be one: short, empty, spaced, words, labels, URLs, paths, dates, decimals, booleans, markers", () => {
    for (const v of [
      "",
      "short1",
      "Password",
      "Passwort:",
      "Mot-de-passe",
      "authenticity_token",
      "Contraseña",
      "tok-abcdefgh",
      "PASSWORD",
      "Sign in to your account",
      "WP Cookie check",
      "https://example.test/oauth/token",
      "/api/tokens",
      "2024-03-01T10:00:00Z",
      "2024-03-01",
      "3600.5",
      "[REDACTED:field:token]",
      true,
      false,
      null,
      1.5,
    ])
      expect(couldBeCredential(v), String(v)).toBe(false);
    expect(couldBeCredential(12345678)).toBe(true);
    expect(couldBeCredential(3600)).toBe(false);
  });
});

describe("looksRandom", () => {
  it("takes random tokens of 16 characters or more", () => {
    for (const v of [
      "8vX2qL0pZr7sKd3mWn5tYb1cFh9gJe4u",
      "a3f9c2d18e7b4f60a3f9c2d18e7b4f60",
      "3f2504e0-4f89-11d3-9a0c-0305e82c3301",
      "realappsjupytertoken0001",
      "kJhGtReWqAsDfGhJkLzXcVbN",
    ])
      expect(looksRandom(v), v).toBe(true);
  });

  it("refuses words, identifiers, short and spaced values", () => {
    for (const v of [
      "addEventListener",
      "authenticity_token_field",
      "short-token-1",
      "a b c d e f g h i j k l",
      "Passwordpassword",
    ])
      expect(looksRandom(v), v).toBe(false);
  });
});
