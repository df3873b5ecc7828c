import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Entity } from "../../model/model-schema.js";
import { CollectionState, SeedCollection } from "./collection-state.js";
import { diffEpisode, diffState } from "./diff-state.js";
import { EpisodeState, sharedSeed } from "./episode-state.js";

const idOf = (e: Entity) => (e.id === undefined || e.id === null ? null : String(e.id));

/** The plain-array behaviour the collection state must keep: first entity with an id wins. */
class ArrayModel {
  constructor(readonly rows: Entity[]) {}
  at(id: string) {
    return this.rows.findIndex((e) => idOf(e) === id);
  }
  get(id: string) {
    const i = this.at(id);
    return i < 0 ? undefined : this.rows[i];
  }
  append(e: Entity) {
    this.rows.push(e);
  }
  put(id: string, e: Entity) {
    const i = this.at(id);
    if (i < 0) this.rows.push(e);
    else this.rows[i] = e;
  }
  delete(id: string) {
    const i = this.at(id);
    if (i >= 0) this.rows.splice(i, 1);
  }
}

type Op =
  | { op: "append"; id: number | null; v: number }
  | { op: "put"; id: number; newId: number; v: number }
  | { op: "delete"; id: number };

// Few distinct ids, so duplicates, re-creations of deleted ids and id changes all happen.
const idArb = fc.integer({ min: 0, max: 12 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant("append" as const), id: fc.option(idArb), v: fc.nat(3) }),
  fc.record({ op: fc.constant("put" as const), id: idArb, newId: idArb, v: fc.nat(3) }),
  fc.record({ op: fc.constant("delete" as const), id: idArb }),
);
const seedArb = fc.array(
  fc.record({ id: fc.option(idArb, { freq: 8 }), v: fc.nat(3) }).map((r) => (r.id === null ? { v: r.v } : r)),
  { maxLength: 12 },
);

function run(seed: Entity[], ops: Op[]) {
  const state = new CollectionState("things", "id", new SeedCollection(structuredClone(seed)));
  const model = new ArrayModel(structuredClone(seed));
  for (const o of ops) {
    if (o.op === "append") {
      const e = o.id === null ? { v: o.v } : { id: o.id, v: o.v };
      state.append({ ...e });
      model.append({ ...e });
    } else if (o.op === "put") {
      state.put(String(o.id), { id: o.newId, v: o.v });
      model.put(String(o.id), { id: o.newId, v: o.v });
    } else {
      state.delete(String(o.id));
      model.delete(String(o.id));
    }
  }
  return { state, model };
}

describe("CollectionState", () => {
  it("behaves like the plain array it replaces: get, order, size, slices, after any writes", () => {
    fc.assert(
      fc.property(seedArb, fc.array(opArb, { maxLength: 200 }), (seed, ops) => {
        const { state, model } = run(seed, ops);
        expect([...state.values()]).toEqual(model.rows);
        expect(state.size).toBe(model.rows.length);
        for (let id = 0; id <= 12; id++) {
          expect(state.get(String(id))).toEqual(model.get(String(id)));
          expect([...state.withId(String(id))]).toEqual(
            model.rows.filter((r) => String(r.id) === String(id)),
          );
        }
        for (let start = 0; start <= model.rows.length; start += 3) {
          expect(state.slice(start, start + 4)).toEqual(model.rows.slice(start, start + 4));
          expect([...state.values(start)]).toEqual(model.rows.slice(start));
        }
      }),
      { numRuns: 300 },
    );
  });

  it("keeps its answers through many create-then-delete cycles (added rows are compacted)", () => {
    const seed = Array.from({ length: 50 }, (_, i) => ({ id: i + 1, v: 0 }));
    const { state, model } = run(
      seed,
      Array.from({ length: 1000 }, (_, i): Op[] => [
        { op: "append", id: 100 + (i % 7), v: i % 3 },
        { op: "put", id: 100 + (i % 7), newId: 100 + (i % 7), v: 3 },
        ...(i % 5 === 0 ? [] : [{ op: "delete" as const, id: 100 + (i % 7) }]),
        ...(i % 50 === 0 ? [{ op: "delete" as const, id: (i % 50) + 1 }] : []),
      ]).flat(),
    );
    expect([...state.values()]).toEqual(model.rows);
    expect(state.slice(45, 60)).toEqual(model.rows.slice(45, 60));
    // 200 added rows live (every fifth is kept); of the 800 deleted ones at most max(64, live) are still held.
    const live = model.rows.length - 49;
    expect(live).toBe(200);
    expect((state as unknown as { added: unknown[] }).added.length).toBeLessThanOrEqual(2 * live + 64);
  });

  it("keeps list order and lookups when most of a large seed is deleted in random order (the tree form)", () => {
    const n = 6000;
    const seed = Array.from({ length: n }, (_, i) => ({ id: i + 1, v: 0 }));
    const state = new CollectionState("things", "id", new SeedCollection(seed));
    const model = seed.map((e) => ({ ...e }));
    // A fixed permutation (7919 is prime to n): deletes land all over the list, not at its end.
    for (let k = 0; k < 5000; k++) {
      const id = ((k * 7919) % n) + 1;
      state.delete(String(id));
      model.splice(
        model.findIndex((e) => e.id === id),
        1,
      );
      if (k % 10 === 0) {
        state.append({ id: n + k + 1, v: 1 });
        model.push({ id: n + k + 1, v: 1 });
      }
    }
    expect(state.size).toBe(model.length);
    expect([...state.values()]).toEqual(model);
    for (let start = 0; start < model.length; start += 97) {
      expect(state.slice(start, start + 20)).toEqual(model.slice(start, start + 20));
    }
    const snap = state.snapshot();
    state.delete(String(model[0]!.id));
    expect([...snap.values()]).toEqual(model);
    expect(state.get(String(model[1]!.id))).toEqual(model[1]);
  });

  it("knows an id a put moved to another one as moved away, until an entity holds it again", () => {
    const state = new CollectionState("files", "path", new SeedCollection([{ path: "a" }, { path: "a/b" }]));
    state.put("a/b", { path: "c/b" });
    expect([state.wasMovedAway("a/b"), state.wasDeleted("a/b"), state.get("c/b")]).toEqual([
      true,
      false,
      { path: "c/b" },
    ]);
    const snap = state.snapshot();
    state.append({ path: "a/b" });
    expect([state.wasMovedAway("a/b"), snap.wasMovedAway("a/b"), state.wasMovedAway("a")]).toEqual([
      false,
      true,
      false,
    ]);
    state.reset();
    expect(state.wasMovedAway("a/b")).toBe(false);
  });

  it("holds every entity deeply frozen, and never changes the seed", () => {
    const seed = [{ id: 1, tags: ["a"] }];
    const shared = new SeedCollection(seed);
    const state = new CollectionState("things", "id", shared);
    const written = state.append({ id: 2, tags: ["b"], nested: { x: 1 } });
    expect(Object.isFrozen(written) && Object.isFrozen(written.tags) && Object.isFrozen(written.nested)).toBe(
      true,
    );
    state.put("1", { id: 1, tags: ["c"] });
    state.delete("2");
    expect(seed).toEqual([{ id: 1, tags: ["a"] }]);
    expect(new CollectionState("things", "id", shared).get("1")).toEqual({ id: 1, tags: ["a"] });
  });

  it("snapshots in time: later writes do not show in the snapshot", () => {
    const state = new CollectionState("things", "id", new SeedCollection([{ id: 1 }, { id: 2 }]));
    state.append({ id: 3 });
    const snap = state.snapshot();
    state.delete("1");
    state.put("2", { id: 2, v: 1 });
    state.append({ id: 4 });
    expect([...snap.values()]).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect([...state.values()]).toEqual([{ id: 2, v: 1 }, { id: 3 }, { id: 4 }]);
  });
});

describe("diffEpisode", () => {
  it("lists the same changes as comparing the whole seed with the whole state", () => {
    const model = {
      collections: [{ name: "things", id_field: "id" }],
    } as unknown as Parameters<typeof EpisodeState.of>[1];
    // Unique ids here: on duplicates diffState and the episode agree by construction (first in list order).
    const uniqueSeed = seedArb.map((rows) => {
      const seen = new Set<unknown>();
      return rows.filter((r) => "id" in r && !seen.has(r.id) && seen.add(r.id));
    });
    fc.assert(
      fc.property(uniqueSeed, fc.array(opArb, { maxLength: 60 }), (seed, ops) => {
        const seedState = { collections: { things: structuredClone(seed) as Entity[] } };
        const state = EpisodeState.of(sharedSeed(seedState), model);
        const things = state.collection("things");
        for (const o of ops) {
          if (o.op === "append" && o.id !== null && !things.has(String(o.id))) {
            things.append({ id: o.id, v: o.v });
          } else if (o.op === "put" && things.has(String(o.id)) && !things.has(String(o.newId))) {
            things.put(String(o.id), { id: o.newId, v: o.v });
          } else if (o.op === "put" && things.has(String(o.id))) {
            things.put(String(o.id), { id: o.id, v: o.v });
          } else if (o.op === "delete") things.delete(String(o.id));
        }
        expect(diffEpisode(state)).toEqual(diffState(seedState, state.toSeedState()));
      }),
      { numRuns: 300 },
    );
  });
});

describe("ids an episode deleted", () => {
  it("are told apart from ids it never held, through re-creation, reset and snapshots", () => {
    const state = new CollectionState("things", "id", new SeedCollection([{ id: 1 }, { id: 2 }]));
    state.delete("1");
    state.append({ id: 3 });
    state.delete("3");
    expect([
      state.wasDeleted("1"),
      state.wasDeleted("3"),
      state.wasDeleted("2"),
      state.wasDeleted("9"),
    ]).toEqual([true, true, false, false]);
    const frozen = state.snapshot();
    state.append({ id: 1 });
    expect([state.wasDeleted("1"), frozen.wasDeleted("1")]).toEqual([false, true]);
    state.reset();
    expect([state.wasDeleted("1"), state.wasDeleted("3")]).toEqual([false, false]);
  });
});
