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

  it("notes writes without a user gesture when the scenario has request steps", () => {
    expect(captureLimitations(["navigate", "request"], false)).toEqual([
      "writes were sent without a user gesture",
    ]);
    expect(captureLimitations(["navigate"], false)).toEqual([]);
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
    const m = resolveSecrets(scenario, { ITEMS_PASSWORD: "pw", API_KEY: "k" });
    expect([...m]).toEqual([
      ["password", "pw"],
      ["key", "k"],
    ]);
  });

  it("names every missing variable and its secret before anything runs", () => {
    expect(() => resolveSecrets(scenario, { API_KEY: "" }, "login.json")).toThrow(
      'login.json: the environment variables ITEMS_PASSWORD (secret "password"), API_KEY (secret "key") are not set; nothing was run',
    );
    expect(() => resolveSecrets(scenario, { API_KEY: "k" }, "login.json")).toThrow(
      'login.json: the environment variable ITEMS_PASSWORD (secret "password") is not set; nothing was run',
    );
  });
});
