/**
 * The twin as a test double, over a real loopback socket and a real MCP
 * client: the request journal and verification counts, latency (asserted by
 * order and a minimum, never a maximum), and each fault kind (a status with
 * the app's own body, a dropped connection, a truncated body), set at start
 * and per episode over the control plane.
 */
import { request as httpRequest } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { fetch } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolsFromModel } from "../src/bundle/tool-definitions.js";
import type { FaultPlan } from "../src/serve/fault-plan.js";
import { createTwinServer, type TwinServer } from "../src/serve/http/twin-http-server.js";
import { logLine } from "../src/serve/log-line.js";
import type { JournalEntry } from "../src/serve/request-journal.js";
import { ITEMS_SEED_STATE, itemsModel } from "./fixtures/models/items-twin.js";
import { twinBundle } from "./fixtures/models/twin-bundle-fixture.js";

// The items twin, its creates recorded sending a password beside the title (the journal masks it).
const items = itemsModel();
const model = {
  ...items,
  endpoints: items.endpoints.map((e) =>
    e.tool_name === "post_items"
      ? {
          ...e,
          request_schema: {
            ...e.request_schema,
            properties: { title: { type: "string" }, password: { type: "string" } },
          },
        }
      : e,
  ),
};
const bundle = twinBundle({ model, seed: ITEMS_SEED_STATE, tools: toolsFromModel(model) });

/** Every request a test server answered, as `--log` would see them. */
const seen: JournalEntry[] = [];
let twin: TwinServer;
let base: string;

/** At start: every request of GET /api/items/summary takes 150 ms; the first DELETE of an item fails with 503. */
const START_PLAN: FaultPlan = {
  schema_version: 1,
  routes: [
    { route: "GET /api/items/summary", latency: { fixed_ms: 150 } },
    {
      route: "delete_items_by_id",
      fault: { kind: "status", status: 503, body: { error: "maintenance" } },
      times: 1,
    },
  ],
};

beforeAll(async () => {
  twin = createTwinServer(bundle, { faults: START_PLAN, onRequest: (e) => seen.push(e) });
  base = await twin.listen(0, "127.0.0.1");
});
afterAll(async () => twin?.close());

async function call(method: string, path: string, opts: { body?: unknown; episode?: string } = {}) {
  const headers: Record<string, string> = {};
  if (opts.body !== undefined) headers["content-type"] = "application/json";
  if (opts.episode) headers["x-apptwin-episode"] = opts.episode;
  const res = await fetch(base + path, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : null };
}

async function newEpisode(id: string) {
  expect((await call("POST", "/__apptwin/episodes", { body: { id } })).status).toBe(201);
}

async function setFaults(id: string, plan: unknown) {
  const res = await fetch(`${base}/__apptwin/episodes/${id}/faults`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(plan),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

/** A raw request, so a dropped or cut-off answer shows as what a client meets. */
function raw(
  method: string,
  path: string,
  episode: string,
): Promise<{ status?: number; bytes: number; error?: string }> {
  return new Promise((resolve) => {
    const url = new URL(base + path);
    const req = httpRequest(
      { host: url.hostname, port: url.port, path, method, headers: { "x-apptwin-episode": episode } },
      (res) => {
        let bytes = 0;
        res.on("data", (c: Buffer) => (bytes += c.length));
        res.on("end", () => resolve({ status: res.statusCode, bytes }));
        res.on("error", (e) => resolve({ status: res.statusCode, bytes, error: e.message }));
        res.on("aborted", () => resolve({ status: res.statusCode, bytes, error: "aborted" }));
      },
    );
    req.on("error", (e) => resolve({ bytes: 0, error: (e as NodeJS.ErrnoException).code ?? e.message }));
    req.end();
  });
}

describe("the request journal", () => {
  it("records every request of an episode with what answered it and the rule", async () => {
    await newEpisode("j1");
    await call("GET", "/api/items", { episode: "j1" });
    await call("POST", "/api/items", { episode: "j1", body: { title: "Milk", password: "hunter22" } });
    await call("GET", "/api/items/6", { episode: "j1" });
    await call("GET", "/api/nothing", { episode: "j1" });
    await call("POST", "/api/login", { episode: "j1", body: { email: "admin@example.test" } });
    await call("GET", "/api/items", { episode: "j1" });
    const { status, json } = await call("GET", "/__apptwin/episodes/j1/requests");
    expect(status).toBe(200);
    expect(
      json.requests.map((e: JournalEntry) => [e.seq, e.method, e.path, e.status, e.served_by, e.rule, e.via]),
    ).toEqual([
      [1, "GET", "/api/items", 200, "state", "get_items", "http"],
      [2, "POST", "/api/items", 201, "state", "post_items", "http"],
      [3, "GET", "/api/items/6", 200, "state", "get_items_by_id", "http"],
      [4, "GET", "/api/nothing", 404, "miss", null, "http"],
      [5, "POST", "/api/login", 200, "replay", "post_login", "http"],
      [6, "GET", "/api/items", 200, "state", "get_items", "http"],
    ]);
    // The body is kept for verification, a credential-named field masked.
    expect(json.requests[1].body).toEqual({ title: "Milk", password: "[MASKED]" });
    expect(JSON.stringify(json)).not.toContain("hunter22");
    expect(json.dropped).toBe(0);
  });

  it("never repeats a credential sent in the query: not in the miss, the journal nor the access log", async () => {
    await newEpisode("jq");
    const secrets = ["tokenvalue-0d9f8e7c6b5a", "apikeyvalue-1a2b3c4d5e6f", "k3y4value5x6y7z8w9q0r1s2"];
    const path = `/api/items?token=${secrets[0]}&api_key=${secrets[1]}&key=${secrets[2]}&sort_key=title`;
    const miss = await call("GET", path, { episode: "jq" });
    expect(miss.status).toBe(501);
    expect(miss.json.request).toBe(
      "GET /api/items?token=%5BMASKED%5D&api_key=%5BMASKED%5D&key=%5BMASKED%5D&sort_key=title",
    );
    const journal = await call("GET", "/__apptwin/episodes/jq/requests");
    expect(journal.json.requests[0].query).toBe(
      "token=%5BMASKED%5D&api_key=%5BMASKED%5D&key=%5BMASKED%5D&sort_key=title",
    );
    const logged = seen.filter((e) => e.episode === "jq").map(logLine);
    expect(logged).toHaveLength(1);
    for (const text of [JSON.stringify(miss.json), JSON.stringify(journal.json), ...logged])
      for (const secret of secrets) {
        expect(text).not.toContain(secret);
        expect(text).not.toContain(encodeURIComponent(secret));
        expect(text).not.toContain(Buffer.from(secret).toString("base64"));
      }
  });

  it("filters by method, path (exact, template, prefix) and status (exact or class), and counts for verification", async () => {
    const q = async (query: string) =>
      (await call("GET", `/__apptwin/episodes/j1/requests/count?${query}`)).json;
    expect(await q("method=GET&path=/api/items")).toMatchObject({ id: "j1", count: 2 });
    expect((await q("path=/api/items/{id}")).count).toBe(1);
    expect((await q("path=/api/*")).count).toBe(6);
    expect((await q("status=2xx")).count).toBe(5);
    expect((await q("status=404&served_by=miss")).count).toBe(1);
    expect((await q("rule=post_items&method=post")).count).toBe(1);
    const list = await call("GET", "/__apptwin/episodes/j1/requests?method=GET&limit=1");
    expect(list.json.count).toBe(4);
    expect(list.json.requests.map((e: JournalEntry) => e.seq)).toEqual([6]);
  });

  it("refuses a filter it does not know instead of matching everything", async () => {
    const r = await call("GET", "/__apptwin/episodes/j1/requests/count?methd=GET&status=2x");
    expect(r.status).toBe(400);
    expect(r.json.problems).toEqual([
      'unknown filter "methd" (the filters are method, path, status, served_by, rule, via, fault, and limit)',
      'status must be a status such as 201 or a class such as 2xx (got "2x")',
    ]);
  });

  it("keeps each episode's journal apart, empties it on reset and on DELETE", async () => {
    await newEpisode("j2");
    await call("GET", "/api/items", { episode: "j2" });
    expect((await call("GET", "/__apptwin/episodes/j2/requests/count")).json.count).toBe(1);
    expect((await call("GET", "/__apptwin/episodes/j1/requests/count")).json.count).toBe(6);
    await call("POST", "/__apptwin/episodes/j2/reset");
    expect((await call("GET", "/__apptwin/episodes/j2/requests/count")).json.count).toBe(0);
    expect((await call("DELETE", "/__apptwin/episodes/j1/requests")).json).toEqual({
      id: "j1",
      cleared: true,
    });
    expect((await call("GET", "/__apptwin/episodes/j1/requests/count")).json.count).toBe(0);
    expect((await call("GET", "/__apptwin/episodes/nope/requests")).status).toBe(404);
  });

  it("hands every request to the log, with method, path, status, served by and ms", async () => {
    const before = seen.length;
    await call("GET", "/api/items?done=true", { episode: "j2" });
    const e = seen[before]!;
    expect(e).toMatchObject({
      method: "GET",
      path: "/api/items",
      query: "done=true",
      status: 200,
      served_by: "state",
    });
    expect(e.ms).toBeGreaterThanOrEqual(0);
  });
});

describe("latency", () => {
  it("delays a route by at least its delay, and the undelayed request overtakes it", async () => {
    await newEpisode("lat");
    const order: string[] = [];
    const t0 = performance.now();
    const slow = call("GET", "/api/items/summary?range=week&tz=UTC", { episode: "lat" }).then((r) => {
      order.push("slow");
      return { r, ms: performance.now() - t0 };
    });
    const fast = call("GET", "/api/items", { episode: "lat" }).then(() => order.push("fast"));
    const [{ r, ms }] = await Promise.all([slow, fast]);
    expect(r.status).toBe(200);
    expect(order).toEqual(["fast", "slow"]);
    expect(ms).toBeGreaterThanOrEqual(150);
    const entry = (await call("GET", "/__apptwin/episodes/lat/requests?path=/api/items/summary")).json
      .requests[0];
    expect(entry.latency_ms).toBe(150);
    expect(entry.ms).toBeGreaterThanOrEqual(150);
  });

  it("draws a uniform delay within its bounds, at least the minimum", async () => {
    await newEpisode("lat2");
    expect((await setFaults("lat2", { schema_version: 1, latency: { min_ms: 40, max_ms: 80 } })).status).toBe(
      200,
    );
    for (let i = 0; i < 3; i++) await call("GET", "/api/items", { episode: "lat2" });
    const { requests } = (await call("GET", "/__apptwin/episodes/lat2/requests")).json;
    for (const e of requests as JournalEntry[]) {
      expect(e.latency_ms).toBeGreaterThanOrEqual(40);
      expect(e.latency_ms).toBeLessThanOrEqual(80);
      expect(e.ms).toBeGreaterThanOrEqual(40);
    }
  });
});

describe("faults", () => {
  it("answers a status fault with the app's own recorded body and leaves the state alone", async () => {
    await newEpisode("f1");
    expect(
      (
        await setFaults("f1", {
          schema_version: 1,
          routes: [{ route: "POST /api/items", fault: { kind: "status", status: 404 } }],
        })
      ).json.explain,
    ).toEqual(["POST /api/items: fault status"]);
    const r = await call("POST", "/api/items", { episode: "f1", body: { title: "Milk" } });
    expect(r.status).toBe(404);
    // The only recorded 404 of the app is the item read's not-found answer.
    expect(r.json).toEqual({ error: "not_found" });
    expect(r.headers.get("x-apptwin-served-by")).toBe("fault");
    expect(r.headers.get("x-apptwin-fault-body")).toBe("recorded");
    expect((await call("GET", "/__apptwin/episodes/f1/diff")).json.changes).toEqual([]);
    const count = await call("GET", "/__apptwin/episodes/f1/requests/count?fault=status&served_by=fault");
    expect(count.json.count).toBe(1);
  });

  it("says so when the recording holds no answer with the status", async () => {
    await newEpisode("f2");
    await setFaults("f2", {
      schema_version: 1,
      routes: [{ route: "get_items", fault: { kind: "status", status: 502 } }],
    });
    const r = await call("GET", "/api/items", { episode: "f2" });
    expect(r.status).toBe(502);
    expect(r.headers.get("x-apptwin-fault-body")).toBe("apptwin");
    expect(r.json.message).toBe(
      "The recording holds no answer with status 502, so this body is apptwin's, not the app's.",
    );
  });

  it("drops the connection without an answer, and the app never sees the request", async () => {
    await newEpisode("f3");
    await setFaults("f3", {
      schema_version: 1,
      routes: [{ route: "* /api/items", fault: { kind: "drop" } }],
    });
    const r = await raw("GET", "/api/items", "f3");
    expect(r.status).toBeUndefined();
    expect(r.error).toMatch(/ECONNRESET|socket hang up/);
    const [e] = (await call("GET", "/__apptwin/episodes/f3/requests")).json.requests;
    expect(e).toMatchObject({ status: null, served_by: "fault", fault: "drop", rule: "get_items" });
  });

  it("cuts an answer off after part of its body, after the app handled the request", async () => {
    await newEpisode("f4");
    await setFaults("f4", {
      schema_version: 1,
      routes: [{ route: "GET /api/items", fault: { kind: "truncate", keep: 0.25 } }],
    });
    const whole = await raw("GET", "/api/items", "default");
    const cut = await raw("GET", "/api/items", "f4");
    expect(cut.status).toBe(200);
    expect(cut.error).toBe("aborted");
    expect(cut.bytes).toBe(Math.floor(whole.bytes * 0.25));
    const [e] = (await call("GET", "/__apptwin/episodes/f4/requests")).json.requests;
    expect(e).toMatchObject({ status: 200, served_by: "state", fault: "truncate" });
  });

  it("hits only the next N requests with times, and a share of them with probability (the same per episode)", async () => {
    // The server's plan: the first DELETE of an item fails, the retry succeeds.
    await newEpisode("f5");
    expect((await call("DELETE", "/api/items/1", { episode: "f5" })).json).toEqual({ error: "maintenance" });
    expect((await call("DELETE", "/api/items/1", { episode: "f5" })).status).toBe(204);
    const plan = {
      schema_version: 1,
      routes: [{ route: "get_items", fault: { kind: "status", status: 503 }, probability: 0.5 }],
    };
    const statuses = async (id: string) => {
      await newEpisode(id);
      await setFaults(id, plan);
      const out: number[] = [];
      for (let i = 0; i < 20; i++) out.push((await call("GET", "/api/items", { episode: id })).status);
      return out;
    };
    const a = await statuses("f6");
    expect(a.filter((s) => s === 503).length).toBeGreaterThan(0);
    expect(a.filter((s) => s === 200).length).toBeGreaterThan(0);
    // Same episode id and seed, same faults: a run is reproducible.
    await call("DELETE", "/__apptwin/episodes/f6/faults");
    await call("POST", "/__apptwin/episodes/f6/reset");
    await setFaults("f6", plan);
    const again: number[] = [];
    for (let i = 0; i < 20; i++) again.push((await call("GET", "/api/items", { episode: "f6" })).status);
    expect(again).toEqual(a);
  });

  it("refuses a malformed faults document with every problem, and DELETE goes back to the server's plan", async () => {
    await newEpisode("f7");
    const bad = await setFaults("f7", {
      schema_version: 1,
      routes: [{ route: "items", fault: { kind: "status", status: 200 } }, { route: "GET /x" }],
    });
    expect(bad.status).toBe(400);
    expect((bad.json.problems as string[]).length).toBeGreaterThanOrEqual(2);
    const back = await call("DELETE", "/__apptwin/episodes/f7/faults");
    expect(back.json).toMatchObject({ id: "f7", source: "server" });
    expect(back.json.explain).toEqual([
      "GET /api/items/summary: 150 ms",
      "delete_items_by_id: fault status, the next 1 times",
    ]);
  });
});

describe("over MCP", () => {
  async function mcpClient(episode: string) {
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { "x-apptwin-episode": episode } },
    });
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(transport);
    return client;
  }

  it("journals tool calls with the tool, and counts them for verification", async () => {
    await newEpisode("m1");
    const client = await mcpClient("m1");
    await client.callTool({ name: "post_items", arguments: { body: { title: "Tea" } } });
    await client.callTool({ name: "get_items_by_id", arguments: { id: 6 } });
    await client.close();
    const { requests } = (await call("GET", "/__apptwin/episodes/m1/requests?via=mcp")).json;
    expect(requests.map((e: JournalEntry) => [e.method, e.path, e.status, e.served_by, e.tool])).toEqual([
      ["POST", "/api/items", 201, "state", "post_items"],
      ["GET", "/api/items/6", 200, "state", "get_items_by_id"],
    ]);
    expect((await call("GET", "/__apptwin/episodes/m1/requests/count?rule=post_items")).json.count).toBe(1);
  });

  it("meets latency and each fault kind as a tool caller would", async () => {
    await newEpisode("m2");
    await setFaults("m2", {
      schema_version: 1,
      routes: [
        { route: "get_items", latency: { fixed_ms: 120 }, fault: { kind: "truncate" } },
        { route: "post_items", fault: { kind: "drop" } },
        { route: "get_items_by_id", fault: { kind: "status", status: 404 } },
      ],
    });
    const client = await mcpClient("m2");
    const t0 = performance.now();
    const cut = await client.callTool({ name: "get_items", arguments: {} });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(120);
    expect(cut.isError).toBe(true);
    expect((cut.content as { text: string }[])[0]!.text).toMatch(
      /^The app's answer \(status 200\) was cut off after \d+ of \d+ bytes \(premature close\): \{"data":\[/,
    );
    const dropped = await client.callTool({ name: "post_items", arguments: { body: { title: "Tea" } } });
    expect(dropped.isError).toBe(true);
    expect((dropped.content as { text: string }[])[0]!.text).toContain(
      "closed the connection before answering",
    );
    const failed = await client.callTool({ name: "get_items_by_id", arguments: { id: 1 } });
    expect(failed.structuredContent).toEqual({ status: 404, body: { error: "not_found" } });
    await client.close();
    expect((await call("GET", "/__apptwin/episodes/m2/diff")).json.changes).toEqual([]);
    const faults = (await call("GET", "/__apptwin/episodes/m2/requests")).json.requests.map(
      (e: JournalEntry) => e.fault,
    );
    expect(faults).toEqual(["truncate", "drop", "status"]);
  });
});
