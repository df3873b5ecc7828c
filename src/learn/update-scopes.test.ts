/** The state an update met, walked anew over the recording before it: once per update, and within a budget. */
import { describe, expect, it } from "vitest";
import type { Entity } from "../model/model-schema.js";
import { CollectionState } from "./collection-state.js";
import type { FoundCollection } from "./collections.js";
import type { Observation } from "./endpoint-index.js";
import type { WalkResult } from "./state-walk.js";
import { othersBeforeUpdates } from "./update-scopes.js";
import type { WriteTarget } from "./write-targets.js";

const col = { name: "tags", idField: "id" } as unknown as FoundCollection;
const patch = { kind: "merge", collection: col, idParam: "id" } as unknown as WriteTarget;
const create = { kind: "create", collection: col, idParam: null } as unknown as WriteTarget;
const targets = new Map([
  ["PATCH /tags/{id}", patch],
  ["POST /tags", create],
]);
const obs = (key: string, id?: string) =>
  ({ endpoint: { key }, pathParams: id === undefined ? {} : { id } }) as unknown as Observation;

/** A walk whose state holds the entities the prefix's length says (`tag 1`..`tag n`), counting the walks. */
function walker() {
  const prefixes: number[] = [];
  const until = (prefix: Observation[]): WalkResult => {
    prefixes.push(prefix.length);
    const st = new CollectionState(col);
    for (let i = 1; i <= prefix.length; i++) st.upsert({ id: i, name: `tag ${i}` } as Entity);
    return { states: new Map([["tags", st]]) } as unknown as WalkResult;
  };
  return { until, prefixes };
}

describe("othersBeforeUpdates", () => {
  const ordered = [obs("GET /tags"), obs("GET /tags"), obs("PATCH /tags/{id}", "2"), obs("POST /tags")];

  it("gives the other entities of the collection before the update, for its id field and for another", () => {
    const { until, prefixes } = walker();
    const others = othersBeforeUpdates(ordered, targets, until);
    expect(others(ordered[2]!, "id")?.map((e) => e["id"])).toEqual([1]);
    expect(others(ordered[2]!, "name")?.map((e) => e["name"])).toEqual(["tag 1"]);
    // One walk of the two observations before it, taken once for both questions.
    expect(prefixes).toEqual([2]);
  });

  it("tells nothing of a create (its scope is the walk's own), nor past the walks' budget", () => {
    const { until, prefixes } = walker();
    expect(othersBeforeUpdates(ordered, targets, until)(ordered[3]!, "id")).toBeNull();
    expect(othersBeforeUpdates(ordered, targets, until, 0)(ordered[2]!, "id")).toBeNull();
    expect(prefixes).toEqual([]);
  });
});
