import { describe, expect, it } from "vitest";
import { checkStepPath } from "./origin-rules.js";
import { checkRequestStep, isForbiddenHeader } from "./request-rules.js";

const START = "http://127.0.0.1:4010/";
const messages = (step: Record<string, unknown>) =>
  checkRequestStep(
    "r.json",
    { step_id: "r", action: "request", method: "POST", path: "/api", ...step },
    2,
    START,
  ).map((i) => i.message);

describe("request step rules", () => {
  it("knows the Fetch standard's forbidden headers, with the Sec- and Proxy- prefixes", () => {
    for (const h of [
      "Host",
      "cookie",
      "Content-Length",
      "Origin",
      "Referer",
      "Sec-Fetch-Mode",
      "Proxy-Authorization",
    ]) {
      expect(isForbiddenHeader(h), h).toBe(true);
    }
    for (const h of ["Access-Control-Request-Method", "Keep-Alive", "TE", "Via", "DNT", "Date"]) {
      expect(isForbiddenHeader(h), h).toBe(true);
    }
    for (const h of ["Accept", "Content-Type", "X-Csrf-Token", "Authorization"])
      expect(isForbiddenHeader(h), h).toBe(false);
  });

  it("refuses headers fetch cannot set, User-Agent, repeats, CR/LF and bad names", () => {
    expect(
      messages({
        headers: {
          Host: "x",
          "user-agent": "x",
          Accept: "a",
          ACCEPT: "b",
          "x-a": "1\n2",
          "bad name": "1",
          "x\r\ny": "1",
        },
      }),
    ).toEqual([
      'r.json: steps[2].headers.Host cannot be set: fetch refuses the header "Host" (forbidden: Host, Cookie, Origin, Referer, Content-Length, Sec-*, Proxy-*, …); remove it',
      "r.json: steps[2].headers.user-agent cannot be set: a request step sends the browser's own User-Agent; remove it",
      'r.json: steps[2].headers.ACCEPT repeats the header "Accept" (header names are case-insensitive); keep one',
      "r.json: steps[2].headers.x-a holds a CR, LF or NUL character; a header value is one line",
      'r.json: steps[2].headers["bad name"] is not a valid header name: use letters, digits and !#$%&\'*+-.^_`|~ only (got "bad name")',
      'r.json: steps[2].headers["x\\r\\ny"] has a CR or LF in the header name; a header name is one token',
    ]);
    expect(messages({ headers: { "x-b": { cookie: "c", prefix: "a\r\n" } } })).toEqual([
      "r.json: steps[2].headers.x-b holds a CR, LF or NUL character; a header value is one line",
    ]);
  });

  it("refuses a body on GET/HEAD, two bodies, and a 3xx expected status", () => {
    expect(messages({ method: "HEAD", json: {} })).toEqual([
      "r.json: steps[2].json is not allowed on a HEAD request: a HEAD request has no body",
    ]);
    expect(messages({ json: {}, form: [] })).toEqual([
      'r.json: steps[2] has both "json" and "form"; a request step sends one body at most',
    ]);
    expect(messages({ expected_status: [200, 399] })).toEqual([
      "r.json: steps[2].expected_status[1] is 399, which can never match: request steps do not follow redirects (expect the status the server answers, or leave expected_status out to accept any 2xx)",
    ]);
  });

  it("keeps paths on the start origin, whatever tricks they use", () => {
    const check = (p: string, kind: "request" | "navigate" = "request") =>
      checkStepPath("r.json", ["steps", 1, "path"], p, START, kind).map((i) => i.message);
    const other = (p: string, origin: string) =>
      `r.json: steps[1].path resolves to ${origin}, not the start origin http://127.0.0.1:4010; a step only reaches the start origin (got ${JSON.stringify(p)})`;
    expect(check("//evil.example/x")).toEqual([other("//evil.example/x", "http://evil.example")]);
    expect(check("/\\evil.example/x")).toEqual([other("/\\evil.example/x", "http://evil.example")]);
    expect(check("/\\/evil.example")).toEqual([other("/\\/evil.example", "http://evil.example")]);
    expect(check("///evil.example")).toEqual([other("///evil.example", "http://evil.example")]);
    expect(check("//127.0.0.1:4011/")).toEqual([other("//127.0.0.1:4011/", "http://127.0.0.1:4011")]);
    expect(check("/\t/evil.example")).toEqual([
      'r.json: steps[1].path must not hold spaces or control characters (percent-encode them, e.g. %20) (got "/\\t/evil.example")',
    ]);
    expect(check("api/items")).toEqual(['r.json: steps[1].path must start with "/" (got "api/items")']);
    expect(check("/api/items#x")).toEqual([
      'r.json: steps[1].path must not hold "?" or "#"; put query parameters in "query": [{ "name": …, "value": … }] (got "/api/items#x")',
    ]);
    for (const ok of [
      "/%2F%2Fevil.example",
      "/..//evil.example",
      "/@evil.example",
      "/a/../b",
      "/api/items/1",
    ]) {
      expect(check(ok), ok).toEqual([]);
    }
    expect(check("/items?view=all#top", "navigate")).toEqual([]);
    expect(check("//evil.example/?a", "navigate")).toEqual([
      other("//evil.example/?a", "http://evil.example"),
    ]);
  });

  it("refuses a header named __proto__, which the parsed scenario could not keep", () => {
    expect(messages({ headers: { ["__proto__"]: 1, accept: "a" } })).toEqual([
      "r.json: steps[2].headers.__proto__ cannot be used as a header name: a parsed scenario cannot keep it; remove it",
    ]);
  });
});
