import { describe, expect, it } from "vitest";
import { loopbackRefusal } from "./loopback-guard.js";

describe("loopbackRefusal", () => {
  it("answers requests addressed to a loopback name, with or without a port, from loopback pages", () => {
    for (const host of ["127.0.0.1:4310", "localhost", "LocalHost:1", "[::1]:4310", "[::1]", undefined]) {
      expect(loopbackRefusal({ host })).toBeNull();
    }
    for (const origin of ["http://127.0.0.1:4310", "http://localhost:3000", "https://[::1]"]) {
      expect(loopbackRefusal({ host: "127.0.0.1:4310", origin })).toBeNull();
    }
  });

  it("refuses other Host names (DNS rebinding) and other origins, null included (cross-site)", () => {
    for (const host of ["evil.example", "127.0.0.1.evil.example:4310", "0.0.0.0:4310", "[::ffff:1.2.3.4]"]) {
      expect(loopbackRefusal({ host })?.error).toBe("forbidden_host");
    }
    for (const origin of ["https://evil.example", "null", "http://localhost.evil.example", "file://"]) {
      expect(loopbackRefusal({ host: "127.0.0.1", origin })?.error).toBe("forbidden_origin");
    }
  });
});
