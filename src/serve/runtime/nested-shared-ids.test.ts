/**
 * A nested collection holding one same id under each parent (a file's checkpoint `checkpoint`): the path names the
 * entity under its parent, and a write or delete reaches that one, never the first holding the id (episodes helper,
 * session 5); the recorded changes replay elsewhere to the same state.
 */
import { describe, expect, it } from "vitest";
import type { Collection, Model } from "../../model/model-schema.js";
import { locateNth } from "./collection-read.js";
import { EpisodeState, sharedSeed } from "./episode-state.js";

const v = (note: string, body: string) => ({ id: "v", note, body });
const versions = {
  name: "versions",
  id_field: "id",
  parent: { collection: "notes", param: "note_id", field: "note" },
} as unknown as Collection;
const model = { collections: [versions] } as unknown as Model;
const seed = () => ({ collections: { versions: [v("a", "A1"), v("b", "B1"), v("c", "C1")] } });
const at = (note: string) => ({ note_id: note, id: "v" });

describe("ids shared by the entities of several parents", () => {
  it("names the entity under the path's parent, and changes and deletes that one only, replayed alike", () => {
    const state = EpisodeState.of(sharedSeed(seed()), model);
    const list = state.collection("versions");
    expect(locateNth(versions, list, at("b"), "id")).toEqual({ entity: v("b", "B1"), nth: 1 });
    expect(locateNth(versions, list, at("z"), "id")).toBeUndefined();
    const { writes } = state.recording(() => {
      list.put("v", v("b", "B2"), 1);
      list.delete("v", 2);
    });
    expect([...list.values()]).toEqual([v("a", "A1"), v("b", "B2")]);
    expect(locateNth(versions, list, at("c"), "id")).toBeUndefined();
    const other = EpisodeState.of(sharedSeed(seed()), model);
    for (const w of writes) other.replay(w.collection, w.write);
    expect([...other.collection("versions").values()]).toEqual([...list.values()]);
  });
});
