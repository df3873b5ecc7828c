import { describe, expect, it } from "vitest";
import { isLoopbackAlias, loopbackAliasNote } from "./loopback-alias.js";

describe("isLoopbackAlias", () => {
  it("pairs loopback host names of the same scheme and port only", () => {
    expect(isLoopbackAlias("http://localhost:4010", "http://127.0.0.1:4010")).toBe(true);
    expect(isLoopbackAlias("http://[::1]:4010", "http://localhost:4010")).toBe(true);
    expect(isLoopbackAlias("http://localhost:4010", "http://localhost:4010")).toBe(false);
    expect(isLoopbackAlias("http://localhost:4011", "http://127.0.0.1:4010")).toBe(false);
    expect(isLoopbackAlias("https://localhost:4010", "http://127.0.0.1:4010")).toBe(false);
    expect(isLoopbackAlias("http://example.test:4010", "http://127.0.0.1:4010")).toBe(false);
    expect(isLoopbackAlias("http://localhost", "http://127.0.0.1:80")).toBe(true);
  });

  it("explains the alias, or says nothing", () => {
    expect(loopbackAliasNote("http://127.0.0.1:4010", "http://localhost:4010")).toBe(
      " (127.0.0.1 and localhost are this same machine and port, but different origins to the browser and to apptwin; use one host name, the one the scenario starts on, everywhere)",
    );
    expect(loopbackAliasNote("http://other.test", "http://localhost:4010")).toBe("");
  });
});
