import { describe, expect, it } from "vitest";
import { UserError } from "../../errors/user-error.js";
import { parseStoreUrl, publicUrl, script } from "./redis-connection.js";

describe("--store", () => {
  it("takes redis:// and rediss:// URLs with a host", () => {
    expect(parseStoreUrl("redis://127.0.0.1:6379/0").href).toBe("redis://127.0.0.1:6379/0");
    expect(parseStoreUrl("rediss://user:pw@redis.internal:6380/2").hostname).toBe("redis.internal");
  });

  it("refuses anything else with exit 2, saying what would be valid and never echoing a password", () => {
    for (const bad of ["127.0.0.1:6379", "http://127.0.0.1:6379", "redis://", "redis://:s3cret@/0"]) {
      let thrown: unknown;
      try {
        parseStoreUrl(bad);
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(UserError);
      const e = thrown as UserError;
      expect([e.code, e.exitCode]).toEqual(["bad_store", 2]);
      expect(e.message).toMatch(
        /^--store must be a Redis URL such as redis:\/\/127\.0\.0\.1:6379\/0 \(redis:\/\/\[\[user\]:password@\]host\[:port\]\[\/db\], or rediss:\/\/ for TLS\); got ".*"\.$/,
      );
      expect(e.message).not.toContain("s3cret");
    }
  });

  it("shows the store without its credentials", () => {
    expect(publicUrl(new URL("redis://admin:s3cret@127.0.0.1:6379/1"))).toBe("redis://127.0.0.1:6379/1");
  });

  it("names a script by the SHA1 of its text (what EVALSHA runs)", () => {
    expect(script("return 1").sha).toBe("e0e1f9fabfc9d4800c877a703b823ac0578ff8db");
  });
});
