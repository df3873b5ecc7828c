import { describe, expect, it } from "vitest";
import {
  escapedRedirect,
  isAllowedUrl,
  isWrite,
  originOf,
  refusedNavigation,
  refusedRedirect,
  refusedWebSocket,
  refusedWrite,
} from "./origin-policy.js";

const policy = { appOrigin: "http://127.0.0.1:4010", allowedOrigins: ["http://cdn.test"] };

describe("origin policy", () => {
  it("names origins of http(s) URLs only", () => {
    expect(originOf("http://127.0.0.1:4010/a?b")).toBe("http://127.0.0.1:4010");
    expect(originOf("data:text/plain,hi")).toBeNull();
    expect(originOf("not a url")).toBeNull();
  });

  it("treats every method but GET, HEAD and OPTIONS as a write", () => {
    expect(["GET", "head", "OPTIONS"].map(isWrite)).toEqual([false, false, false]);
    expect(["POST", "PUT", "PATCH", "DELETE", "PROPFIND"].map(isWrite)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
  });

  it("refuses writes to any origin but the app, allowed read origins included", () => {
    expect(refusedWrite(policy, "POST", "http://127.0.0.1:4010/api/items")).toBeNull();
    expect(refusedWrite(policy, "GET", "http://other.test/x")).toBeNull();
    expect(refusedWrite(policy, "post", "http://cdn.test/upload")).toBe(
      "refused: POST to http://cdn.test is a write to an origin other than the app (http://127.0.0.1:4010); apptwin only lets writes reach the app",
    );
  });

  it("lets reads and navigations reach allowed origins only", () => {
    expect(isAllowedUrl(policy, "http://cdn.test/lib.js")).toBe(true);
    expect(refusedNavigation(policy, "http://127.0.0.1:4010/items")).toBeNull();
    expect(refusedNavigation(policy, "http://evil.test/")).toBe(
      "navigation to http://evil.test left the allowed origins (http://127.0.0.1:4010, http://cdn.test); add it to allowed_origins only if the app truly lives there",
    );
    expect(escapedRedirect(policy, "http://127.0.0.1:4010/out", "http://evil.test/landing")).toBe(
      "redirect from http://127.0.0.1:4010/out to http://evil.test left the allowed origins (http://127.0.0.1:4010, http://cdn.test)",
    );
  });

  it("lets WebSockets reach the app's own host and port only (ws: is http:, wss: is https:)", () => {
    expect(refusedWebSocket(policy, "ws://127.0.0.1:4010/live")).toBeNull();
    expect(
      refusedWebSocket({ appOrigin: "https://app.test", allowedOrigins: [] }, "wss://app.test:443/l"),
    ).toBeNull();
    expect(
      refusedWebSocket({ appOrigin: "https://app.test", allowedOrigins: [] }, "ws://app.test/l"),
    ).not.toBeNull();
    expect(refusedWebSocket(policy, "ws://cdn.test/live")).toBe(
      "refused: a WebSocket to ws://cdn.test is a channel to an origin other than the app (http://127.0.0.1:4010); apptwin only lets WebSockets reach the app",
    );
  });

  it("refuses a redirect that would leave: a write's 307/308 anywhere but the app, any other off the allowed origins", () => {
    const from = "http://127.0.0.1:4010/bounce";
    expect(refusedRedirect(policy, "POST", from, 307, "http://cdn.test/upload")).toBe(
      "redirect refused: POST http://127.0.0.1:4010/bounce answered 307 to http://cdn.test, which would resend the write to an origin other than the app (http://127.0.0.1:4010); apptwin only lets writes reach the app",
    );
    expect(refusedRedirect(policy, "put", from, 308, "//evil.test/x")).toContain(
      "PUT http://127.0.0.1:4010/bounce answered 308 to http://evil.test",
    );
    expect(refusedRedirect(policy, "POST", from, 307, "/landed")).toBeNull();
    // A 303 (or 301/302) turns a write into a GET: allowed origins may be read, others not.
    expect(refusedRedirect(policy, "POST", from, 303, "http://cdn.test/done")).toBeNull();
    expect(refusedRedirect(policy, "GET", from, 302, "http://evil.test/landing")).toBe(
      "redirect from http://127.0.0.1:4010/bounce to http://evil.test left the allowed origins (http://127.0.0.1:4010, http://cdn.test)",
    );
    expect(refusedRedirect(policy, "GET", from, 200, "http://evil.test/")).toBeNull();
    expect(refusedRedirect(policy, "GET", from, 302, null)).toBeNull();
  });

  it("treats localhost and 127.0.0.1 as two origins, as the browser does, and says so (issue 13)", () => {
    const local = { appOrigin: "http://localhost:4010", allowedOrigins: [] };
    const note =
      " (127.0.0.1 and localhost are this same machine and port, but different origins to the browser and to apptwin; use one host name, the one the scenario starts on, everywhere)";
    expect(refusedWrite(local, "POST", "http://127.0.0.1:4010/api/items")).toBe(
      `refused: POST to http://127.0.0.1:4010 is a write to an origin other than the app (http://localhost:4010); apptwin only lets writes reach the app${note}`,
    );
    expect(refusedNavigation(local, "http://127.0.0.1:4010/items")).toMatch(
      /left the allowed origins \(http:\/\/localhost:4010\); .* truly lives there \(127\.0\.0\.1 and localhost/,
    );
    expect(isAllowedUrl(local, "http://127.0.0.1:4010/app.js")).toBe(false);
    expect(refusedWrite(local, "POST", "http://localhost:4010/api/items")).toBeNull();
    // Another port is simply another origin: no note.
    expect(refusedWrite(local, "POST", "http://127.0.0.1:4011/x")).not.toContain("same machine");
  });
});
