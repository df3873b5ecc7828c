import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { requestTarget } from "./request-target.js";

/** What the twin read before: a URL per request. */
function viaUrl(target: string) {
  const url = new URL(
    target.startsWith("/") ? `http://twin.invalid${target}` : target,
    "http://twin.invalid",
  );
  return {
    pathname: url.pathname,
    search: url.search,
    pairs: url.search === "" ? [] : [...url.searchParams.entries()],
  };
}

function read(target: string) {
  const t = requestTarget(target);
  return { pathname: t.pathname, search: t.search, pairs: t.pairs() };
}

describe("requestTarget", () => {
  it("reads every target as URL does", () => {
    const targets = [
      "/",
      "/api/items",
      "/api/items/",
      "/api/items/5",
      "/api/items?limit=20",
      "/api/items?limit=20&offset=40",
      "/api/items?",
      "/api/items?&&",
      "/api/items?a=1&a=2&b",
      "/api/items?q=a+b&r=%20c%2B",
      "/api/items?filter[done]=true&sort=-id,title",
      "/api/items?x={1}|^",
      "/api/items?q=it's",
      "/api/items?q=a b",
      '/api/items?q="x"',
      "/api/items?q=<x>",
      "/api/items?q=%zz",
      "/api/items#frag",
      "/api/items?x=1#frag",
      "/api/items/%2e%2e/x",
      "/api/items/../x",
      "/api/./items",
      "/api/items/.json",
      "/api/items/a%2eb",
      "/api/items/%2E",
      "/api/items/..",
      "/api/items/a b",
      "/api/items/é",
      "/api/items/{id}",
      "/api/items/a\\b",
      "/api/items/a|b",
      "/api/items/a^b",
      "/api/items/a`b",
      "/api/%zz/100%",
      "/api/items/a%2Fb",
      "//evil.example/x",
      "//x",
      "/wp-json/wp/v2/posts?_fields=id,title&per_page=5",
      "http://127.0.0.1:3000/api/items?x=1",
      "*",
      "",
      "?x=1",
      "/a\tb",
      "/a?b=\u0001",
    ];
    for (const t of targets) expect(read(t), t).toEqual(viaUrl(t));
  });

  it("reads random targets as URL does", () => {
    const chars = fc.constantFrom(
      ..."/?#&=.%2eE+ aZ09-_~!$'()*,;:@[]{}|^`\\\"<>é\u0001".split(""),
      "%2e",
      "%2F",
      "..",
      "%zz",
    );
    fc.assert(
      fc.property(fc.array(chars, { maxLength: 24 }), (parts) => {
        const t = `/${parts.join("")}`;
        expect(read(t)).toEqual(viaUrl(t));
      }),
      { numRuns: 3000 },
    );
  });
});
