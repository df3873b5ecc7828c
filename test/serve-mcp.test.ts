/**
 * The twin's MCP tools through the SDK's real Client: in memory
 * (InMemoryTransport) and over Streamable HTTP against a loopback server.
 * One episode per session; results are structuredContent {status, body}.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { fetch } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolsFromModel } from "../src/bundle/tool-definitions.js";
import { createTwinServer, type TwinServer } from "../src/serve/http/twin-http-server.js";
import { createTwinMcpServer } from "../src/serve/mcp/twin-mcp-server.js";
import { memoryHandle } from "../src/serve/memory-episode-store.js";
import { createEpisode } from "../src/serve/runtime/create-episode.js";
import { ITEMS_SEED_STATE, itemsModel } from "./fixtures/models/items-twin.js";
import { twinBundle } from "./fixtures/models/twin-bundle-fixture.js";

const model = itemsModel();
const bundle = twinBundle({ model, seed: ITEMS_SEED_STATE, tools: toolsFromModel(model) });

async function inMemoryClient(episodeId: string): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = createTwinMcpServer(
    bundle,
    memoryHandle(createEpisode(model, ITEMS_SEED_STATE, { episodeId })),
  );
  await server.connect(serverSide);
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

/** Create → read → update → delete → read, returning each structuredContent. */
async function crud(client: Client): Promise<unknown[]> {
  const out: unknown[] = [];
  const steps: [string, Record<string, unknown>][] = [
    ["post_items", { body: { title: "Milk" } }],
    ["get_items_by_id", { id: 6 }],
    ["patch_items_by_id", { id: 6, body: { done: true } }],
    ["delete_items_by_id", { id: 6 }],
    ["get_items_by_id", { id: 6 }],
    ["get_items", { done: "true", limit: 1 }],
  ];
  for (const [name, args] of steps) {
    const res = await client.callTool({ name, arguments: args });
    expect(res.isError).toBeUndefined();
    expect(JSON.parse((res.content as { text: string }[])[0]!.text)).toEqual(res.structuredContent);
    out.push(res.structuredContent);
  }
  return out;
}

const EXPECTED_CRUD = [
  {
    status: 201,
    body: {
      id: 6,
      title: "Milk",
      done: false,
      created_at: "2026-03-01T12:00:01.000Z",
      updated_at: "2026-03-01T12:00:01.000Z",
    },
  },
  {
    status: 200,
    body: {
      id: 6,
      title: "Milk",
      done: false,
      created_at: "2026-03-01T12:00:01.000Z",
      updated_at: "2026-03-01T12:00:01.000Z",
    },
  },
  {
    status: 200,
    body: {
      id: 6,
      title: "Milk",
      done: true,
      created_at: "2026-03-01T12:00:01.000Z",
      updated_at: "2026-03-01T12:00:02.000Z",
    },
  },
  { status: 204, body: null },
  { status: 404, body: { error: "not_found" } },
  { status: 200, body: { data: [ITEMS_SEED_STATE.collections.items![1]], total: 2 } },
];

describe("twin MCP server (in memory)", () => {
  it("lists the bundle's tools with their JSON Schema input and readOnlyHint on reads", async () => {
    const client = await inMemoryClient("m1");
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(bundle.tools.map((t) => t.name));
    const getItem = tools.find((t) => t.name === "get_items_by_id")!;
    expect(getItem.inputSchema).toEqual(bundle.tools.find((t) => t.name === "get_items_by_id")!.input_schema);
    expect(getItem.annotations?.readOnlyHint).toBe(true);
    expect(tools.find((t) => t.name === "post_items")!.annotations?.readOnlyHint).toBe(false);
    expect(tools.some((t) => t.name.includes("apptwin") || t.name.includes("reset"))).toBe(false);
    await client.close();
  });

  it("runs create → read → update → delete with the app's answers", async () => {
    const client = await inMemoryClient("m2");
    expect(await crud(client)).toEqual(EXPECTED_CRUD);
    await client.close();
  });

  it("returns a miss as an error result with the hint, and bad arguments all at once", async () => {
    const client = await inMemoryClient("m3");
    const miss = await client.callTool({ name: "get_items_summary", arguments: {} });
    expect(miss.isError).toBe(true);
    expect(miss.structuredContent).toMatchObject({ status: 501 });
    const bad = await client.callTool({ name: "patch_items_by_id", arguments: { nope: 1 } });
    expect(bad.isError).toBe(true);
    expect((bad.content as { text: string }[])[0]!.text).toBe(
      'patch_items_by_id: argument "id" is required\npatch_items_by_id: argument "body" is required\npatch_items_by_id: unknown argument "nope" (expected id, body)',
    );
    await client.close();
  });
});

describe("twin MCP server: a query parameter with no learned meaning", () => {
  it("returns an unlearned_query error result naming it, never the whole list", async () => {
    // `q` was recorded on get_items (so the tool takes it) and never confirmed as a filter.
    const base = itemsModel();
    const withQ = {
      ...base,
      endpoints: base.endpoints.map((e) =>
        e.tool_name === "get_items"
          ? { ...e, params: [...e.params, { name: "q", in: "query" as const, schema: { type: "string" } }] }
          : e,
      ),
    };
    const b = twinBundle({ model: withQ, seed: ITEMS_SEED_STATE, tools: toolsFromModel(withQ) });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createTwinMcpServer(
      b,
      memoryHandle(createEpisode(withQ, ITEMS_SEED_STATE, { episodeId: "q1" })),
    ).connect(serverSide);
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(clientSide);
    const res = await client.callTool({ name: "get_items", arguments: { q: "milk" } });
    expect(res.isError).toBe(true);
    expect(res.structuredContent).toMatchObject({
      status: 501,
      body: { error: "unlearned_query", unlearned: [{ param: "q", seen: [] }] },
    });
    await client.close();
  });
});

describe("twin MCP over Streamable HTTP", () => {
  let twin: TwinServer;
  let base: string;
  beforeAll(async () => {
    twin = createTwinServer(bundle);
    base = await twin.listen(0, "127.0.0.1");
  });
  afterAll(async () => twin?.close());

  async function httpClient(headers: Record<string, string> = {}) {
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } });
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(transport);
    return { client, transport };
  }

  it("gives each session its own episode, visible in the control plane", async () => {
    const a = await httpClient();
    const b = await httpClient();
    expect(await crud(a.client)).toEqual(EXPECTED_CRUD);
    const aSession = a.transport.sessionId!;
    const bSession = b.transport.sessionId!;
    const episodes = (await (await fetch(`${base}/__apptwin/episodes`)).json()) as { episodes: string[] };
    expect(episodes.episodes).toEqual(expect.arrayContaining([aSession, bSession, "default"]));
    const diff = (await (await fetch(`${base}/__apptwin/episodes/${aSession}/diff`)).json()) as {
      changes: unknown[];
    };
    expect(diff.changes).toEqual([]); // created then deleted: back to the seed
    await a.client.callTool({ name: "post_items", arguments: { body: { title: "Only in A" } } });
    const bList = await b.client.callTool({ name: "get_items", arguments: {} });
    expect((bList.structuredContent as { body: { total: number } }).body.total).toBe(5);
    await a.client.close();
    await b.client.close();
  });

  it("binds a session to a named episode given on initialize", async () => {
    await fetch(`${base}/__apptwin/episodes`, { method: "POST", body: JSON.stringify({ id: "task-1" }) });
    const { client } = await httpClient({ "x-apptwin-episode": "task-1" });
    await client.callTool({ name: "delete_items_by_id", arguments: { id: 2 } });
    const diff = (await (await fetch(`${base}/__apptwin/episodes/task-1/diff`)).json()) as {
      changes: { id: string; kind: string }[];
    };
    expect(diff.changes.map((c) => [c.id, c.kind])).toEqual([["2", "deleted"]]);
    await client.close();
  });
});

describe("twin episode bounds (Streamable HTTP, real clients)", () => {
  let twin: TwinServer;
  let base: string;
  let clock = 0;
  beforeAll(async () => {
    twin = createTwinServer(bundle, { maxEpisodes: 3, sessionIdleMs: 100, now: () => clock });
    base = await twin.listen(0, "127.0.0.1");
  });
  afterAll(async () => twin?.close());

  async function httpClient() {
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`));
    const client = new Client({ name: "bounds", version: "1.0.0" });
    await client.connect(transport);
    return { client, transport, id: transport.sessionId! };
  }
  const control = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}/__apptwin/${path}`, {
      method,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };
  /** A tool call on a session id the twin no longer holds: [status, JSON-RPC error message]. */
  const staleCall = async (sessionId: string) => {
    const res = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": sessionId,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_items" } }),
    });
    return [res.status, ((await res.json()) as { error: { message: string } }).error.message];
  };
  const episodes = async () => (await control("GET", "episodes")).json.episodes;
  const sessions = async () => (await control("GET", "health")).json.sessions;
  const TOO_MANY = {
    error: "too_many_episodes",
    message:
      'The twin holds its limit of 3 episodes and none can be evicted: every one but "default" has a live MCP session.',
    hint: "End an MCP session (DELETE /mcp with its mcp-session-id) or let it idle out, or serve with a larger --max-episodes.",
  };

  /** The 410 an evicted episode's requests get. */
  const evictedBody = (episode: string, evictedFor: string) => ({
    error: "episode_evicted",
    message: `Episode "${episode}" was evicted: the twin holds at most 3 episodes (--max-episodes), and creating "${evictedFor}" dropped the least recently used one without a live MCP session. Its state is gone.`,
    hint: `Read or grade an episode while it is among the 3 most recently used, or serve with a larger --max-episodes; POST /__apptwin/episodes with {"id":"${episode}"} starts it afresh.`,
    episode,
    evicted_for: evictedFor,
    limit: 3,
  });

  it("evicts the least recently used episode without a live session, never default; refuses when none can go", async () => {
    const a = await httpClient();
    expect((await control("POST", "episodes", { id: "run-1" })).json).toEqual({
      id: "run-1",
      seed: 0,
      evicted: null,
    });
    const b = await httpClient(); // the cap (3) is reached: run-1 has no session and goes
    expect(await episodes()).toEqual(["default", a.id, b.id].sort());
    expect(await sessions()).toBe(2);
    // Never silent: the evicted episode's control-plane and twin requests get 410 naming the eviction; health counts it.
    expect(await control("GET", "episodes/run-1/state")).toEqual({
      status: 410,
      json: evictedBody("run-1", b.id),
    });
    const twinCall = await fetch(`${base}/api/items`, { headers: { "x-apptwin-episode": "run-1" } });
    expect([twinCall.status, await twinCall.json()]).toEqual([410, evictedBody("run-1", b.id)]);
    expect((await control("GET", "health")).json).toMatchObject({
      episodes: 3,
      max_episodes: 3,
      evictions: { count: 1, last: { episode: "run-1", evicted_for: b.id, limit: 3 } },
    });

    await expect(httpClient()).rejects.toThrow(`Error POSTing to endpoint: ${JSON.stringify(TOO_MANY)}`);
    expect(await control("POST", "episodes", { id: "run-2" })).toEqual({ status: 503, json: TOO_MANY });
    expect(await sessions()).toBe(2);

    await a.transport.terminateSession(); // DELETE /mcp releases the session; its episode stays readable
    await b.transport.terminateSession();
    expect(await sessions()).toBe(0);
    expect((await control("GET", `episodes/${a.id}/diff`)).json).toEqual({ id: a.id, changes: [] });
    expect(await staleCall(a.id)).toEqual([
      404,
      `Unknown MCP session "${a.id}"; start a new session with initialize.`,
    ]);

    // a was used last (its diff was read): b is the least recently used and goes, and the create answer says so.
    expect(await control("POST", "episodes", { id: "run-2" })).toEqual({
      status: 201,
      json: { id: "run-2", seed: 0, evicted: b.id },
    });
    expect(await episodes()).toEqual(["default", a.id, "run-2"].sort());
    expect(await control("GET", `episodes/${b.id}/state`)).toEqual({
      status: 410,
      json: evictedBody(b.id, "run-2"),
    });
    // An MCP initialize that evicts names the episode in x-apptwin-evicted (its answer is JSON-RPC).
    const init = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "raw", version: "1" },
        },
      }),
    });
    expect([init.status, init.headers.get("x-apptwin-evicted")]).toEqual([200, a.id]);
    await init.body?.cancel();
    const ended = await fetch(`${base}/mcp`, {
      method: "DELETE",
      headers: { "mcp-session-id": init.headers.get("mcp-session-id")! },
    });
    expect(ended.status).toBe(200);
    expect((await control("GET", "health")).json.evictions).toMatchObject({ count: 3 });
    // An evicted id created again is a fresh episode, no longer answered 410.
    expect((await control("POST", "episodes", { id: "run-1" })).status).toBe(201);
    expect((await control("GET", "episodes/run-1/diff")).json).toEqual({ id: "run-1", changes: [] });
    await a.client.close();
    await b.client.close();
  });

  it("closes a session idle longer than --session-idle-ms, not one in use", async () => {
    const idle = await httpClient();
    const busy = await httpClient();
    expect(await sessions()).toBe(2);
    clock += 60;
    await busy.client.callTool({ name: "get_items", arguments: {} });
    clock += 60; // idle: 120 ms without a request; busy: 60 ms
    for (let i = 0; i < 100 && (await sessions()) !== 1; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await sessions()).toBe(1);
    expect(await staleCall(idle.id)).toEqual([
      404,
      `Unknown MCP session "${idle.id}"; start a new session with initialize.`,
    ]);
    expect((await busy.client.callTool({ name: "get_items", arguments: {} })).isError).toBeUndefined();
    await busy.transport.terminateSession();
    await idle.client.close();
    await busy.client.close();
  });
});
