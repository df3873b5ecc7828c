import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Model } from "../../model/model-schema.js";
import { SeedCollection, seedRun } from "./collection-state.js";
import { diffEpisode } from "./diff-state.js";
import { EpisodeState, sharedSeed } from "./episode-state.js";
import { buildStateText, diffJson, internalKeys, stateJson } from "./state-json.js";

const text = (pieces: Iterable<string | Uint8Array>) =>
  [...pieces].map((p) => (typeof p === "string" ? p : Buffer.from(p).toString("utf8"))).join("");

describe("stateJson", () => {
  const model = {
    collections: [
      { name: "boards", id_field: "key" },
      { name: "cards", id_field: "id" },
      { name: "tags", id_field: "id" },
    ],
  } as unknown as Model;
  const seed = {
    collections: {
      cards: Array.from({ length: 7 }, (_, i) => ({ id: i + 1, title: `Card ${i + 1} é` })),
      boards: [{ key: "A" }, { key: "B" }],
    },
  };

  it("is exactly JSON.stringify of the state, with the seed's text built in steps", () => {
    const state = EpisodeState.of(sharedSeed(seed), model);
    let steps = 0;
    while (!buildStateText(state, 2)) steps++;
    expect(steps).toBeGreaterThan(2);
    expect(text(stateJson(state))).toBe(JSON.stringify(state.toSeedState()));
    const cards = state.collection("cards");
    cards.delete("1");
    cards.put("4", { id: 4, title: "Changed" });
    cards.delete("7");
    cards.append({ id: 8, title: "New" });
    state.collection("boards").delete("A");
    state.collection("boards").delete("B");
    state.collection("tags").append({ id: "t", name: "urgent" });
    const json = text(stateJson(state));
    expect(json).toBe(JSON.stringify(state.toSeedState()));
    expect(Object.keys(JSON.parse(json).collections)).toEqual(["cards", "boards", "tags"]);
    expect(JSON.parse(json).collections.boards).toEqual([]);
  });

  it("diffJson is the JSON of the diff", () => {
    const state = EpisodeState.of(sharedSeed(seed), model);
    state.collection("cards").put("2", { id: 2, title: "Other" });
    const changes = diffEpisode(state);
    expect(JSON.parse(text(diffJson("e", changes)))).toEqual({ id: "e", changes });
  });

  it("leaves a singleton document's internal id out of the state and the diff (known-wrong: `_singleton` was shown)", () => {
    const singletonModel = {
      collections: [
        { name: "settings", id_field: "_singleton", singleton: true },
        { name: "cards", id_field: "id" },
      ],
    } as unknown as Model;
    const state = EpisodeState.of(
      sharedSeed({
        collections: {
          settings: [{ theme: "light", _singleton: "settings" }],
          cards: [{ id: 1, title: "A" }],
        },
      }),
      singletonModel,
    );
    while (!buildStateText(state, 10));
    const internal = internalKeys(singletonModel);
    expect([...internal]).toEqual([["settings", "_singleton"]]);
    state.collection("settings").put("settings", { theme: "dark", _singleton: "settings" });
    expect(JSON.parse(text(stateJson(state, internal)))).toEqual({
      collections: { settings: [{ theme: "dark" }], cards: [{ id: 1, title: "A" }] },
    });
    expect(JSON.parse(text(diffJson("e", diffEpisode(state), internal)))).toEqual({
      id: "e",
      changes: [
        {
          collection: "settings",
          id: "settings",
          kind: "updated",
          before: { theme: "light" },
          after: { theme: "dark" },
          fields: ["theme"],
        },
      ],
    });
  });

  it("a run of seed rows is their JSON joined by commas, across the chunks the steps made (any chunk size)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ id: fc.nat(), t: fc.string({ unit: "binary" }) }), {
          minLength: 1,
          maxLength: 30,
        }),
        fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 40 }),
        fc.nat(),
        fc.nat(),
        fc.integer({ min: 1, max: 300 }),
        (rows, steps, a, b, chunkBytes) => {
          const seed = new SeedCollection(rows);
          for (let i = 0; !seed.buildText(steps[i % steps.length]!, chunkBytes); i++);
          const from = a % rows.length;
          const to = from + 1 + (b % (rows.length - from));
          const got = text(seedRun(seed.json!, from, to));
          expect(got).toBe(
            rows
              .slice(from, to)
              .map((r) => JSON.stringify(r))
              .join(","),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
