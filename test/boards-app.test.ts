/**
 * The boards fixture app over real loopback sockets (fetch), its page in a
 * real Chromium, its CLI as a real process, and the proof that
 * examples/boards.scenario.json fits the app: every request step is sent in
 * order and answers with the status the scenario expects.
 */
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type BoardsApp, startBoardsApp } from "../scripts/fixtures/boards-app/server.mjs";
import { launchTestBrowser } from "./support/launch-test-browser.js";

const root = join(import.meta.dirname, "..");
const KEY = "test-key-0123456789";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const A = "baa9198f-6ed1-4c87-980a-aa5953e0e765";
const B = "856c66b0-57ad-43dc-8b71-1f93f6ccd4e9";
const CARD_2 = "04164da1-8478-46d0-b621-1d2de518a1b0";
const SEED_BOARDS = [
  { id: A, name: "Launch Plan", createdAt: 1735689600000, updatedAt: 1735696800000 },
  { id: B, name: "Home Renovation", createdAt: 1735776000000, updatedAt: 1735783200000 },
];
const NOT_FOUND = { message: "not found" };

// biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked field by field
type Json = any;
interface Answer {
  status: number;
  headers: Headers;
  body: Json;
}
interface CallOptions {
  json?: unknown;
  form?: Record<string, string>;
  key?: string | null;
  headers?: Record<string, string>;
}

let app: BoardsApp;

async function call(method: string, path: string, o: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...o.headers };
  if (o.key !== null) headers["x-api-key"] = o.key ?? KEY;
  let body: string | undefined;
  if (o.json !== undefined) {
    headers["content-type"] ??= "application/json";
    body = JSON.stringify(o.json);
  } else if (o.form) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(o.form).toString();
  }
  const res = await fetch(app.origin + path, { method, headers, body });
  const text = await res.text();
  const type = res.headers.get("content-type") ?? "";
  return { status: res.status, headers: res.headers, body: type.includes("json") ? JSON.parse(text) : text };
}

beforeEach(async () => {
  app = await startBoardsApp({ port: 0, apiKey: KEY, host: "127.0.0.1" });
});
afterEach(async () => {
  await app.close();
});

describe("boards app: auth and page", () => {
  it("refuses API requests without the right x-api-key", async () => {
    for (const key of [null, "wrong", ""]) {
      const r = await call("GET", "/api/boards", { key });
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ message: "missing or bad api key" });
    }
    expect((await call("GET", "/api/nope", { key: null })).status).toBe(401);
  });

  it("serves the page and its assets without a key", async () => {
    const page = await call("GET", "/", { key: null });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.body).toContain('<label for="api-key">API key</label>');
    expect(page.body).toContain('<button type="submit">Connect</button>');
    expect((await call("GET", "/assets/boards.js", { key: null })).headers.get("content-type")).toBe(
      "text/javascript; charset=utf-8",
    );
    expect((await call("GET", "/assets/boards.css", { key: null })).status).toBe(200);
    expect(await call("GET", "/missing", { key: null })).toMatchObject({ status: 404, body: NOT_FOUND });
  });

  it("requires an apiKey to start", async () => {
    await expect(startBoardsApp({ apiKey: "" })).rejects.toThrow("startBoardsApp: apiKey is required");
  });

  it("logs every request it receives, in order", async () => {
    await call("GET", "/");
    await call("GET", "/api/search?q=tile");
    expect(app.requests).toEqual([
      { method: "GET", url: "/" },
      { method: "GET", url: "/api/search?q=tile" },
    ]);
  });
});

describe("boards app: reads", () => {
  it("lists boards as a bare array by createdAt, with epoch-ms times", async () => {
    const r = await call("GET", "/api/boards");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(r.body).toEqual(SEED_BOARDS);
    expect((await call("GET", `/api/boards/${A}`)).body).toEqual(SEED_BOARDS[0]);
    expect(await call("GET", "/api/boards/00000000-0000-4000-8000-000000000000")).toMatchObject({
      status: 404,
      body: NOT_FOUND,
    });
  });

  it("lists a board's cards as a bare array by position, and reads one card", async () => {
    const a = (await call("GET", `/api/boards/${A}/cards`)).body as Json[];
    const b = (await call("GET", `/api/boards/${B}/cards`)).body as Json[];
    expect(a.map((c) => c.title)).toEqual([
      "Write release notes",
      "Fix login redirect",
      "Design landing page",
      "Set up analytics",
    ]);
    expect(b.map((c) => [c.position, c.status])).toEqual([
      [1, "todo"],
      [2, "doing"],
      [3, "done"],
    ]);
    for (const c of [...a, ...b]) {
      expect(Object.keys(c)).toEqual([
        "id",
        "boardId",
        "title",
        "status",
        "position",
        "createdAt",
        "updatedAt",
      ]);
      expect(c.id).toMatch(UUID);
      expect(Number.isInteger(c.createdAt) && c.createdAt > 1.7e12 && c.updatedAt >= c.createdAt).toBe(true);
    }
    const one = await call("GET", `/api/boards/${A}/cards/${CARD_2}`);
    expect(one.body).toEqual(a[1]);
    // A card is found only under its own board.
    expect(await call("GET", `/api/boards/${B}/cards/${CARD_2}`)).toMatchObject({
      status: 404,
      body: NOT_FOUND,
    });
  });

  it("answers 405 with Allow on a known path, 404 on an unknown one", async () => {
    const r = await call("PUT", `/api/boards/${A}`, { json: { name: "x" } });
    expect(r).toMatchObject({ status: 405, body: { message: "method not allowed" } });
    expect(r.headers.get("allow")).toBe("GET");
    expect(await call("GET", "/api/lists")).toMatchObject({ status: 404, body: NOT_FOUND });
  });

  it("serves the same seed data on every start with the same seed, other UUIDs with another", async () => {
    const dump = async (a: BoardsApp) => {
      const get = (p: string) => fetch(a.origin + p, { headers: { "x-api-key": KEY } }).then((r) => r.text());
      const boards = await get("/api/boards");
      const ids = (JSON.parse(boards) as Json[]).map((b) => b.id);
      const nested = await Promise.all(ids.map((id) => get(`/api/boards/${id}/cards`)));
      const comments = await Promise.all(ids.map((id) => get(`/api/boards/${id}/comments`)));
      return [boards, ...nested, ...comments];
    };
    const again = await startBoardsApp({ apiKey: KEY });
    const other = await startBoardsApp({ apiKey: KEY, seed: 2 });
    try {
      expect(await dump(again)).toEqual(await dump(app));
      const otherBoards = JSON.parse((await dump(other))[0] as string) as Json[];
      expect(otherBoards.map((b) => b.name)).toEqual(["Launch Plan", "Home Renovation"]);
      expect(otherBoards[0].id).not.toBe(A);
    } finally {
      await again.close();
      await other.close();
    }
  });
});

describe("boards app: writes", () => {
  it("creates a card whose answer alone carries a random etag", async () => {
    const before = Date.now();
    const r = await call("POST", `/api/boards/${A}/cards`, { json: { title: "Draft the launch email" } });
    expect(r.status).toBe(201);
    const { etag, ...card } = r.body;
    expect(etag).toMatch(/^[0-9a-f]{16}$/);
    expect(card).toMatchObject({ boardId: A, title: "Draft the launch email", status: "todo", position: 5 });
    expect(card.id).toMatch(UUID);
    expect(card.createdAt).toBeGreaterThanOrEqual(before);
    expect(card.updatedAt).toBe(card.createdAt);
    expect(r.headers.get("location")).toBe(`/api/boards/${A}/cards/${card.id}`);
    const list = (await call("GET", `/api/boards/${A}/cards`)).body as Json[];
    expect(list.at(-1)).toEqual(card);
    expect((await call("GET", `/api/boards/${A}/cards/${card.id}`)).body).toEqual(card);
    const second = await call("POST", `/api/boards/${A}/cards`, {
      json: { title: "Another", status: "done" },
    });
    expect(second.body.etag).not.toBe(etag);
    expect(second.body.position).toBe(6);
  });

  it("refuses invalid writes with 422 {message, field} and changes nothing", async () => {
    const cards = `/api/boards/${A}/cards`;
    const cases: [string, string, unknown, Json][] = [
      ["POST", cards, { title: "" }, { message: "title is required", field: "title" }],
      ["POST", cards, { title: "   " }, { message: "title is required", field: "title" }],
      ["POST", cards, { status: "todo" }, { message: "title is required", field: "title" }],
      ["POST", cards, { title: 7 }, { message: "title must be a string", field: "title" }],
      [
        "POST",
        cards,
        { title: "x", status: "later" },
        { message: "status must be one of todo, doing, done", field: "status" },
      ],
      ["POST", cards, { title: "x", color: "red" }, { message: "unknown field: color", field: "color" }],
      ["POST", cards, [], { message: "body must be a JSON object", field: null }],
      ["POST", "/api/boards", { name: "" }, { message: "name is required", field: "name" }],
      [
        "PATCH",
        `${cards}/${CARD_2}`,
        {},
        { message: "nothing to update: send title, status or position", field: null },
      ],
      [
        "PATCH",
        `${cards}/${CARD_2}`,
        { position: 0 },
        { message: "position must be an integer of at least 1", field: "position" },
      ],
    ];
    for (const [method, path, json, body] of cases) {
      expect(await call(method, path, { json })).toMatchObject({ status: 422, body });
    }
    expect((await call("GET", cards)).body).toHaveLength(4);
    expect((await call("GET", "/api/boards")).body).toEqual(SEED_BOARDS);
    const wrongType = await call("POST", cards, {
      json: { title: "x" },
      headers: { "content-type": "text/plain" },
    });
    expect(wrongType).toMatchObject({
      status: 415,
      body: { message: "expected content-type application/json" },
    });
    const bad = await fetch(app.origin + cards, {
      method: "POST",
      headers: { "x-api-key": KEY, "content-type": "application/json" },
      body: "{",
    });
    expect([bad.status, await bad.json()]).toEqual([400, { message: "invalid JSON body" }]);
  });

  it("patches a card partially and stamps updatedAt", async () => {
    const path = `/api/boards/${A}/cards/${CARD_2}`;
    const old = (await call("GET", path)).body;
    const before = Date.now();
    const r = await call("PATCH", path, { json: { status: "done" } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ...old, status: "done", updatedAt: r.body.updatedAt });
    expect(r.body.updatedAt).toBeGreaterThanOrEqual(before);
    expect((await call("GET", path)).body).toEqual(r.body);
  });

  it("deletes a card", async () => {
    const path = `/api/boards/${A}/cards/${CARD_2}`;
    expect(await call("DELETE", path)).toMatchObject({ status: 200, body: { deleted: true, id: CARD_2 } });
    const ids = ((await call("GET", `/api/boards/${A}/cards`)).body as Json[]).map((c) => c.id);
    expect(ids).toHaveLength(3);
    expect(ids).not.toContain(CARD_2);
    expect(await call("GET", path)).toMatchObject({ status: 404, body: NOT_FOUND });
    expect(await call("DELETE", path)).toMatchObject({ status: 404, body: NOT_FOUND });
  });

  it("creates a board that lists last", async () => {
    const r = await call("POST", "/api/boards", { json: { name: "Team Offsite" } });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body)).toEqual(["id", "name", "createdAt", "updatedAt"]);
    expect((await call("GET", "/api/boards")).body).toEqual([...SEED_BOARDS, r.body]);
  });

  it("takes a form-encoded comment", async () => {
    const path = `/api/boards/${A}/comments`;
    const seed = (await call("GET", path)).body as Json[];
    expect(seed.map((c) => c.author)).toEqual(["Priya"]);
    expect((await call("GET", `/api/boards/${B}/comments`)).body).toEqual([]);
    const r = await call("POST", path, { form: { author: "Sam", text: "Ready & reviewed?" } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ boardId: A, author: "Sam", text: "Ready & reviewed?" });
    expect(Object.keys(r.body)).toEqual(["id", "boardId", "author", "text", "createdAt"]);
    expect((await call("GET", path)).body).toEqual([...seed, r.body]);
    expect(await call("POST", path, { form: { author: "Sam" } })).toMatchObject({
      status: 422,
      body: { message: "text is required", field: "text" },
    });
    expect(await call("POST", path, { json: { author: "Sam", text: "x" } })).toMatchObject({
      status: 415,
      body: { message: "expected content-type application/x-www-form-urlencoded" },
    });
  });

  it("archives a board without changing any read, then refuses writes under it", async () => {
    const r = await call("POST", `/api/boards/${B}/archive`);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(["id", "archived", "archivedAt"]);
    expect(r.body).toMatchObject({ id: B, archived: true });
    expect((await call("GET", "/api/boards")).body).toEqual(SEED_BOARDS);
    expect(await call("POST", `/api/boards/${B}/archive`)).toMatchObject({
      status: 409,
      body: { message: "board is already archived" },
    });
    expect(await call("POST", `/api/boards/${B}/cards`, { json: { title: "x" } })).toMatchObject({
      status: 409,
      body: { message: "board is archived" },
    });
  });
});

describe("boards app: search", () => {
  it("ranks boards and cards by trigram similarity, not by a filter", async () => {
    const r = await call("GET", "/api/search?q=launch");
    expect(r).toMatchObject({ status: 200 });
    expect(r.body).toEqual({
      query: "launch",
      hits: [{ type: "board", id: A, title: "Launch Plan", score: 0.833 }],
    });
    // A misspelling still finds the board first, and a card that shares only trigrams.
    const typo = (await call("GET", "/api/search?q=lanch")).body;
    expect(typo.hits.map((h: Json) => [h.type, h.title, h.score])).toEqual([
      ["board", "Launch Plan", 0.654],
      ["card", "Design landing page", 0.352],
    ]);
  });

  it("follows the state: a created card becomes a hit, ranked by score", async () => {
    await call("POST", `/api/boards/${A}/cards`, { json: { title: "Draft the launch email" } });
    const hits = (await call("GET", "/api/search?q=launch")).body.hits as Json[];
    expect(hits.map((h) => h.title)).toEqual(["Launch Plan", "Draft the launch email"]);
    expect(hits[0].score).toBeGreaterThan(hits[1].score);
  });

  it("requires q", async () => {
    for (const path of ["/api/search", "/api/search?q=", "/api/search?q=%20"]) {
      expect(await call("GET", path)).toMatchObject({
        status: 400,
        body: { message: "q is required", field: "q" },
      });
    }
  });
});

describe("examples/boards.scenario.json", () => {
  const scenario = JSON.parse(readFileSync(join(root, "examples", "boards.scenario.json"), "utf8"));

  it("has the agreed header, UI steps and API key secret", () => {
    expect(scenario).toMatchObject({
      schema_version: 1,
      name: "boards-basic",
      start_url: "http://127.0.0.1:4020/",
      secrets: [{ id: "apikey", env: "BOARDS_API_KEY" }],
    });
    expect(scenario.steps.slice(0, 4).map((s: Json) => s.action)).toEqual([
      "navigate",
      "fill",
      "click",
      "expect-text",
    ]);
    const ids = scenario.steps.map((s: Json) => s.step_id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("fits the app: every request step, sent in order, answers the expected status", async () => {
    const requests = scenario.steps.filter((s: Json) => s.action === "request");
    expect(requests.map((s: Json) => s.method).sort()).toEqual(
      ["DELETE", "PATCH", ...Array(5).fill("POST"), ...Array(10).fill("GET")].sort(),
    );
    const results: [string, number, boolean][] = [];
    for (const step of requests) {
      expect(step.headers).toEqual({ "x-api-key": { session_storage: "apiKey" } });
      const query = new URLSearchParams((step.query ?? []).map((q: Json) => [q.name, q.value])).toString();
      const form = step.form && Object.fromEntries(step.form.map((f: Json) => [f.name, f.value]));
      const r = await call(step.method, step.path + (query ? `?${query}` : ""), { json: step.json, form });
      const ok = step.expected_status
        ? step.expected_status.includes(r.status)
        : r.status >= 200 && r.status < 300;
      results.push([step.step_id, r.status, ok]);
    }
    expect(results.filter(([, , ok]) => !ok)).toEqual([]);
    expect(results.find(([id]) => id === "create-card-invalid")?.[1]).toBe(422);
  });
});

describe("boards app: the page in Chromium", () => {
  it("connects with the key, stores it in sessionStorage and lists boards and cards", async () => {
    const browser = await launchTestBrowser();
    try {
      const page = await browser.newPage();
      await page.goto(app.url);
      await page.getByLabel("API key").fill("wrong");
      await page.getByRole("button", { name: "Connect" }).click();
      await page.getByText("Could not connect: missing or bad api key").waitFor();
      expect(await page.evaluate(() => sessionStorage.getItem("apiKey"))).toBeNull();

      await page.getByLabel("API key").fill(KEY);
      await page.getByRole("button", { name: "Connect" }).click();
      await page.getByText("Connected: 2 boards.").waitFor();
      expect(await page.evaluate(() => sessionStorage.getItem("apiKey"))).toBe(KEY);
      expect(await page.getByRole("heading", { level: 2 }).allTextContents()).toEqual([
        "Launch Plan",
        "Home Renovation",
      ]);
      await page.getByText("Replace kitchen tap").waitFor();
      const api = app.requests.filter((r) => r.url.startsWith("/api/")).slice(-3);
      expect(api).toEqual([
        { method: "GET", url: "/api/boards" },
        { method: "GET", url: `/api/boards/${A}/cards` },
        { method: "GET", url: `/api/boards/${B}/cards` },
      ]);
    } finally {
      await browser.close();
    }
  });
});

describe("boards app: CLI", () => {
  const server = join(root, "scripts", "fixtures", "boards-app", "server.mjs");

  it("refuses to start without BOARDS_API_KEY", () => {
    const env = { ...process.env };
    delete env.BOARDS_API_KEY;
    const r = spawnSync(process.execPath, [server, "--port", "0"], { encoding: "utf8", env });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      "boards-app: BOARDS_API_KEY is not set; set it to the API key the app should accept, " +
        "e.g. BOARDS_API_KEY=dev-key node scripts/fixtures/boards-app/server.mjs --port 4020\n",
    );
  });

  it("serves on the given port with the key from the environment", async () => {
    const child = spawn(process.execPath, [server, "--port", "0"], {
      env: { ...process.env, BOARDS_API_KEY: KEY },
      stdio: ["ignore", "ignore", "pipe"],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let err = "";
        child.stderr.on("data", (d) => {
          err += d;
          const m = /^boards-app listening on (http:\/\/127\.0\.0\.1:\d+\/)\n/.exec(err);
          if (m?.[1]) resolve(m[1]);
        });
        child.once("exit", (code) => reject(new Error(`exited ${code}: ${err}`)));
      });
      const res = await fetch(`${url}api/boards`, { headers: { "x-api-key": KEY } });
      expect(await res.json()).toEqual(SEED_BOARDS);
    } finally {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    }
  });
});
