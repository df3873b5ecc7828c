/**
 * `apptwin mcp --http` guards itself like the twin does, because it can run
 * a browser with the user's secrets and write files: only 127.0.0.1, only
 * requests addressed to a loopback name, only pages of loopback origins.
 */

import { mkdtemp, rm } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCli, httpClient, type McpHandle } from "./support/mcp-clients.js";

let dir: string;
let mcp: McpHandle & { url: string };

beforeAll(async () => {
  buildCli();
  dir = await mkdtemp(join(tmpdir(), "apptwin-mcp-http-"));
  mcp = await httpClient({
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    APPTWIN_WORKSPACE: dir,
  });
}, 180_000);

afterAll(async () => {
  await mcp?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

function send(path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const url = new URL(mcp.url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: url.port,
        path,
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
      },
      (res) => {
        let body = "";
        res.on("data", (d) => (body += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }));
  });
}

describe("apptwin mcp --http", () => {
  it("listens on 127.0.0.1 at /mcp", () => {
    expect(mcp.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  it("refuses a request addressed to another host (DNS rebinding) and one sent by another origin's page", async () => {
    const host = await send("/mcp", { host: "evil.example:80" });
    expect(host.status).toBe(403);
    expect(JSON.parse(host.body).error.message).toBe(
      "forbidden_host: apptwin mcp answers only requests addressed to 127.0.0.1, localhost or [::1] and sent by no page or a loopback page.",
    );
    const origin = await send("/mcp", { origin: "https://evil.example" });
    expect(origin.status).toBe(403);
    expect(JSON.parse(origin.body).error.message).toMatch(/^forbidden_origin: /);
  });

  it("answers only at /mcp, and asks for initialize first", async () => {
    expect((await send("/other", {})).status).toBe(404);
    const first = await send("/mcp", { accept: "application/json, text/event-stream" });
    expect(first.status).toBe(400);
    expect(JSON.parse(first.body).error.message).toBe(
      "No mcp-session-id header: the first request of a session must be initialize.",
    );
  });
});
