/**
 * The HTTP twin over a real loopback socket (undici fetch): state-backed
 * reads and writes on the app's own paths, episodes by header, the control
 * plane, explained misses, bounded bodies and confined assets.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fetch } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolsFromModel } from "../src/bundle/tool-definitions.js";
import { createTwinServer, type TwinServer } from "../src/serve/http/twin-http-server.js";
import { ITEMS_SEED_STATE, itemsModel } from "./fixtures/models/items-twin.js";
import { twinBundle } from "./fixtures/models/twin-bundle-fixture.js";

let dir: string;
let twin: TwinServer;
let base: string;
const PAGE = "<!doctype html><title>Items</title><ul id=items></ul>";

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "apptwin-serve-"));
  const assetsDir = join(dir, "assets");
  await mkdir(assetsDir);
  await writeFile(join(assetsDir, "00112233aabbccdd.html"), PAGE);
  await writeFile(join(dir, "secret.txt"), "outside the assets folder");
  await symlink(join(dir, "secret.txt"), join(assetsDir, "ffeeddccbbaa9988.txt"));
  const model = itemsModel();
  const bundle = twinBundle({
    model,
    seed: ITEMS_SEED_STATE,
    tools: toolsFromModel(model),
    assetsDir,
    assets: [
      { path: "/items", file: "assets/00112233aabbccdd.html", content_type: "text/html", status: 200 },
      { path: "/leak", file: "assets/ffeeddccbbaa9988.txt", content_type: "text/plain", status: 200 },
    ],
  });
  twin = createTwinServer(bundle, { maxBodyBytes: 4096 });
  base = await twin.listen(0, "127.0.0.1");
});

afterAll(async () => {
  await twin?.close();
  await rm(dir, { recursive: true, force: true });
});

const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(base + path, {
    method,
    headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: text ? JSON.parse(text) : null };
};

/** A raw request over node:http, so the Host header and the path are sent exactly as given. */
function raw(path: string, headers: Record<string, string>, method = "GET") {
  const { hostname, port } = new URL(base);
  return new Promise<{ status: number; json: Record<string, unknown> | string }>((done, fail) => {
    const req = request({ hostname, port, path, method, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d) => {
        text += d;
      });
      res.on("end", () => {
        let json: Record<string, unknown> | string = text;
        try {
          json = JSON.parse(text);
        } catch {
          // Not JSON (an asset): the test sees the text.
        }
        done({ status: res.statusCode ?? 0, json });
      });
    });
    req.on("error", fail);
    req.end();
  });
}

/**
 * Sends a request head, then body bytes every few ms that never finish, and
 * resolves with what the server answered once it closes the connection (or
 * `closed: false` when it still reads after `deadlineMs`).
 */
function endlessUpload(head: string, deadlineMs = 3000) {
  const { hostname, port } = new URL(base);
  return new Promise<{ closed: boolean; answer: string; ms: number }>((done) => {
    const started = Date.now();
    const socket = connect(Number(port), hostname);
    let answer = "";
    socket.setEncoding("latin1");
    socket.on("data", (d) => {
      answer += d;
    });
    socket.on("error", () => {
      // A reset after the answer is the server closing; the test reads what arrived.
    });
    socket.write(head);
    const chunk = head.includes("chunked") ? `400\r\n${"x".repeat(1024)}\r\n` : "x".repeat(1024);
    const timer = setInterval(() => {
      if (Date.now() - started > deadlineMs) finish(false);
      else if (!socket.destroyed) socket.write(chunk);
    }, 5);
    const finish = (closed: boolean) => {
      clearInterval(timer);
      socket.destroy();
      done({ closed, answer, ms: Date.now() - started });
    };
    socket.on("close", () => finish(true));
  });
}

describe("HTTP twin", () => {
  it("serves the recorded page at its own path with its content type", async () => {
    const res = await fetch(`${base}/items`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html");
    expect(await res.text()).toBe(PAGE);
  });

  it("refuses an asset whose file is a symlink leaving the assets folder, and traversal paths", async () => {
    const leak = await call("GET", "/leak");
    expect(leak.status).toBe(404);
    expect(leak.json.message).toBe(
      "The recorded asset for /leak is missing from the bundle or lies outside its assets folder.",
    );
    for (const p of ["/items/../secret.txt", "/%2e%2e/secret.txt", "/assets/..%2Fsecret.txt"]) {
      const res = await call("GET", p);
      expect(res.text).not.toContain("outside the assets folder");
      expect(res.status).toBe(404);
    }
  });

  it("refuses a Host that is not a loopback name (DNS rebinding) and a foreign Origin (cross-site requests)", async () => {
    const rebound = await raw("/__apptwin/episodes/default/state", { host: "evil.example:4310" });
    expect(rebound.status).toBe(403);
    expect(rebound.json).toEqual({
      error: "forbidden_host",
      message:
        'The Host "evil.example:4310" is not a loopback name. A twin bound to loopback answers only requests addressed to 127.0.0.1, localhost or [::1] (a guard against DNS rebinding); serve with --allow-remote to accept other hosts.',
    });
    const csrf = await raw("/__apptwin/episodes/default/reset", { origin: "https://evil.example" }, "POST");
    expect(csrf.status).toBe(403);
    expect(csrf.json).toEqual({
      error: "forbidden_origin",
      message:
        'A request from the web origin "https://evil.example" was refused. A twin bound to loopback answers only pages of loopback origins, such as the app\'s own frontend it serves (a guard against cross-site requests); serve with --allow-remote to accept other origins.',
    });
    for (const host of ["localhost:1", "127.0.0.1", "[::1]:80", "LOCALHOST"]) {
      expect((await raw("/__apptwin/health", { host, origin: `http://${host}` })).status).toBe(200);
    }
  });

  it("routes a path that starts with // as that path, not as a host", async () => {
    const res = await raw("//api/items", {});
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ request: "GET //api/items" });
  });

  it("runs create → read → update → delete on the default episode", async () => {
    await call("POST", "/__apptwin/episodes/default/reset");
    const created = await call("POST", "/api/items", { title: "Milk" });
    expect(created.status).toBe(201);
    expect(created.headers.get("x-apptwin-served-by")).toBe("state");
    expect(created.text).toBe(
      '{"id":6,"title":"Milk","done":false,"created_at":"2026-03-01T12:00:01.000Z","updated_at":"2026-03-01T12:00:01.000Z"}',
    );
    expect((await call("GET", "/api/items/6")).json).toEqual(created.json);
    const patched = await call("PATCH", "/api/items/6", { done: true });
    expect(patched.json).toMatchObject({ id: 6, done: true, updated_at: "2026-03-01T12:00:02.000Z" });
    const deleted = await call("DELETE", "/api/items/6");
    expect([deleted.status, deleted.text]).toEqual([204, ""]);
    expect((await call("GET", "/api/items/6")).status).toBe(404);
    const head = await fetch(`${base}/api/items`, { method: "HEAD" });
    expect([head.status, await head.text()]).toEqual([200, ""]);
  });

  it("keeps episodes apart, resets to the seed and diffs exactly the changes", async () => {
    const made = await call("POST", "/__apptwin/episodes", { id: "alice", seed: 3 });
    expect([made.status, made.json]).toEqual([201, { id: "alice", seed: 3, evicted: null }]);
    expect((await call("POST", "/__apptwin/episodes", { id: "alice" })).json.message).toBe(
      'Episode "alice" already exists; reset it with POST /__apptwin/episodes/alice/reset or choose another id.',
    );
    await call("POST", "/__apptwin/episodes", { id: "bob" });
    await call("POST", "/api/items", { title: "Alice's" }, { "x-apptwin-episode": "alice" });
    await call("PUT", "/api/items/1", { title: "Beans", done: true }, { "x-apptwin-episode": "alice" });
    const bobList = await call("GET", "/api/items", undefined, { "x-apptwin-episode": "bob" });
    expect(bobList.json.total).toBe(5);
    const aliceList = await call("GET", "/api/items", undefined, { "x-apptwin-episode": "alice" });
    expect(aliceList.json.total).toBe(6);
    const diff = await call("GET", "/__apptwin/episodes/alice/diff");
    expect(
      diff.json.changes.map((c: { id: string; kind: string; fields?: string[] }) => [c.id, c.kind, c.fields]),
    ).toEqual([
      ["1", "updated", ["done", "title", "updated_at"]],
      ["6", "created", undefined],
    ]);
    await call("POST", "/__apptwin/episodes/alice/reset");
    expect((await call("GET", "/__apptwin/episodes/alice/state")).json).toEqual(ITEMS_SEED_STATE);
    expect((await call("GET", "/__apptwin/episodes/alice/diff")).json).toEqual({ id: "alice", changes: [] });
  });

  it("says how to create an unknown episode", async () => {
    const res = await call("GET", "/api/items", undefined, { "x-apptwin-episode": "nobody" });
    expect(res.status).toBe(404);
    expect(res.json.message).toBe(
      'No episode "nobody". Create it with POST /__apptwin/episodes and the body {"id":"nobody"}, or leave out x-apptwin-episode to use "default".',
    );
  });

  it("explains a miss with the routes, the nearest one and the assets", async () => {
    const res = await call("GET", "/api/item");
    expect(res.status).toBe(404);
    expect(res.json.message).toBe(
      "No route of this twin serves GET /api/item. The nearest route is GET /api/items.",
    );
    expect(res.json.routes).toContain("DELETE /api/items/{id}");
    expect(res.json.assets).toEqual(["/items", "/leak"]);
  });

  it("answers a list read with a query parameter never learned with an unlearned_query miss, not the whole list", async () => {
    const res = await call("GET", "/api/items?search=zzz");
    expect([res.status, res.headers.get("x-apptwin-served-by"), res.json.error]).toEqual([
      501,
      "miss",
      "unlearned_query",
    ]);
    expect(res.json.unlearned).toEqual([
      { param: "search", seen: [], explain: 'the recording never sent "search" to GET /api/items' },
    ]);
  });

  it("answers a withheld endpoint with 501 and the hint", async () => {
    const res = await call("POST", "/api/items/archive", {});
    expect(res.status).toBe(501);
    expect(res.json.hint).toBe(
      "After POST /api/items/archive, read GET /api/items back in the same scenario, then rebuild.",
    );
  });

  it("refuses a body over the bound with 413", async () => {
    const res = await call("POST", "/api/items", { title: "x".repeat(5000) });
    expect(res.status).toBe(413);
    expect(res.json).toEqual({
      error: "too_large",
      message: "The request body is larger than 4096 bytes.",
      limit_bytes: 4096,
    });
  });

  it("stops reading an oversized streamed body: 413 with Connection: close, then the socket closes", async () => {
    for (const head of [
      "POST /api/items HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
      "POST /api/items HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 104857600\r\n\r\n",
      "POST /__apptwin/episodes HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n",
    ]) {
      const { closed, answer } = await endlessUpload(head);
      expect(closed).toBe(true);
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer.toLowerCase()).toContain("\r\nconnection: close\r\n");
    }
  });

  it("bounds slow clients: 10 s for the headers, 30 s for the whole request; a stalled head gets 408", async () => {
    expect([twin.server.headersTimeout, twin.server.requestTimeout]).toEqual([10_000, 30_000]);
    const quick = createTwinServer(twinBundle({ model: itemsModel(), seed: ITEMS_SEED_STATE, tools: [] }), {
      headersTimeoutMs: 200,
      requestTimeoutMs: 400,
    });
    const quickBase = await quick.listen(0, "127.0.0.1");
    try {
      const { port } = new URL(quickBase);
      const stalled = await new Promise<{ answer: string; ms: number }>((done) => {
        const started = Date.now();
        const socket = connect(Number(port), "127.0.0.1");
        let answer = "";
        socket.setEncoding("latin1");
        socket.on("data", (d) => {
          answer += d;
        });
        socket.on("error", () => {});
        const deadline = setTimeout(() => socket.destroy(), 5000);
        socket.on("close", () => {
          clearTimeout(deadline);
          done({ answer, ms: Date.now() - started });
        });
        socket.write("GET /api/items HTTP/1.1\r\nHost: 127.0.0.1\r\n"); // the head never ends
      });
      expect(stalled.answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(stalled.ms).toBeLessThan(4000);
    } finally {
      await quick.close();
    }
  });

  it("parses form bodies (and refuses one where the recorded requests sent JSON)", async () => {
    const res = await fetch(`${base}/api/items`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-apptwin-episode": "bob" },
      body: "title=From+a+form",
    });
    // Read as a form, not as text: the twin names it. What the app does with a form here is not recorded.
    expect([res.status, await res.json()]).toMatchObject([
      400,
      {
        error: "malformed_body",
        message: expect.stringContaining("the body is application/x-www-form-urlencoded, not JSON"),
      },
    ]);
  });

  it("reports health and routes on the control plane", async () => {
    const health = await call("GET", "/__apptwin/health");
    expect(health.json).toMatchObject({ status: "ok", name: "items" });
    const routes = await call("GET", "/__apptwin/routes");
    expect(routes.json.tools).toContain("get_items");
    expect(routes.json.tools).not.toContain("post_items_archive");
    const bad = await call("POST", "/__apptwin/episodes", { id: "../x", seed: 1.5 });
    expect(bad.json.problems).toEqual([
      'id must be 1-128 letters, digits, ".", "_" or "-", starting with a letter or digit (got "../x")',
      "seed must be an integer (got 1.5)",
    ]);
  });

  it("gives every error body an error code and a message, and never suggests an id it would refuse", async () => {
    const bad = await call("POST", "/__apptwin/episodes", { id: "../x", seed: 1.5 });
    expect([bad.status, bad.json]).toEqual([
      400,
      {
        error: "invalid",
        message:
          'The episode was not created: id must be 1-128 letters, digits, ".", "_" or "-", starting with a letter or digit (got "../x"); seed must be an integer (got 1.5).',
        problems: [
          'id must be 1-128 letters, digits, ".", "_" or "-", starting with a letter or digit (got "../x")',
          "seed must be an integer (got 1.5)",
        ],
      },
    ]);
    const big = await call("POST", "/__apptwin/episodes", { id: "x".repeat(70_000) });
    expect([big.status, big.json]).toEqual([
      413,
      { error: "too_large", message: "The request body is larger than 65536 bytes.", limit_bytes: 65536 },
    ]);
    const invalid = await call("GET", "/api/items", undefined, { "x-apptwin-episode": "../x" });
    expect([invalid.status, invalid.json.error, invalid.json.message, invalid.json.hint]).toEqual([
      404,
      "unknown_episode",
      'No episode "../x"; it is not a valid episode id either (1-128 letters, digits, ".", "_" or "-", starting with a letter or digit).',
      'Create an episode with POST /__apptwin/episodes and a body such as {"id":"run-1"}, then send its id in x-apptwin-episode, or leave the header out to use "default".',
    ]);
    const state = await call("GET", "/__apptwin/episodes/a%20b/state");
    expect(state.json.message).toBe(
      'No episode "a b"; it is not a valid episode id either (1-128 letters, digits, ".", "_" or "-", starting with a letter or digit).',
    );
  });
});
