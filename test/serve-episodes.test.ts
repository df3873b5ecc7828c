/**
 * Episodes at scale over a real loopback socket: a large seed shared by the
 * episodes, state and diff streamed from a snapshot taken when they are asked
 * for (a client that reads slowly holds no one up, and writes made meanwhile
 * do not show in the answer), and byte-for-byte the JSON of the state.
 */
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { request } from "node:http";
import { fetch } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Entity } from "../src/model/model-schema.js";
import { createTwinServer, type TwinServer } from "../src/serve/http/twin-http-server.js";
import { STREAM_SLICE_CHANNEL } from "../src/serve/send-response.js";
import { itemsModel } from "./fixtures/models/items-twin.js";
import { twinBundle } from "./fixtures/models/twin-bundle-fixture.js";

const N = 20_000;
const items: Entity[] = Array.from({ length: N }, (_, i) => ({
  id: i + 1,
  title: `Item number ${i + 1} ${"x".repeat(40)}`,
  done: i % 3 === 0,
  created_at: "2026-01-01T00:00:00.000Z",
  updated_at: "2026-01-01T00:00:00.000Z",
}));
const seedText = JSON.stringify({ collections: { items } });

let twin: TwinServer;
let base: string;

beforeAll(async () => {
  const model = { ...itemsModel(), id_sequences: { items: N + 1 } };
  twin = createTwinServer(twinBundle({ model, seed: { collections: { items } }, tools: [] }), {
    maxEpisodes: 8,
  });
  base = await twin.listen(0, "127.0.0.1");
});

afterAll(async () => {
  await twin?.close();
});

const call = async (method: string, path: string, body?: unknown, episode = "default") => {
  const res = await fetch(base + path, {
    method,
    headers: { "content-type": "application/json", "x-apptwin-episode": episode },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, json: text ? JSON.parse(text) : null };
};

/** Starts a GET whose answer is not read until `read()` is called; resolves once the answer's head arrived. */
function slowGet(path: string): Promise<{ status: number; read: () => Promise<string> }> {
  return new Promise((resolve, reject) => {
    const req = request(base + path, (res) => {
      res.pause();
      resolve({
        status: res.statusCode ?? 0,
        read: () =>
          new Promise((done, fail) => {
            const chunks: Buffer[] = [];
            res.on("data", (c: Buffer) => chunks.push(c));
            res.on("end", () => done(Buffer.concat(chunks).toString("utf8")));
            res.on("error", fail);
            res.resume();
          }),
      });
    });
    req.on("error", reject);
    req.end();
  });
}

describe("episodes over a large shared seed", () => {
  it("streams the state as the exact JSON of the seed, and of the seed under the episode's changes", async () => {
    expect((await call("GET", "/__apptwin/episodes/default/state")).text).toBe(seedText);
    await call("POST", "/__apptwin/episodes", { id: "w" });
    await call("DELETE", "/api/items/2", undefined, "w");
    await call("PATCH", "/api/items/5", { title: "Changed" }, "w");
    const created = await call("POST", "/api/items", { title: "New" }, "w");
    await call("DELETE", `/api/items/${N}`, undefined, "w");
    const expected = items.filter((i) => i.id !== 2 && i.id !== N);
    expected[3] = (await call("GET", "/api/items/5", undefined, "w")).json;
    expected.push(created.json);
    expect((await call("GET", "/__apptwin/episodes/w/state")).text).toBe(
      JSON.stringify({ collections: { items: expected } }),
    );
    expect(
      (await call("GET", "/__apptwin/episodes/w/diff")).json.changes.map(
        (c: { id: string; kind: string }) => [c.id, c.kind],
      ),
    ).toEqual([
      ["2", "deleted"],
      ["5", "updated"],
      [String(N), "deleted"],
      [String(N + 1), "created"],
    ]);
  });

  it("answers other requests while a state is being read, and the state is the one asked for", async () => {
    await call("POST", "/__apptwin/episodes", { id: "slow" });
    await call("PATCH", "/api/items/1", { title: "Before" }, "slow");
    const pending = await slowGet("/__apptwin/episodes/slow/state");
    expect(pending.status).toBe(200);
    // The client reads nothing yet: the twin goes on answering, this episode included, and writes go on.
    await call("PATCH", "/api/items/1", { title: "After" }, "slow");
    await call("DELETE", "/api/items/3", undefined, "slow");
    expect((await call("GET", "/api/items/1", undefined, "slow")).json.title).toBe("After");
    expect((await call("GET", "/api/items/3")).status).toBe(200);
    const diff = slowGet("/__apptwin/episodes/slow/diff");
    const state = JSON.parse(await pending.read()).collections.items as Entity[];
    expect([state.length, state[0]!.title, state[2]!.id]).toEqual([N, "Before", 3]);
    const changes = JSON.parse(await (await diff).read()).changes;
    expect(changes.map((c: { id: string; kind: string }) => [c.id, c.kind])).toEqual([
      ["1", "updated"],
      ["3", "deleted"],
    ]);
  });

  it("gives HEAD of a state the headers only", async () => {
    const res = await fetch(`${base}/__apptwin/episodes/default/state`, { method: "HEAD" });
    expect([res.status, res.headers.get("content-type"), await res.text()]).toEqual([
      200,
      "application/json",
      "",
    ]);
  });

  it("publishes each slice a streamed answer held the event loop for, on its diagnostics channel", async () => {
    const slices: { ms: number; cpu_ms: number }[] = [];
    const onSlice = (m: unknown) => slices.push(m as { ms: number; cpu_ms: number });
    subscribe(STREAM_SLICE_CHANNEL, onSlice);
    try {
      await call("POST", "/__apptwin/episodes", { id: "sliced" });
      await call("PATCH", "/api/items/7", { title: "Seen" }, "sliced");
      const state = await call("GET", "/__apptwin/episodes/sliced/state");
      expect(state.json.collections.items[6].title).toBe("Seen");
      const afterState = slices.length;
      await call("GET", "/__apptwin/episodes/sliced/diff");
      expect(afterState).toBeGreaterThanOrEqual(1);
      expect(slices.length).toBeGreaterThan(afterState);
      for (const s of slices) {
        expect(Number.isFinite(s.ms) && s.ms >= 0 && Number.isFinite(s.cpu_ms) && s.cpu_ms >= 0).toBe(true);
      }
    } finally {
      unsubscribe(STREAM_SLICE_CHANNEL, onSlice);
    }
  });
});
