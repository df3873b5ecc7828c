import { describe, expect, it } from "vitest";
import { ITEMS_SEED_STATE, itemsModel } from "../../test/fixtures/models/items-twin.js";
import { memoryHandle } from "./memory-episode-store.js";
import { createEpisode, episodeState } from "./runtime/create-episode.js";
import type { TwinRequest } from "./runtime/twin-types.js";
import { TestDouble } from "./test-double.js";

/** Every object and array reachable from a value. */
function objectsIn(value: unknown, out = new Set<object>()): Set<object> {
  if (value === null || typeof value !== "object" || out.has(value)) return out;
  out.add(value);
  for (const v of Object.values(value)) objectsIn(v, out);
  return out;
}

describe("the request journal of an episode", () => {
  // A create the recording showed sending nested fields beside the title (so the twin takes such a body).
  const base = itemsModel();
  const model = {
    ...base,
    endpoints: base.endpoints.map((e) =>
      e.tool_name === "post_items"
        ? {
            ...e,
            request_schema: {
              ...e.request_schema,
              properties: {
                title: { type: "string" },
                tags: { type: "array" },
                meta: { type: "object" },
                password: { type: "string" },
              },
            },
          }
        : e,
    ),
  };

  it("never holds a reference through which the state (or the journal) can change", async () => {
    const episode = createEpisode(model, ITEMS_SEED_STATE, { episodeId: "j" });
    const handle = memoryHandle(episode);
    const double = new TestDouble(model);
    const sent = { title: "Tea", tags: ["hot"], meta: { origin: "bench" }, password: "pw" };
    const post: TwinRequest = {
      method: "POST",
      path: "/api/items",
      query: [],
      headers: { "content-type": "application/json" },
      body: { kind: "json", value: sent },
    };
    const patch: TwinRequest = {
      ...post,
      method: "PATCH",
      path: "/api/items/1",
      body: { kind: "json", value: { done: true } },
    };
    for (const req of [post, patch, { ...post, method: "GET", path: "/api/items/1", body: null }])
      await double.serve(handle, req, { via: "http" });

    const entries = double.journal(handle).find({});
    expect(entries.map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual([
      "POST /api/items 201",
      "PATCH /api/items/1 200",
      "GET /api/items/1 200",
    ]);
    const state = episodeState(episode);
    const stateObjects = objectsIn(state);
    const journalObjects = objectsIn(entries);
    // Nothing the journal holds is an object of the state, or the request's own body.
    for (const o of journalObjects) {
      expect(stateObjects.has(o)).toBe(false);
      expect(objectsIn(sent).has(o)).toBe(false);
    }
    expect(entries[0]!.body).toEqual({
      title: "Tea",
      tags: ["hot"],
      meta: { origin: "bench" },
      password: "[MASKED]",
    });

    // The caller changes what it sent: neither the journal nor the state follows.
    sent.title = "changed";
    sent.tags.push("changed");
    sent.meta.origin = "changed";
    expect(entries[0]!.body).toMatchObject({ title: "Tea", tags: ["hot"], meta: { origin: "bench" } });
    const created = episodeState(episode).collections.items!.at(-1)!;
    expect(created.title).toBe("Tea");

    // Whoever reads the journal cannot change it (entries and bodies are frozen), nor the state through it.
    const attempts: (() => void)[] = [
      () => {
        (entries[0] as { status: number }).status = 500;
      },
      () => {
        (entries[0]!.body as { tags: string[] }).tags.push("x");
      },
      () => {
        (entries[0]!.body as { meta: { origin: string } }).meta.origin = "x";
      },
    ];
    for (const attempt of attempts) expect(attempt).toThrow(TypeError);
    expect(double.journal(handle).find({})[0]!.body).toMatchObject({
      tags: ["hot"],
      meta: { origin: "bench" },
    });
    expect(JSON.stringify(episodeState(episode))).toBe(JSON.stringify(state));
  });
});
