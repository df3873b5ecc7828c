import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DeletedSlots } from "./deleted-slots.js";

/** The plain sorted array DeletedSlots must answer like. */
function slotAtOf(sorted: number[], p: number): number {
  let live = -1;
  let next = 0;
  for (let slot = 0; ; slot++) {
    if (next < sorted.length && sorted[next] === slot) next++;
    else if (++live === p) return slot;
  }
}

type Op =
  | { op: "delete"; slot: number }
  | { op: "grow"; by: number }
  | { op: "drop"; from: number }
  | { op: "copy" };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ op: fc.constant("delete" as const), slot: fc.nat(200) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("grow" as const), by: fc.nat(40) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("drop" as const), from: fc.nat(200) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("copy" as const) }) },
);

describe("DeletedSlots", () => {
  it("answers like a sorted array, in both forms (array and tree), through deletes, growth, drops and copies", () => {
    fc.assert(
      fc.property(fc.nat(4), fc.nat(120), fc.array(opArb, { maxLength: 150 }), (arrayMax, start, ops) => {
        let set = new DeletedSlots(arrayMax);
        const model = new Set<number>();
        let slots = start;
        for (const o of ops) {
          if (o.op === "grow") slots += o.by;
          else if (o.op === "copy") set = set.copy();
          else if (o.op === "drop") {
            set.dropFrom(o.from);
            for (const s of [...model]) if (s >= o.from) model.delete(s);
          } else if (slots > 0 && !model.has(o.slot % slots)) {
            set.insert(o.slot % slots, slots);
            model.add(o.slot % slots);
          }
          const sorted = [...model].sort((a, b) => a - b);
          expect(set.count).toBe(sorted.length);
          for (const at of [0, 1, 7, slots >>> 1, slots, slots + 3]) {
            expect(set.below(at)).toBe(sorted.filter((s) => s < at).length);
          }
          for (let p = 0; p <= slots - sorted.length + 2; p += 1 + (p >>> 3)) {
            expect(set.slotAt(p)).toBe(slotAtOf(sorted, p));
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it("a copy is independent of its original", () => {
    const set = new DeletedSlots(1);
    for (const s of [5, 1, 3]) set.insert(s, 10);
    const copy = set.copy();
    set.insert(2, 10);
    expect(copy.count).toBe(3);
    expect(copy.slotAt(1)).toBe(2);
    expect(set.slotAt(1)).toBe(4);
  });
});
