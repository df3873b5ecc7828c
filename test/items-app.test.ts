/**
 * The items fixture app's HTTP API over real loopback sockets (Node's fetch):
 * sign-in cookies and token, reads, the CSRF and bearer refusals, validation,
 * and ids that are never reused after a delete.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  ADMIN_EMAIL,
  ITEMS_SEED,
  type ItemsApp,
  startItemsApp,
} from "../scripts/fixtures/items-app/server.mjs";

const PASSWORD = "correct horse battery staple";
const serverPath = join(import.meta.dirname, "..", "scripts", "fixtures", "items-app", "server.mjs");

interface Session {
  token: string;
  csrf: string;
  cookie: string;
}

let app: ItemsApp;
beforeEach(async () => {
  app = await startItemsApp({ port: 0, password: PASSWORD });
});
afterEach(async () => {
  await app.close();
});

async function login(): Promise<Session> {
  const res = await fetch(`${app.url}/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: ADMIN_EMAIL, password: PASSWORD }),
  });
  expect(res.status).toBe(200);
  const cookies = res.headers.getSetCookie().map((c) => c.split(";")[0]!);
  const csrf = cookies.find((c) => c.startsWith("csrftoken="))!.slice("csrftoken=".length);
  const { token } = (await res.json()) as { token: string };
  return { token, csrf, cookie: cookies.join("; ") };
}

/** Headers of a fully authorised write. */
const writeHeaders = (s: Session) => ({
  authorization: `Bearer ${s.token}`,
  "x-csrf-token": s.csrf,
  cookie: s.cookie,
  "content-type": "application/json",
});

async function call(method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(`${app.url}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    redirect: "manual",
  });
  const text = await res.text();
  const isJson = res.headers.get("content-type")?.startsWith("application/json");
  return { status: res.status, headers: res.headers, text, json: isJson ? JSON.parse(text) : undefined };
}

describe("items app: sign-in", () => {
  it("sets an HttpOnly session cookie, a readable csrftoken cookie and answers a bearer token", async () => {
    const res = await fetch(`${app.url}/api/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: ADMIN_EMAIL, password: PASSWORD }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { token: string; user: unknown };
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    expect(body.user).toEqual({ id: 1, email: "admin@example.test", name: "Admin" });
    const [session, csrf] = res.headers.getSetCookie();
    expect(session).toMatch(/^session=[0-9a-f]{48}; HttpOnly; Path=\/; SameSite=Lax$/);
    expect(csrf).toMatch(/^csrftoken=[0-9a-f]{32}; Path=\/; SameSite=Lax$/);
  });

  it("refuses a wrong password or email with 401 and a malformed body with 422", async () => {
    const h = { "content-type": "application/json" };
    expect((await call("POST", "/api/login", h, { email: ADMIN_EMAIL, password: "nope" })).json).toEqual({
      error: "invalid_credentials",
    });
    const wrongEmail = await call("POST", "/api/login", h, { email: "x@example.test", password: PASSWORD });
    expect(wrongEmail.status).toBe(401);
    const missing = await call("POST", "/api/login", h, { email: ADMIN_EMAIL });
    expect(missing.status).toBe(422);
    expect(missing.json).toEqual({
      error: "invalid",
      fields: { password: "is required and must be a string" },
    });
  });
});

describe("items app: reads", () => {
  it("refuses reads without the session cookie or the bearer", async () => {
    const r = await call("GET", "/api/items", {});
    expect(r.status).toBe(401);
    expect(r.text).toBe('{"error":"unauthenticated"}');
    expect((await call("GET", "/api/items/1", { authorization: "Bearer not-a-token" })).status).toBe(401);
  });

  it("lists the seed in id order with either the session cookie or the bearer", async () => {
    const s = await login();
    const byCookie = await call("GET", "/api/items", { cookie: s.cookie });
    const byBearer = await call("GET", "/api/items", { authorization: `Bearer ${s.token}` });
    expect(byCookie.status).toBe(200);
    expect(byCookie.json).toEqual({ data: ITEMS_SEED, total: 5 });
    expect(byBearer.json).toEqual(byCookie.json);
    expect(ITEMS_SEED.map((i) => i.id)).toEqual([1, 2, 3, 4, 5]);
  });

  it("filters by done and paginates after the filter; total counts before pagination", async () => {
    const h = { authorization: `Bearer ${(await login()).token}` };
    const ids = (r: { json: { data: Array<{ id: number }> } }) => r.json.data.map((i) => i.id);
    const done = await call("GET", "/api/items?done=true", h);
    expect([ids(done), done.json.total]).toEqual([[2, 4], 2]);
    const page = await call("GET", "/api/items?done=false&limit=2&offset=1", h);
    expect([ids(page), page.json.total]).toEqual([[3, 5], 3]);
    const empty = await call("GET", "/api/items?limit=0", h);
    expect([ids(empty), empty.json.total]).toEqual([[], 5]);
    const bad = await call("GET", "/api/items?done=yes&limit=-1", h);
    expect(bad.status).toBe(422);
    expect(bad.json).toEqual({
      error: "invalid",
      fields: { done: "must be true or false", limit: "must be a non-negative integer" },
    });
  });

  it("answers one item by id and 404 for an unknown one", async () => {
    const h = { authorization: `Bearer ${(await login()).token}` };
    expect((await call("GET", "/api/items/3", h)).json).toEqual(ITEMS_SEED[2]);
    for (const path of ["/api/items/99", "/api/items/abc", "/api/nothing"]) {
      const r = await call("GET", path, h);
      expect([r.status, r.text]).toEqual([404, '{"error":"not_found"}']);
    }
  });
});

describe("items app: write refusals", () => {
  it("needs the bearer (401) and then the x-csrf-token matching the csrftoken cookie (403)", async () => {
    const s = await login();
    const json = { "content-type": "application/json" };
    const cases: Array<[Record<string, string>, number, string]> = [
      [{ ...json, cookie: s.cookie, "x-csrf-token": s.csrf }, 401, '{"error":"unauthenticated"}'],
      [{ ...writeHeaders(s), authorization: "Bearer forged-token" }, 401, '{"error":"unauthenticated"}'],
      [{ ...json, authorization: `Bearer ${s.token}`, cookie: s.cookie }, 403, '{"error":"csrf"}'],
      [{ ...writeHeaders(s), "x-csrf-token": "0".repeat(32) }, 403, '{"error":"csrf"}'],
      [{ ...json, authorization: `Bearer ${s.token}`, "x-csrf-token": s.csrf }, 403, '{"error":"csrf"}'],
    ];
    for (const [headers, status, text] of cases) {
      for (const [method, path] of [
        ["POST", "/api/items"],
        ["PATCH", "/api/items/1"],
        ["DELETE", "/api/items/2"],
      ] as const) {
        const r = await call(
          method,
          path,
          headers,
          method === "DELETE" ? undefined : { title: "X", done: true },
        );
        expect([method, r.status, r.text]).toEqual([method, status, text]);
      }
    }
    expect((await call("GET", "/api/items", { cookie: s.cookie })).json).toEqual({
      data: ITEMS_SEED,
      total: 5,
    });
  });
});

describe("items app: writes", () => {
  it("creates, replaces, patches and deletes, stamping times and never reusing a deleted id", async () => {
    const s = await login();
    const h = writeHeaders(s);
    const before = new Date().toISOString();
    const created = await call("POST", "/api/items", h, { title: "  Milk  " });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ id: 6, title: "Milk", done: false });
    expect(created.json.created_at).toBe(created.json.updated_at);
    expect(created.json.created_at >= before && created.json.created_at <= new Date().toISOString()).toBe(
      true,
    );
    expect((await call("GET", "/api/items/6", h)).json).toEqual(created.json);

    const put = await call("PUT", "/api/items/6", h, { title: "Oat milk", done: true });
    expect([put.status, put.json.title, put.json.done, put.json.created_at]).toEqual([
      200,
      "Oat milk",
      true,
      created.json.created_at,
    ]);
    const patched = await call("PATCH", "/api/items/6", h, { done: false });
    expect([patched.status, patched.json.title, patched.json.done]).toEqual([200, "Oat milk", false]);
    expect(patched.json.updated_at >= put.json.updated_at).toBe(true);

    const deleted = await call("DELETE", "/api/items/6", h);
    expect([deleted.status, deleted.text]).toEqual([204, ""]);
    expect((await call("GET", "/api/items/6", h)).status).toBe(404);
    expect((await call("DELETE", "/api/items/6", h)).status).toBe(404);

    const next = await call("POST", "/api/items", h, { title: "Bread", done: true });
    expect([next.json.id, next.json.done]).toEqual([7, true]);
    const list = await call("GET", "/api/items", h);
    expect(list.json.data.map((i: { id: number }) => i.id)).toEqual([1, 2, 3, 4, 5, 7]);
  });

  it("answers 422 naming every invalid field, 404 for an unknown id and 413 beyond 1 MiB", async () => {
    const h = writeHeaders(await login());
    const cases: Array<[string, string, unknown, Record<string, string>]> = [
      [
        "POST",
        "/api/items",
        {},
        { title: "is required and must be a non-empty string of at most 200 characters" },
      ],
      [
        "POST",
        "/api/items",
        { title: " ", done: "yes" },
        { title: "must be a non-empty string of at most 200 characters", done: "must be true or false" },
      ],
      ["PUT", "/api/items/1", { title: "A" }, { done: "is required and must be true or false" }],
      ["PATCH", "/api/items/1", {}, { body: "must change at least one of title, done" }],
      ["PATCH", "/api/items/1", [1], { body: "must be a JSON object" }],
      ["POST", "/api/items", "{not json", { body: "must be valid JSON" }],
    ];
    for (const [method, path, body, fields] of cases) {
      const r = await call(method, path, h, body);
      expect([method, r.status, r.json]).toEqual([method, 422, { error: "invalid", fields }]);
    }
    expect((await call("PUT", "/api/items/42", h, { title: "A", done: true })).json).toEqual({
      error: "not_found",
    });
    const huge = await call("POST", "/api/items", h, JSON.stringify({ title: "x".repeat(1024 * 1024) }));
    expect([huge.status, huge.json]).toEqual([413, { error: "too_large", limit_bytes: 1048576 }]);
    expect((await call("GET", "/api/items", h)).json.total).toBe(5);
  });
});

describe("items app: other origin, pages, instances", () => {
  it("redirects /api/redirect-out to the other origin's /landing, which records what reaches it", async () => {
    const r = await call("GET", "/api/redirect-out", {});
    expect([r.status, r.headers.get("location")]).toEqual([302, `${app.other.url}/landing`]);
    expect(app.other.url).not.toBe(app.url);
    expect(app.other.requests).toEqual([]);
    const landing = await fetch(`${app.other.url}/landing`);
    expect(await landing.text()).toContain("<h1>Other origin</h1>");
    await fetch(`${app.other.url}/collect`, { method: "POST", body: "hello" });
    expect(app.other.requests.map(({ method, url, body }) => ({ method, url, body }))).toEqual([
      { method: "GET", url: "/landing", body: "" },
      { method: "POST", url: "/collect", body: "hello" },
    ]);
    expect(app.other.requests[1]!.headers["content-type"]).toBe("text/plain;charset=UTF-8");
  });

  it("serves the pages and their static assets, and redirects / to /items", async () => {
    const root = await call("GET", "/", {});
    expect([root.status, root.headers.get("location")]).toEqual([302, "/items"]);
    const loginHtml = (await call("GET", "/login", {})).text;
    expect(loginHtml).toContain('<label for="email">Email</label>');
    expect(loginHtml).toContain('<label for="password">Password</label>');
    expect(loginHtml).toContain('<button type="submit">Sign in</button>');
    const itemsHtml = await call("GET", "/items", {});
    expect(itemsHtml.text).toContain('<label for="new-item">New item</label>');
    expect(itemsHtml.text).toContain('<script src="/static/items.js" defer></script>');
    expect(itemsHtml.text).toContain('<link rel="stylesheet" href="/static/style.css">');
    expect((await call("GET", "/cross-origin", {})).text).toContain(
      `<meta name="other-origin" content="${app.other.origin}">`,
    );
    const js = await call("GET", "/static/items.js", {});
    expect([js.status, js.headers.get("content-type")]).toEqual([200, "text/javascript; charset=utf-8"]);
    expect((await call("GET", "/static/style.css", {})).headers.get("content-type")).toBe(
      "text/css; charset=utf-8",
    );
    expect((await call("GET", "/static/../server.mjs", {})).status).toBe(404);
    expect((await call("POST", "/items", {}, "x")).status).toBe(405);
  });

  it("reads a request target starting with // as a path, not as another host's /api", async () => {
    const s = await login();
    const r = await call("GET", "//evil.example/api/items", { authorization: `Bearer ${s.token}` });
    expect([r.status, r.text]).toEqual([404, "Not found\n"]);
    expect((await call("GET", "//evil.example/login", {})).status).toBe(404);
  });

  it("logs every request it receives", async () => {
    await call("GET", "/login", {});
    await call("GET", "/api/items?done=true", {});
    expect(app.requests.map(({ method, url }) => ({ method, url }))).toEqual([
      { method: "GET", url: "/login" },
      { method: "GET", url: "/api/items?done=true" },
    ]);
    expect(app.requests[1]!.headers["host"]).toBe(new URL(app.url).host);
  });

  it("starts every app fresh from the same seed, with its own state", async () => {
    const s = await login();
    await call("DELETE", "/api/items/1", writeHeaders(s));
    const second = await startItemsApp({ port: 0, password: PASSWORD });
    try {
      expect(second.port).not.toBe(app.port);
      const r = await fetch(`${second.url}/api/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: ADMIN_EMAIL, password: PASSWORD }),
      });
      const { token } = (await r.json()) as { token: string };
      expect(token).not.toBe(s.token);
      const list = await fetch(`${second.url}/api/items`, { headers: { authorization: `Bearer ${token}` } });
      expect(await list.json()).toEqual({ data: ITEMS_SEED, total: 5 });
      const foreign = await fetch(`${second.url}/api/items`, {
        headers: { authorization: `Bearer ${s.token}` },
      });
      expect(foreign.status).toBe(401);
    } finally {
      await second.close();
    }
  });

  it("refuses to start without a password or on a non-loopback host", async () => {
    await expect(startItemsApp({ port: 0, password: "" })).rejects.toThrow(
      "startItemsApp: password is required (a non-empty string)",
    );
    await expect(startItemsApp({ port: 0, password: "x", host: "0.0.0.0" })).rejects.toThrow(
      'startItemsApp: host must be a loopback address (127.0.0.1, ::1, localhost), got "0.0.0.0"',
    );
  });
});

describe("items app: CLI", () => {
  it("prints one listening line and serves the app; refuses to start without ITEMS_PASSWORD", async () => {
    const { ITEMS_PASSWORD: _, ...env } = process.env;
    const refused = spawn(process.execPath, [serverPath, "--port", "0"], { env });
    let stderr = "";
    refused.stderr.on("data", (d) => {
      stderr += d;
    });
    const [code] = await once(refused, "exit");
    expect(code).toBe(2);
    expect(stderr).toBe(
      "items-app: set ITEMS_PASSWORD to the sign-in password for admin@example.test " +
        "(for example ITEMS_PASSWORD=… node scripts/fixtures/items-app/server.mjs --port 4010)\n",
    );

    const child = spawn(process.execPath, [serverPath, "--port", "0"], {
      env: { ...env, ITEMS_PASSWORD: PASSWORD },
    });
    try {
      const [line] = (await once(child.stdout, "data")) as [Buffer];
      const m =
        /^items-app listening on (http:\/\/127\.0\.0\.1:\d+) \(other origin http:\/\/127\.0\.0\.1:\d+\)\n$/.exec(
          String(line),
        );
      expect(m).not.toBeNull();
      const res = await fetch(`${m![1]}/api/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: ADMIN_EMAIL, password: PASSWORD }),
      });
      expect(res.status).toBe(200);
    } finally {
      child.kill("SIGTERM");
      const [exitCode] = await once(child, "exit");
      expect(exitCode).toBe(0);
    }
  });
});
