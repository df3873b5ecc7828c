/**
 * The twin refuses what the app refuses: bodies it cannot read (truncated,
 * not JSON, empty, invalid UTF-8, nested past any bound), bodies that break
 * the learned request schema, and writes without the credentials every
 * accepted write carried. Learned from a recording (the items app's, with
 * the app's own refusals added), served over a real loopback socket.
 */
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { learnModel } from "../src/bundle/learn-model.js";
import { toolsFromModel } from "../src/bundle/tool-definitions.js";
import type { Model } from "../src/model/model-schema.js";
import { createTwinServer, type TwinServer } from "../src/serve/http/twin-http-server.js";
import { toolRequest } from "../src/serve/mcp/tool-request.js";
import { createEpisode } from "../src/serve/runtime/create-episode.js";
import { handleRequest } from "../src/serve/runtime/handle-request.js";
import { buildEvidence, type RecordSpec } from "./fixtures/evidence/build-evidence.js";
import { itemsSpecs } from "./fixtures/evidence/items-evidence.js";
import { twinBundle } from "./fixtures/models/twin-bundle-fixture.js";

const BEARER = { name: "authorization", value: "[REDACTED:header:authorization]" };
const CSRF = { name: "x-csrf-token", value: "[REDACTED:page:create-1.x-csrf-token]" };
const BAD_JSON = { error: "invalid", fields: { body: "must be valid JSON" } };

/** The app's refusals, as a scenario records them after its own writes. */
const REFUSALS: RecordSpec[] = [
  {
    method: "POST",
    path: "/api/items",
    status: 422,
    headers: [BEARER, CSRF],
    reqRaw: { text: '{"title": "Mil', mime: "application/json" },
    res: BAD_JSON,
  },
  {
    method: "POST",
    path: "/api/items",
    status: 401,
    req: { title: "No token" },
    res: { error: "unauthenticated" },
  },
  {
    method: "POST",
    path: "/api/items",
    status: 403,
    headers: [BEARER],
    req: { title: "No CSRF header" },
    res: { error: "csrf" },
  },
];

interface Twin {
  server: TwinServer;
  base: string;
  model: Model;
}

async function startTwin(specs: RecordSpec[]): Promise<Twin> {
  const { model, seed } = learnModel(buildEvidence(specs));
  const server = createTwinServer(twinBundle({ model, seed, tools: toolsFromModel(model) }));
  return { server, base: await server.listen(0, "127.0.0.1"), model };
}

const created = new Set<string>();

/** One raw request on its own episode (created on first use): the body's bytes exactly as given, so invalid JSON and UTF-8 reach the twin. */
async function send(
  twin: Twin,
  method: string,
  path: string,
  body: Buffer | string | null,
  headers: Record<string, string> = { authorization: "Bearer x", "x-csrf-token": "y" },
  episode = "default",
) {
  const key = `${twin.base} ${episode}`;
  if (episode !== "default" && !created.has(key)) {
    const made = await fetch(`${twin.base}/__apptwin/episodes`, {
      method: "POST",
      body: JSON.stringify({ id: episode }),
    });
    expect(made.status).toBe(201);
    created.add(key);
  }
  const { hostname, port } = new URL(twin.base);
  const bytes = body === null ? null : Buffer.isBuffer(body) ? body : Buffer.from(body);
  const all = {
    ...headers,
    ...(bytes === null ? {} : { "content-type": "application/json", "content-length": String(bytes.length) }),
    "x-apptwin-episode": episode,
  };
  return new Promise<{ status: number; servedBy: string; json: Record<string, unknown> }>((done, fail) => {
    const req = request({ hostname, port, path, method, headers: all }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d) => {
        text += d;
      });
      res.on("end", () =>
        done({
          status: res.statusCode ?? 0,
          servedBy: String(res.headers["x-apptwin-served-by"]),
          json: text === "" ? {} : JSON.parse(text),
        }),
      );
    });
    req.on("error", fail);
    req.end(bytes ?? undefined);
  });
}

const DEEP = `${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}`;
const INVALID_UTF8 = Buffer.concat([
  Buffer.from('{"title": "'),
  Buffer.from([0xff, 0xfe]),
  Buffer.from('"}'),
]);

describe("a twin whose recording shows the app's refusals", () => {
  let twin: Twin;
  beforeAll(async () => {
    twin = await startTwin([...itemsSpecs(), ...REFUSALS]);
  });
  afterAll(async () => {
    await twin?.server.close();
  });

  it("still serves the writes the recording proves", async () => {
    expect(twin.model.endpoints.find((e) => e.tool_name === "post_items")?.serving).toBe("state");
    const made = await send(twin, "POST", "/api/items", JSON.stringify({ title: "Tea" }), undefined, "fine");
    expect([made.status, made.servedBy, made.json.title]).toEqual([201, "state", "Tea"]);
  });

  it("answers every body it cannot read with the app's recorded 422, on every JSON write, creating nothing", async () => {
    for (const [method, path, body] of [
      ["POST", "/api/items", '{"title": "Mil'],
      ["POST", "/api/items", "hello"],
      ["POST", "/api/items", ""],
      ["POST", "/api/items", INVALID_UTF8],
      ["POST", "/api/items", DEEP],
      ["PATCH", "/api/items/6", "{{{"],
      ["PUT", "/api/items/7", "[1,"],
    ] as const) {
      const res = await send(twin, method, path, body, undefined, "bodies");
      expect([method, path, res.status, res.servedBy, res.json]).toEqual([
        method,
        path,
        422,
        "validation",
        BAD_JSON,
      ]);
    }
    const list = await send(twin, "GET", "/api/items", null, undefined, "bodies");
    expect((list.json as { total: number }).total).toBe(6);
  });

  it("answers a body of the wrong JSON type, never seen refused, with an explained 400", async () => {
    for (const body of ["null", "[1,2]", '"Milk"', "42"]) {
      const res = await send(twin, "POST", "/api/items", body, undefined, "types");
      expect(res.status).toBe(400);
      expect(res.servedBy).toBe("refused");
      expect(res.json.error).toBe("invalid_body");
      expect(res.json.message).toMatch(
        /^POST \/api\/items: body must be a JSON object \(got [a-z ]+\)\. The recording never shows how the app answers such a body, so the twin refuses it instead of guessing\.$/,
      );
    }
  });

  it("applies the learned request schema over HTTP: a mistyped field is named", async () => {
    const res = await send(
      twin,
      "POST",
      "/api/items",
      JSON.stringify({ title: "x", done: "yes" }),
      undefined,
      "schema",
    );
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({
      error: "invalid_body",
      problems: [{ field: "body.done", message: "must be true or false (got a string)" }],
    });
  });

  it("serves over HTTP a body without a field every recorded body had (a UI may send fewer; nothing shows the app refuses it)", async () => {
    const res = await send(twin, "POST", "/api/items", JSON.stringify({ done: false }), undefined, "fewer");
    expect([res.status, res.servedBy]).toEqual([201, "state"]);
  });

  it("answers a write without the credentials every accepted write carried as the app did", async () => {
    const none = await send(twin, "POST", "/api/items", JSON.stringify({ title: "x" }), {}, "creds");
    expect([none.status, none.servedBy, none.json]).toEqual([
      401,
      "validation",
      { error: "unauthenticated" },
    ]);
    const noCsrf = await send(
      twin,
      "POST",
      "/api/items",
      JSON.stringify({ title: "x" }),
      { authorization: "Bearer x" },
      "creds",
    );
    expect([noCsrf.status, noCsrf.json]).toEqual([403, { error: "csrf" }]);
    // A request lacking only the CSRF header is the refusal the recording shows; lacking only the token is not.
    const noToken = await send(
      twin,
      "POST",
      "/api/items",
      JSON.stringify({ title: "x" }),
      { "x-csrf-token": "y" },
      "creds",
    );
    expect(noToken.status).toBe(201);
  });

  it("never asks an MCP call for credentials: the MCP session is the recording's signed-in user", () => {
    const tool = toolsFromModel(twin.model).find((t) => t.name === "post_items")!;
    const built = toolRequest(tool, { body: { title: "From MCP" } });
    if (!("request" in built)) throw new Error(built.problems.join("\n"));
    const episode = createEpisode(
      twin.model,
      learnModel(buildEvidence([...itemsSpecs(), ...REFUSALS])).seed,
      {
        episodeId: "mcp",
      },
    );
    expect(handleRequest(twin.model, episode, built.request).status).toBe(201);
  });
});

describe("a twin whose recording shows no refusal", () => {
  let twin: Twin;
  beforeAll(async () => {
    twin = await startTwin(itemsSpecs());
  });
  afterAll(async () => {
    await twin?.server.close();
  });

  it("refuses a body it cannot read with an explained 400 instead of creating an entity from it", async () => {
    for (const [method, path, body, why] of [
      ["POST", "/api/items", "hello", /^is not valid JSON/],
      ["POST", "/api/items", "", /^is empty/],
      ["POST", "/api/items", INVALID_UTF8, /^is not valid UTF-8/],
      ["POST", "/api/items", DEEP, /^nests objects and arrays more than 64 levels deep/],
      ["PATCH", "/api/items/6", "{{{", /^is not valid JSON/],
    ] as const) {
      const res = await send(twin, method, path, body, undefined, "plain");
      expect([method, res.status, res.servedBy, res.json.error]).toEqual([
        method,
        400,
        "refused",
        "malformed_body",
      ]);
      expect(String(res.json.message)).toMatch(
        new RegExp(`^${method} ${path.replace(/\//g, "\\/")}: the body `),
      );
      expect(String(res.json.message).split(": the body ")[1]).toMatch(why);
      expect(res.json.hint).toBe(
        "The app's recorded requests here sent JSON; record the app's answer to such a body (a request step sending it, with its expected_status) and the twin will answer as the app does.",
      );
    }
    const list = await send(twin, "GET", "/api/items", null, undefined, "plain");
    expect((list.json as { total: number }).total).toBe(6);
  });

  it("answers a body setting a field no accepted request sent 501 unlearned_field, writing nothing", async () => {
    const res = await send(
      twin,
      "POST",
      "/api/items",
      JSON.stringify({ title: "x", priority: 1 }),
      undefined,
      "extra",
    );
    expect([res.status, res.servedBy, res.json.error, res.json.fields]).toEqual([
      501,
      "miss",
      "unlearned_field",
      ["priority"],
    ]);
    const list = await send(twin, "GET", "/api/items", null, undefined, "extra");
    expect((list.json as { total: number }).total).toBe(6);
  });

  it("answers a write without any credential 501 unauthenticated_unrecorded: every accepted write carried them and the recording never shows the app's answer to one without", async () => {
    const res = await send(twin, "POST", "/api/items", JSON.stringify({ title: "x" }), {}, "anon");
    expect([res.status, res.servedBy, res.json.error, res.json.carried]).toEqual([
      501,
      "miss",
      "unauthenticated_unrecorded",
      ["header:authorization", "header:x-csrf-token"],
    ]);
    const list = await send(twin, "GET", "/api/items", null, undefined, "anon");
    expect((list.json as { total: number }).total).toBe(6);
    // Any one of them, whatever its value, is what the recording shows accepted.
    const one = await send(
      twin,
      "POST",
      "/api/items",
      JSON.stringify({ title: "x" }),
      { "x-csrf-token": "z" },
      "anon",
    );
    expect(one.status).toBe(201);
  });
});
