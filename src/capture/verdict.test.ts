import { describe, expect, it } from "vitest";
import { resolveSecrets } from "./resolve-secrets.js";
import { captureLimitations, captureVerdict } from "./verdict.js";

describe("captureVerdict", () => {
  it("passes only when every step passed", () => {
    expect(captureVerdict([{ status: "passed" }, { status: "passed" }], [])).toBe("passed");
    expect(captureVerdict([{ status: "passed" }, { status: "failed" }, { status: "cancelled" }], [])).toBe(
      "failed",
    );
  });

  it("is incomplete when anything could not be established, even if steps passed", () => {
    expect(captureVerdict([{ status: "passed" }], ["the browser crashed"])).toBe("incomplete");
    expect(captureVerdict([], [])).toBe("incomplete");
  });

  it("notes writes without a user gesture only when a request step sent a write", () => {
    const sent = (method: string, initiator: "page" | "request-step", refused = false) => ({
      initiator,
      request: { method },
      failure: refused ? { kind: "refused" as const, message: "x" } : null,
    });
    expect(captureLimitations([sent("GET", "request-step"), sent("POST", "request-step")], false)).toEqual([
      "writes were sent without a user gesture",
    ]);
    // Request steps that only read, a page's own write, and a write refused before it left: no write was sent.
    expect(
      captureLimitations(
        [
          sent("GET", "request-step"),
          sent("HEAD", "request-step"),
          sent("POST", "page"),
          sent("DELETE", "request-step", true),
        ],
        false,
      ),
    ).toEqual([]);
  });
});

describe("resolveSecrets", () => {
  const scenario = {
    secrets: [
      { id: "password", env: "ITEMS_PASSWORD" },
      { id: "key", env: "API_KEY" },
    ],
  };

  it("reads each declared secret from its variable", () => {
    const m = resolveSecrets(scenario, { ITEMS_PASSWORD: "pw-long-enough", API_KEY: "key-long-enough" });
    expect([...m]).toEqual([
      ["password", "pw-long-enough"],
      ["key", "key-long-enough"],
    ]);
  });

  it("names every missing variable and its secret before anything runs", () => {
    expect(() => resolveSecrets(scenario, { API_KEY: "" }, "login.json")).toThrow(
      'login.json: the environment variables ITEMS_PASSWORD (secret "password"), API_KEY (secret "key") are not set; nothing was run',
    );
    expect(() => resolveSecrets(scenario, { API_KEY: "key-long-enough" }, "login.json")).toThrow(
      'login.json: the environment variable ITEMS_PASSWORD (secret "password") is not set; nothing was run',
    );
  });

  it("refuses a secret too short to redact, naming the field and the variable, with every other problem (issue 13)", () => {
    expect(() =>
      resolveSecrets(scenario, { ITEMS_PASSWORD: "x", API_KEY: "key-long-enough" }, "login.json"),
    ).toThrow(
      'login.json: secrets[0] ("password"): the value of ITEMS_PASSWORD is 1 character long; a declared secret must be at least 4 (so short a value occurs all over a recording, and redacting it would rewrite digits and letters of every answer); nothing was run',
    );
    expect(() => resolveSecrets(scenario, { API_KEY: "k" }, "login.json")).toThrow(
      'login.json: the environment variable ITEMS_PASSWORD (secret "password") is not set\nlogin.json: secrets[1] ("key"): the value of API_KEY is 1 character long',
    );
  });
});
