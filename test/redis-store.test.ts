/**
 * The Redis episode store against a real redis-server (Debian's, on a free
 * loopback port): two stores in one process stand for two replicas of one
 * bundle. Steps alternating between them answer exactly as one episode in
 * memory; concurrent creates on one episode never reuse an id or lose one;
 * eviction, TTL, reset and the bundle digest hold across replicas; Redis out
 * of reach is a UserError at start and a StoreUnavailableError while serving.
 */
import { createClient } from "@redis/client";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { UserError } from "../src/errors/user-error.js";
import {
  EpisodeGoneError,
  type EpisodeHandle,
  isMissing,
  StoreUnavailableError,
} from "../src/serve/episode-store.js";
import { createEpisode } from "../src/serve/runtime/create-episode.js";
import { handleRequest } from "../src/serve/runtime/handle-request.js";
import type { TwinRequest, TwinResponse } from "../src/serve/runtime/twin-types.js";
import { openStore } from "../src/serve/start-twin.js";
import { openRedisStore, type RedisEpisodeStore } from "../src/serve/store/redis-episode-store.js";
import type { TwinBundle } from "../src/serve/twin-bundle.js";
import { ITEMS_SEED_STATE, itemsModel } from "./fixtures/models/items-twin.js";
import { freePort, startRedis, type TestRedis } from "./support/redis-server.js";

const model = itemsModel();
const bundle = { model, seed: ITEMS_SEED_STATE };
let redis: TestRedis;
const open: RedisEpisodeStore[] = [];

async function store(
  opts: { maxEpisodes?: number; episodeTtlMs?: number; seed?: typeof ITEMS_SEED_STATE } = {},
) {
  const s = await openRedisStore(
    new URL(redis.url),
    { model, seed: opts.seed ?? ITEMS_SEED_STATE },
    { sessionIdleMs: 60_000, maxEpisodes: opts.maxEpisodes, episodeTtlMs: opts.episodeTtlMs },
  );
  open.push(s);
  return s;
}

function req(method: string, path: string, body?: unknown, query: [string, string][] = []): TwinRequest {
  return {
    method,
    path,
    query,
    headers: {},
    body: body === undefined ? null : { kind: "json", value: body },
  };
}

const calls: TwinRequest[] = [
  req("POST", "/api/items", { title: "milk" }),
  req("POST", "/api/items", { title: "eggs" }),
  req("GET", "/api/items/6"),
  req("PATCH", "/api/items/6", { done: true }),
  req("PUT", "/api/items/7", { title: "brown eggs", done: false }),
  req("DELETE", "/api/items/3"),
  req("POST", "/api/login", { username: "alice", password: "x" }),
  req("POST", "/api/login", { username: "alice", password: "x" }),
  req("GET", "/api/items", undefined, [["done", "true"]]),
  req("POST", "/api/items", { title: "bread" }),
  req("GET", "/api/items", undefined, [
    ["limit", "3"],
    ["offset", "2"],
  ]),
];

async function handleOf(s: RedisEpisodeStore, id: string): Promise<EpisodeHandle> {
  const found = await s.find(id);
  if (isMissing(found)) throw new Error(`episode ${id} missing: ${JSON.stringify(found.body)}`);
  return found;
}

/** What a step answers, as plain JSON (the answers of a copy and of the memory episode compared as bytes). */
const plain = (r: TwinResponse) => JSON.parse(JSON.stringify(r)) as unknown;

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await Promise.all(open.map((s) => s.close()));
  await redis?.stop();
});

describe("the Redis episode store", () => {
  it("answers steps alternating between two replicas exactly as one episode in memory", async () => {
    const [a, b] = [await store(), await store()];
    await a.create("alt", 7);
    const memory = createEpisode(model, ITEMS_SEED_STATE, { episodeId: "alt", seed: 7 });
    for (const [i, call] of calls.entries()) {
      const replica = i % 2 === 0 ? a : b;
      const h = await handleOf(replica, "alt");
      const got = await h.run((e) => handleRequest(model, e, call));
      expect(plain(got)).toEqual(plain(handleRequest(model, memory, call)));
    }
    const state = async (s: RedisEpisodeStore) =>
      (await (await handleOf(s, "alt")).snapshot()).state.toSeedState();
    expect(await state(a)).toEqual(memory.state.toSeedState());
    expect(await state(b)).toEqual(memory.state.toSeedState());
    // A replica started afterwards rebuilds the episode from the store alone.
    expect(await state(await store())).toEqual(memory.state.toSeedState());
    const seen = await handleOf(b, "alt");
    expect([seen.seed, (await seen.snapshot()).clock_ms, (await seen.snapshot()).id_sequences]).toEqual([
      7,
      memory.clock_ms,
      memory.id_sequences,
    ]);
  });

  it("gives concurrent creates on one episode from two replicas distinct ids, every one kept", async () => {
    const [a, b] = [await store(), await store()];
    await a.create("race", 0);
    const create = async (s: RedisEpisodeStore, n: number) => {
      const h = await handleOf(s, "race");
      const r = await h.run((e) => handleRequest(model, e, req("POST", "/api/items", { title: `t${n}` })));
      return (r.body as { value: { id: number; title: string } }).value;
    };
    const made = await Promise.all(Array.from({ length: 60 }, (_, n) => create(n % 2 === 0 ? a : b, n)));
    const ids = made.map((m) => m.id);
    expect(new Set(ids).size).toBe(60);
    expect([...ids].sort((x, y) => x - y)).toEqual(Array.from({ length: 60 }, (_, i) => 6 + i));
    for (const s of [a, b]) {
      const h = await handleOf(s, "race");
      const list = await h.run((e) => handleRequest(model, e, req("GET", "/api/items")));
      const rows = (list.body as { value: { data: { id: number; title: string }[] } }).value.data;
      expect(rows.length).toBe(5 + 60);
      expect(new Set(rows.filter((r) => r.id >= 6).map((r) => r.title))).toEqual(
        new Set(made.map((m) => m.title)),
      );
    }
  });

  it("writes a request on a copy the replica holds in one round trip, and a copy another replica moved ahead is rebuilt from the refusal", async () => {
    // A seed of its own: the bundle's keys hold only default and this episode, so the eviction below is of it.
    const seed = structuredClone(ITEMS_SEED_STATE);
    seed.collections.items![4]!.title = "one trip";
    const [a, b] = [await store({ seed }), await store({ seed })];
    await a.create("one-trip", 0);
    const memory = createEpisode(model, seed, { episodeId: "one-trip" });
    const toRun = async (s: RedisEpisodeStore) => {
      const found = await s.findToRun("one-trip");
      if (isMissing(found)) throw new Error("one-trip missing");
      return found;
    };
    // Round trips as Redis counts them: every store call is one EVALSHA (or EVAL) script.
    const counter = createClient({ url: redis.url });
    await counter.connect();
    onTestFinished(() => void counter.quit().catch(() => {}));
    const scripts = async () => {
      const info = String(await counter.sendCommand(["INFO", "commandstats"]));
      const calls = (cmd: string) => Number(new RegExp(`cmdstat_${cmd}:calls=(\\d+)`).exec(info)?.[1] ?? 0);
      return calls("evalsha") + calls("eval");
    };
    const step = async (s: RedisEpisodeStore, call: TwinRequest) => {
      const before = await scripts();
      const got = await (await toRun(s)).run((e) => handleRequest(model, e, call));
      expect(plain(got)).toEqual(plain(handleRequest(model, memory, call)));
      return (await scripts()) - before;
    };
    const post = (title: string) => req("POST", "/api/items", { title });
    expect(await step(a, post("one"))).toBe(1); // a holds the copy it created: COMMIT alone
    expect(await step(a, req("PATCH", "/api/items/6", { done: true }))).toBe(1);
    expect(await step(a, req("GET", "/api/items/6"))).toBe(1); // a read: one SYNC, nothing new
    expect(await step(b, post("two"))).toBe(2); // b holds no copy yet: SYNC, then COMMIT
    expect(await step(b, post("three"))).toBe(1);
    // a's copy is two writes behind: its COMMIT is refused with every delta, rebuilt, committed again.
    expect(await step(a, post("four"))).toBe(2);
    // b's copy is one behind: its read SYNCs, catches up and reads again; the next read is one trip.
    expect(await step(b, req("GET", "/api/items"))).toBe(1);
    expect(await step(b, req("GET", "/api/items/9"))).toBe(1);
    const state = async (s: RedisEpisodeStore) => (await (await toRun(s)).snapshot()).state.toSeedState();
    expect(await state(a)).toEqual(memory.state.toSeedState());
    expect(await state(b)).toEqual(memory.state.toSeedState());
    // Evicted meanwhile by another replica, a held copy's next step says so (410), as find would.
    const c = await store({ maxEpisodes: 2, seed });
    await c.create("newer", 0);
    const gone = (await toRun(a)).run((e) => handleRequest(model, e, post("late")));
    await expect(gone).rejects.toBeInstanceOf(EpisodeGoneError);
    await expect(gone).rejects.toMatchObject({ missing: { status: 410 } });
  });

  it("evicts across replicas past the cap and answers the evicted episode 410 on the other", async () => {
    const seed = { collections: { items: [{ id: 1, title: "only", done: false }] } };
    const [a, b] = [await store({ maxEpisodes: 3, seed }), await store({ maxEpisodes: 3, seed })];
    await a.create("run-1", 0);
    await a.create("run-2", 0);
    const made = await b.create("run-3", 0);
    expect(made.evicted).toEqual({ episode: "run-1", evicted_for: "run-3", limit: 3 });
    const gone = await a.find("run-1");
    expect(isMissing(gone) && gone.status).toBe(410);
    expect(isMissing(gone) && gone.body.error).toBe("episode_evicted");
    expect(await a.ids()).toEqual(["default", "run-2", "run-3"]);
    const health = await b.health();
    expect([health.episodes, health.evictions.count, health.evictions.last?.episode]).toEqual([
      3,
      1,
      "run-1",
    ]);
    const fresh = await b.create("run-1", 0); // an evicted id created again is a fresh episode
    expect(fresh.evicted?.episode).toBe("run-2");
    expect(isMissing(await a.find("run-1"))).toBe(false);
  });

  it("drops an episode unused past the TTL and says it expired; never default", async () => {
    const seed = { collections: { items: [{ id: 2, title: "ttl", done: false }] } };
    const s = await store({ episodeTtlMs: 300, seed });
    await s.create("short", 0);
    await new Promise((r) => setTimeout(r, 700));
    const gone = await s.find("short");
    expect(isMissing(gone) && gone.status).toBe(410);
    expect(isMissing(gone) && gone.body.message).toBe(
      'Episode "short" expired: it was not used for 300 ms (--episode-ttl-ms), so the store dropped it. Its state is gone.',
    );
    expect(isMissing(await s.find("default"))).toBe(false);
    expect(await s.ids()).toEqual(["default"]);
  });

  it("resets on one replica for every replica, and keeps two bundles apart", async () => {
    const [a, b] = [await store(), await store()];
    await a.create("reset-me", 0);
    const h = await handleOf(a, "reset-me");
    await h.run((e) => handleRequest(model, e, req("POST", "/api/items", { title: "x" })));
    await handleOf(b, "reset-me"); // b holds a copy with the write
    await a.reset(h);
    const after = await (await handleOf(b, "reset-me")).snapshot();
    expect(after.state.toSeedState()).toEqual(ITEMS_SEED_STATE);
    const again = await (await handleOf(b, "reset-me")).run((e) =>
      handleRequest(model, e, req("POST", "/api/items", { title: "y" })),
    );
    expect((again.body as { value: { id: number } }).value.id).toBe(6);
    const other = await store({ seed: { collections: { items: [] } } });
    expect(isMissing(await other.find("reset-me"))).toBe(true);
  });

  it("refuses to open when Redis is out of reach, and answers StoreUnavailableError while it is down", async () => {
    const port = await freePort();
    const refused = openRedisStore(new URL(`redis://:s3cret@127.0.0.1:${port}/0`), bundle, {
      sessionIdleMs: 1000,
    });
    await expect(refused).rejects.toBeInstanceOf(UserError);
    await expect(refused).rejects.toThrow(
      `Cannot reach the episode store redis://127.0.0.1:${port}/0: connect ECONNREFUSED 127.0.0.1:${port}.`,
    );
    await expect(refused).rejects.not.toThrow(/s3cret/);

    const own = await startRedis();
    const s = await openRedisStore(new URL(own.url), bundle, { sessionIdleMs: 1000 });
    try {
      const h = await handleOf(s, "default");
      await own.stop();
      const failed = h.run((e) => handleRequest(model, e, req("POST", "/api/items", { title: "lost" })));
      await expect(failed).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(s.find("default")).rejects.toThrow(
        /^The episode store \(redis:\/\/127\.0\.0\.1:\d+\/0\) cannot be reached: /,
      );
    } finally {
      await s.close();
      await own.stop();
    }
  });

  it("refuses --episode-ttl-ms without a shared store (exit 2): episodes in memory are bounded by --max-episodes", async () => {
    const opened = openStore(bundle as unknown as TwinBundle, { episodeTtlMs: 1000 });
    await expect(opened).rejects.toBeInstanceOf(UserError);
    await expect(opened).rejects.toThrow(
      "--episode-ttl-ms applies to a shared store (--store redis://…); episodes in memory are bounded by --max-episodes.",
    );
    expect(await openStore(bundle as unknown as TwinBundle, {})).toBeUndefined();
  });
});
