/** A create's field no recorded create left out: the documented rule's default, labelled unconfirmed in coverage. */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, list, twinRequest } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const seeded = { id: 1, name: "1.0", note: "", due: "2030-01-01", tags: ["a"], open: true, owner: { id: 1 } };
const made = {
  id: 2,
  name: "1.1",
  note: "Minor",
  due: "2030-06-01",
  tags: ["b"],
  open: false,
  owner: { id: 1 },
};
const sent = { name: "1.1", note: "Minor", due: "2030-06-01", tags: ["b"], open: false };
const specs = (extra: RecordSpec[] = []): RecordSpec[] => [
  list([seeded]),
  { method: "POST", path: "/api/things", status: 201, req: sent, res: made },
  { path: "/api/things/2", status: 200, res: made },
  ...extra,
];

/** What the twin learned from `recorded` answers a create sending only a name. */
function createdByName(recorded: RecordSpec[]) {
  const learned = learnSpecs(recorded);
  const ep = createEpisode(learned.model, learned.seed, { episodeId: "u" });
  const res = handleRequest(learned.model, ep, twinRequest("POST", "/api/things", { name: "2.0" }));
  return {
    learned,
    body: res.body?.kind === "json" ? (res.body.value as Record<string, unknown>) : null,
    warning: res.headers["x-apptwin-warning"],
  };
}

describe("a field every create sent and every entity holds", () => {
  it("gets the one empty value the collection held, else the empty of its kind, labelled unconfirmed in coverage", () => {
    const { learned, body, warning } = createdByName(specs());
    // `note` was "" on the seeded entity; `due` (a date), `tags` (a list) and `open` (a flag) were never empty.
    expect(body).toMatchObject({ id: 3, name: "2.0", note: "", due: null, tags: [], open: false });
    // The answer says which values are the twin's default, never passing them off as the app's.
    expect(warning).toBe(
      "the request left out /due, /note, /open, /tags, which every recorded create sent: their values are the twin's documented default, not one the recording confirmed",
    );
    const row = learned.coverage.writes.served.find((w) => w.tool_name === "post_things")!;
    expect(row.unconfirmed?.map((u) => [u.field, u.kind])).toEqual([
      ["name", "default"],
      ["note", "default"],
      ["due", "default"],
      ["tags", "default"],
      ["open", "default"],
    ]);
    expect(row.unconfirmed?.find((u) => u.field === "due")?.explain).toBe(
      "a request without /due gets null: no recorded create left it out",
    );
  });

  it("is the recorded value, not labelled, where a recorded create left it out", () => {
    const bare = { id: 3, name: "1.2", note: "", due: null, tags: [], open: true, owner: { id: 1 } };
    const { learned, body } = createdByName(
      specs([
        { method: "POST", path: "/api/things", status: 201, req: { name: "1.2" }, res: bare },
        { path: "/api/things/3", status: 200, res: bare },
      ]),
    );
    // The recording shows `open: true` for a create that left it out: that, never the documented false.
    expect(body).toMatchObject({ id: 4, note: "", due: null, tags: [], open: true });
    const row = learned.coverage.writes.served.find((w) => w.tool_name === "post_things")!;
    // Only `name`, which every create sent, stays the documented rule's.
    expect(row.unconfirmed?.map((u) => u.field)).toEqual(["name"]);
  });

  it("is no default where the creates that left it out got different values, nor a guess where an entity lacked it", () => {
    const a = { id: 3, name: "1.2", note: "", due: null, tags: [], open: true, owner: { id: 1 } };
    const b = { id: 4, name: "1.3", note: "", due: null, tags: [], open: false, owner: { id: 1 } };
    const { learned } = createdByName(
      specs([
        { method: "POST", path: "/api/things", status: 201, req: { name: "1.2" }, res: a },
        { path: "/api/things/3", status: 200, res: a },
        { method: "POST", path: "/api/things", status: 201, req: { name: "1.3" }, res: b },
        { path: "/api/things/4", status: 200, res: b },
      ]),
    );
    const rule = learned.model.write_rules.find((r) => r.tool_name === "post_things");
    // `open` differed once between two creates that left it out: no rule fits it, the create is withheld.
    expect(rule).toBeUndefined();
    expect(learned.coverage.writes.withheld.map((w) => w.tool_name)).toContain("post_things");
    // An entity lacking `due` shows the app drops it when unset: left out, not guessed.
    const { due: _, ...noDue } = seeded;
    const dropped = createdByName([list([noDue]), ...specs().slice(1)]);
    expect(dropped.body).not.toHaveProperty("due");
    expect(dropped.body).toMatchObject({ note: "", tags: [], open: false });
  });

  it("is no guess for a kind of field the app dropped when a create left it unset, in any collection", () => {
    // A note created without `text` lacks it where another note holds one: this app drops unset texts (and flags,
    // numbers: scalars), so `note` and `due` of things stay left out; lists and objects it never showed dropped.
    const drop: RecordSpec[] = [
      { path: "/api/notes", status: 200, res: [{ id: 1, text: "hi" }] },
      { method: "POST", path: "/api/notes", status: 201, req: {}, res: { id: 2 } },
      { path: "/api/notes/2", status: 200, res: { id: 2 } },
    ];
    const { body } = createdByName([...specs(), ...drop]);
    expect(body).not.toHaveProperty("note");
    expect(body).not.toHaveProperty("due");
    expect(body).not.toHaveProperty("open");
    expect(body).toMatchObject({ id: 3, name: "2.0", tags: [] });
  });
});
