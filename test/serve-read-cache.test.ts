/**
 * The twin's read path keeps work between requests (the JSON text of frozen entities, the plan of a list query):
 * over a real loopback socket, on the items app's model as learned from its recording, every answer is the text of
 * the episode's state at that moment, in that episode: read, write, read again, in the same episode and in another,
 * after a delete (the list's sample changes) and after a reset.
 */
import { fetch } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { learnModel } from "../src/bundle/learn-model.js";
import { readEvidence } from "../src/evidence/evidence-io.js";
import { createTwinServer, type TwinServer } from "../src/serve/http/twin-http-server.js";
import { twinBundle } from "./fixtures/models/twin-bundle-fixture.js";

const seedItems = () =>
  Array.from({ length: 5 }, (_, k) => {
    const t = new Date(Date.UTC(2026, 0, 1) + (k + 1) * 60_000).toISOString();
    return {
      id: k + 1,
      title: `Item number ${k + 1}`,
      done: (k + 1) % 3 === 0,
      created_at: t,
      updated_at: t,
    };
  });
/** The seed as the test knows it: its own objects, never the twin's (which it freezes and keeps texts of). */
const seed = seedItems();

let twin: TwinServer;
let base: string;

beforeAll(async () => {
  const { model } = learnModel(await readEvidence("test/fixtures/evidence/items.capture.json"));
  model.id_sequences.items = 6;
  twin = createTwinServer(twinBundle({ model, seed: { collections: { items: seedItems() } }, tools: [] }));
  base = await twin.listen(0, "127.0.0.1");
  for (const id of ["a", "b"]) {
    const made = await fetch(`${base}/__apptwin/episodes`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ id }),
    });
    expect(made.status).toBe(201);
  }
});

afterAll(async () => {
  await twin?.close();
});

async function call(episode: string, method: string, path: string, body?: unknown) {
  const res = await fetch(base + path, {
    method,
    headers: {
      "x-apptwin-episode": episode,
      // The recorded writes carried a bearer token: any value is what the twin takes for one.
      authorization: "Bearer any",
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

const list = (data: unknown[], total: number) => JSON.stringify({ data, total });

describe("the twin's read path, read again after writes", () => {
  it("answers each episode's state as it is now, byte for byte", async () => {
    // Read twice in both episodes: the texts kept from the first read are the seed's.
    for (const ep of ["a", "b", "a", "b"]) {
      expect(await call(ep, "GET", "/api/items/2")).toEqual({ status: 200, text: JSON.stringify(seed[1]) });
      expect((await call(ep, "GET", "/api/items?limit=3")).text).toBe(list(seed.slice(0, 3), 5));
      expect((await call(ep, "GET", "/api/items?done=true")).text).toBe(list([seed[2]], 1));
    }

    const patched = await call("a", "PATCH", "/api/items/2", { done: true });
    expect(patched.status).toBe(200);
    const item2 = JSON.parse(patched.text);
    expect(item2).toMatchObject({ id: 2, title: "Item number 2", done: true });
    expect(item2.updated_at).not.toBe(seed[1]!.updated_at);

    // The writing episode reads its write; the other still reads the seed.
    for (let i = 0; i < 2; i++) {
      expect(await call("a", "GET", "/api/items/2")).toEqual({ status: 200, text: JSON.stringify(item2) });
      expect(await call("b", "GET", "/api/items/2")).toEqual({ status: 200, text: JSON.stringify(seed[1]) });
      expect((await call("a", "GET", "/api/items?limit=3")).text).toBe(list([seed[0], item2, seed[2]], 5));
      expect((await call("b", "GET", "/api/items?limit=3")).text).toBe(list(seed.slice(0, 3), 5));
      expect((await call("a", "GET", "/api/items?done=true")).text).toBe(list([item2, seed[2]], 2));
      expect((await call("b", "GET", "/api/items?done=true")).text).toBe(list([seed[2]], 1));
    }

    // A delete moves every later entity up a place: the same query now reads other entities.
    expect((await call("a", "DELETE", "/api/items/1")).status).toBe(204);
    expect((await call("a", "GET", "/api/items/1")).status).toBe(404);
    expect((await call("a", "GET", "/api/items?limit=3")).text).toBe(list([item2, seed[2], seed[3]], 4));
    expect((await call("a", "GET", "/api/items")).text).toBe(list([item2, ...seed.slice(2)], 4));
    expect((await call("b", "GET", "/api/items?limit=3")).text).toBe(list(seed.slice(0, 3), 5));
    expect((await call("b", "GET", "/api/items")).text).toBe(list(seed, 5));

    // A create in the other episode shows there only.
    const created = await call("b", "POST", "/api/items", { title: "New one" });
    expect(created.status).toBe(201);
    const item6 = JSON.parse(created.text);
    expect((await call("b", "GET", `/api/items/${item6.id}`)).text).toBe(created.text);
    expect((await call("b", "GET", "/api/items?offset=4")).text).toBe(list([seed[4], item6], 6));
    expect((await call("a", "GET", `/api/items/${item6.id}`)).status).toBe(404);

    // Reset: the episode reads the seed again, as the other one did before its create.
    expect((await fetch(`${base}/__apptwin/episodes/a/reset`, { method: "POST" })).status).toBe(200);
    expect(await call("a", "GET", "/api/items/2")).toEqual({ status: 200, text: JSON.stringify(seed[1]) });
    expect(await call("a", "GET", "/api/items/1")).toEqual({ status: 200, text: JSON.stringify(seed[0]) });
    expect((await call("a", "GET", "/api/items?limit=3")).text).toBe(list(seed.slice(0, 3), 5));
    expect((await call("a", "GET", "/api/items?done=true")).text).toBe(list([seed[2]], 1));
  });
});
