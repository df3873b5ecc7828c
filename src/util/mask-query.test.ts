import { describe, expect, it } from "vitest";
import { isMaskedParam, maskQueryPairs, maskQueryString } from "./mask-query.js";

describe("query values the twin never repeats", () => {
  it("masks credential-named parameters whatever their value, and a `key` only when its value looks random", () => {
    expect(isMaskedParam("token", "x")).toBe(true);
    expect(isMaskedParam("api_key", "short")).toBe(true);
    expect(isMaskedParam("access_token", "abc")).toBe(true);
    expect(isMaskedParam("key", "9f8e7d6c5b4a39281726f5e4")).toBe(true);
    expect(isMaskedParam("sortKey", "9f8e7d6c5b4a39281726f5e4")).toBe(true);
    // Names that sign or grant, with a random-looking value: a pre-signed URL's signature, an OAuth code.
    expect(isMaskedParam("X-Amz-Signature", "a1b2c3d4e5f60718293a4b5c6d7e8f90")).toBe(true);
    expect(isMaskedParam("sig", "Zk4pQ9rT2vW7xY1bN5mC8dF3")).toBe(true);
    expect(isMaskedParam("code", "4/0AX4XfWh2kQz8pL1mN7vR3tY")).toBe(true);
    expect(isMaskedParam("code", "0AX4XfWh2kQz8pL1mN7vR3tY")).toBe(true);
  });

  it("leaves other parameters alone (a sort key, a word that only ends in `key`, a token's type)", () => {
    expect(isMaskedParam("key", "title")).toBe(false);
    expect(isMaskedParam("code", "US")).toBe(false);
    expect(isMaskedParam("sort_key", "created_at")).toBe(false);
    expect(isMaskedParam("monkey", "9f8e7d6c5b4a39281726f5e4")).toBe(false);
    expect(isMaskedParam("token_type", "bearer")).toBe(false);
    expect(isMaskedParam("page", "2")).toBe(false);
  });

  it("replaces the values in pairs and in a query string, and returns what it was given when nothing is masked", () => {
    const pairs: [string, string][] = [
      ["page", "2"],
      ["token", "s3cr3t-value"],
    ];
    expect(maskQueryPairs(pairs)).toEqual([
      ["page", "2"],
      ["token", "[MASKED]"],
    ]);
    const plain: [string, string][] = [["page", "2"]];
    expect(maskQueryPairs(plain)).toBe(plain);
    expect(maskQueryString("page=2&token=s3cr3t-value")).toBe("page=2&token=%5BMASKED%5D");
    expect(maskQueryString("q=a+b&page=2")).toBe("q=a+b&page=2");
    expect(maskQueryString("")).toBe("");
  });
});
