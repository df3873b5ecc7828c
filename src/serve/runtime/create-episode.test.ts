import { describe, expect, it } from "vitest";
import { ITEMS_SEED_STATE, itemsModel } from "../../../test/fixtures/models/items-twin.js";
import { createEpisode, episodeSeed, episodeState, resetEpisode } from "./create-episode.js";
import { diffEpisode } from "./diff-state.js";
import { handleRequest } from "./handle-request.js";
import type { TwinRequest } from "./twin-types.js";

const req = (method: string, path: string, body?: unknown, query: [string, string][] = []): TwinRequest => ({
  method,
  path,
  query,
  headers: {},
  body: body === undefined ? null : { kind: "json", value: body },
});

describe("episodes over a shared seed", () => {
  const model = itemsModel();

  it("share the seed's entities instead of copying them, and keep their writes to themselves", () => {
    const a = createEpisode(model, ITEMS_SEED_STATE, { episodeId: "a" });
    const b = createEpisode(model, ITEMS_SEED_STATE, { episodeId: "b" });
    expect(episodeState(a).collections.items![0]).toBe(episodeState(b).collections.items![0]);
    handleRequest(model, a, req("PATCH", "/api/items/1", { title: "Tea" }));
    expect(episodeState(a).collections.items![0]!.title).toBe("Tea");
    expect(episodeState(b).collections.items![0]!.title).toBe("Buy coffee beans");
    expect(episodeSeed(a)).toBe(ITEMS_SEED_STATE);
    expect(ITEMS_SEED_STATE.collections.items![0]!.title).toBe("Buy coffee beans");
  });

  it("give answers that cannot be used to change the state: item, list, write and state answers", () => {
    const ep = createEpisode(model, ITEMS_SEED_STATE, { episodeId: "e" });
    const item = handleRequest(model, ep, req("GET", "/api/items/1")).body as {
      value: Record<string, unknown>;
    };
    const list = handleRequest(model, ep, req("GET", "/api/items")).body as {
      value: { data: Record<string, unknown>[] };
    };
    const created = handleRequest(model, ep, req("POST", "/api/items", { title: "Tea" })).body as {
      value: Record<string, unknown>;
    };
    const state = episodeState(ep);
    const attempts: (() => void)[] = [
      () => {
        item.value.title = "changed";
      },
      () => {
        delete item.value.done;
      },
      () => {
        list.value.data[1]!.title = "changed";
      },
      () => {
        created.value.title = "changed";
      },
      () => {
        state.collections.items![0]!.done = true;
      },
    ];
    for (const attempt of attempts) expect(attempt).toThrow(TypeError);
    // What an answer owns (its arrays and envelopes) may change: the state does not.
    list.value.data.pop();
    state.collections.items!.length = 0;
    const after = episodeState(ep).collections.items!;
    expect(after).toHaveLength(6);
    expect(after[0]).toEqual(ITEMS_SEED_STATE.collections.items![0]);
    expect(after[5]).toMatchObject({ id: 6, title: "Tea" });
    expect(handleRequest(model, ep, req("GET", "/api/items/2")).body).toEqual({
      kind: "json",
      value: ITEMS_SEED_STATE.collections.items![1],
    });
  });

  it("reset drops the changes; the diff is read from the changes", () => {
    const ep = createEpisode(model, ITEMS_SEED_STATE, { episodeId: "e" });
    handleRequest(model, ep, req("DELETE", "/api/items/2"));
    handleRequest(model, ep, req("POST", "/api/items", { title: "Tea" }));
    handleRequest(model, ep, req("PATCH", "/api/items/6", { done: true }));
    expect(diffEpisode(ep.state).map((c) => [c.id, c.kind])).toEqual([
      ["2", "deleted"],
      ["6", "created"],
    ]);
    const page = handleRequest(model, ep, req("GET", "/api/items", undefined, [["offset", "1"]])).body as {
      value: { data: { id: number }[]; total: number };
    };
    expect([page.value.total, page.value.data.map((i) => i.id)]).toEqual([5, [3, 4, 5, 6]]);
    resetEpisode(model, ep);
    expect(episodeState(ep)).toEqual(ITEMS_SEED_STATE);
    expect(diffEpisode(ep.state)).toEqual([]);
    expect(ep.clock_ms).toBe(model.clock.last_time_ms);
    expect(ep.id_sequences).toEqual(model.id_sequences);
  });
});
