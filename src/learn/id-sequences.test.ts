/** Where id sequences continue: after nested values drawn from them, and across two collections that share one. */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, twinRequest } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";
import { reusePolicy, sharedSequenceJoins } from "./id-sequences.js";

const get = (path: string, res: unknown): RecordSpec => ({ path, status: 200, res });
const post = (path: string, req: unknown, res: unknown): RecordSpec => ({
  method: "POST",
  path,
  status: 201,
  req,
  res,
});

describe("id sequences", () => {
  it("learns a shared sequence from creates that take the other collection's highest + 1", () => {
    const cats = [
      { id: 1, name: "a" },
      { id: 3, name: "b" },
    ];
    const tags = [{ id: 5, name: "x" }];
    const { model } = learnSpecs([
      get("/api/cats", cats),
      get("/api/tags", tags),
      post("/api/cats", { name: "c" }, { id: 6, name: "c" }),
      get("/api/cats", [...cats, { id: 6, name: "c" }]),
      post("/api/tags", { name: "y" }, { id: 7, name: "y" }),
      get("/api/tags", [...tags, { id: 7, name: "y" }]),
      post("/api/tags", { name: "z" }, { id: 8, name: "z" }),
      get("/api/tags", [...tags, { id: 7, name: "y" }, { id: 8, name: "z" }]),
    ]);
    const idRule = (tool: string) =>
      model.write_rules.find((r) => r.tool_name === tool)!.fields.find((f) => f.field === "id")!.rule;
    expect(idRule("post_cats")).toEqual({ kind: "id_sequence", start: 9, step: 1, sequence: "cats" });
    expect(idRule("post_tags")).toEqual({ kind: "id_sequence", start: 9, step: 1, sequence: "cats" });
    expect(model.id_sequences).toEqual({ cats: 9, tags: 9 });
    expect(model.write_rules.find((r) => r.tool_name === "post_tags")!.explain).toContain(
      "id: the next integer id of the cats sequence (from 9, step 1), after the highest ever seen",
    );
  });

  it("keeps each collection's own sequence when no create proves they share one", () => {
    const { model } = learnSpecs([
      get("/api/cats", [{ id: 1, name: "a" }]),
      get("/api/tags", [{ id: 5, name: "x" }]),
      post("/api/cats", { name: "c" }, { id: 2, name: "c" }),
      get("/api/cats", [
        { id: 1, name: "a" },
        { id: 2, name: "c" },
      ]),
      post("/api/tags", { name: "y" }, { id: 6, name: "y" }),
      get("/api/tags", [
        { id: 5, name: "x" },
        { id: 6, name: "y" },
      ]),
    ]);
    expect(model.write_rules.map((r) => r.fields.find((f) => f.field === "id")!.rule)).toEqual([
      { kind: "id_sequence", start: 3, step: 1 },
      { kind: "id_sequence", start: 7, step: 1 },
    ]);
  });

  it("a collection whose own creates never proved the sharing joins the sequence another's create proved", () => {
    // Posts draw 11 (the seed hid what consumed 6-10: the counter's first draw), then 12; the first block is 13, one
    // past the posts' highest while blocks held none: one counter. Posts' own rule would say 13 next, wrongly.
    const { model } = learnSpecs([
      get("/api/posts", [{ id: 5, name: "a" }]),
      get("/api/blocks", []),
      post("/api/posts", { name: "b" }, { id: 11, name: "b" }),
      post("/api/posts", { name: "c" }, { id: 12, name: "c" }),
      get("/api/posts", [
        { id: 5, name: "a" },
        { id: 11, name: "b" },
        { id: 12, name: "c" },
      ]),
      post("/api/blocks", { name: "x" }, { id: 13, name: "x" }),
      post("/api/blocks", { name: "y" }, { id: 14, name: "y" }),
      get("/api/blocks", [
        { id: 13, name: "x" },
        { id: 14, name: "y" },
      ]),
    ]);
    const idRule = (tool: string) =>
      model.write_rules.find((r) => r.tool_name === tool)!.fields.find((f) => f.field === "id")!.rule;
    expect(idRule("post_blocks")).toEqual({ kind: "id_sequence", start: 15, step: 1, sequence: "blocks" });
    expect(idRule("post_posts")).toEqual({ kind: "id_sequence", start: 15, step: 1, sequence: "blocks" });
  });

  it("refuses the join when a later create of the partner skipped ids the one counter would have given", () => {
    const { model } = learnSpecs([
      get("/api/posts", [{ id: 5, name: "a" }]),
      get("/api/blocks", []),
      post("/api/posts", { name: "b" }, { id: 6, name: "b" }),
      // 7-9 consumed by nothing recorded: the one counter would have given 7.
      post("/api/posts", { name: "c" }, { id: 10, name: "c" }),
      get("/api/posts", [
        { id: 5, name: "a" },
        { id: 6, name: "b" },
        { id: 10, name: "c" },
      ]),
      post("/api/blocks", { name: "x" }, { id: 11, name: "x" }),
      get("/api/blocks", [{ id: 11, name: "x" }]),
    ]);
    const idRule = (tool: string) =>
      model.write_rules.find((r) => r.tool_name === tool)!.fields.find((f) => f.field === "id")!.rule;
    expect(idRule("post_blocks")).toMatchObject({ kind: "id_sequence", sequence: "blocks" });
    expect(idRule("post_posts")).toEqual({ kind: "id_sequence", start: 11, step: 1 });
  });

  it("joins only partners every create of which the one counter gives (sharedSequenceJoins)", () => {
    const draw = (collection: string, id: number, own: number | null, others: [string, number][]) => ({
      collection,
      id: String(id),
      maxIntBefore: own,
      otherMaxBefore: new Map(others),
    });
    const proved = new Map([["blocks", "blocks"]]);
    // Posts 11 (first draw, start hidden), 12; blocks 13 = posts' highest + 1: posts join.
    expect(
      sharedSequenceJoins(
        [draw("posts", 11, 5, []), draw("posts", 12, 11, []), draw("blocks", 13, null, [["posts", 12]])],
        proved,
      ),
    ).toEqual(new Map([["posts", "blocks"]]));
    // A post after the block that skipped an id (15, not 14): nothing the twin models consumed 14; refused.
    expect(
      sharedSequenceJoins(
        [
          draw("posts", 11, 5, []),
          draw("blocks", 12, null, [["posts", 11]]),
          draw("posts", 15, 11, [["blocks", 12]]),
        ],
        proved,
      ),
    ).toEqual(new Map());
    // No create proved a sharing: nothing joins.
    expect(sharedSequenceJoins([draw("posts", 11, 5, [])], new Map())).toEqual(new Map());
  });

  it("continues a sequence after the nested ids an update drew from it (a revision)", () => {
    const post1 = { id: 11, title: "A", latest: [] as unknown[] };
    const patched = { ...post1, title: "B", latest: [{ id: 12 }] };
    const { model } = learnSpecs([
      get("/api/posts", [post1]),
      { method: "PATCH", path: "/api/posts/11", status: 200, req: { title: "B" }, res: patched },
      get("/api/posts/11", patched),
      post("/api/posts", { title: "C" }, { id: 13, title: "C", latest: [] }),
      get("/api/posts/13", { id: 13, title: "C", latest: [] }),
    ]);
    const patch = model.write_rules.find((r) => r.tool_name === "patch_posts_by_id")!;
    expect(patch.fields.find((f) => f.field === "latest")!.rule).toEqual({
      kind: "array",
      items: [
        { kind: "object", fields: [{ field: "id", rule: { kind: "id_sequence", start: 14, step: 1 } }] },
      ],
    });
    expect(model.id_sequences).toEqual({ posts: 14 });
  });

  describe("an id freed by deleting the highest entity", () => {
    const a = { id: 1, name: "a" };
    const b = { id: 2, name: "b" };
    /** Two things, a create of 3, its delete (read back 404), and a create answered `again`. */
    const specs = (again: number): RecordSpec[] => [
      get("/api/things", [a, b]),
      post("/api/things", { name: "c" }, { id: 3, name: "c" }),
      get("/api/things/3", { id: 3, name: "c" }),
      { method: "DELETE", path: "/api/things/3", status: 204 },
      { path: "/api/things/3", status: 404, res: { error: "not found" } },
      post("/api/things", { name: "d" }, { id: again, name: "d" }),
      get("/api/things", [a, b, { id: again, name: "d" }]),
    ];
    const idRule = (s: RecordSpec[]) =>
      learnSpecs(s).model.write_rules.find((r) => r.tool_name === "post_things")!.fields[0]!.rule;

    it("is given again where a create showed the app reusing it (the highest present + 1, 1 of none), and served so", () => {
      const { model, seed } = learnSpecs(specs(3));
      expect(model.write_rules.find((r) => r.tool_name === "post_things")!.fields[0]!.rule).toEqual({
        kind: "id_sequence",
        start: 1,
        step: 1,
        after: "present",
      });
      const ep = createEpisode(model, seed, { episodeId: "r" });
      const send = (method: string, path: string, value?: unknown) =>
        handleRequest(model, ep, {
          method,
          path,
          query: [],
          headers: {},
          body: value === undefined ? null : { kind: "json", value },
        });
      expect(send("POST", "/api/things", { name: "e" }).body).toEqual({
        kind: "json",
        value: { id: 4, name: "e" },
      });
      send("DELETE", "/api/things/4");
      expect(send("POST", "/api/things", { name: "f" }).body).toEqual({
        kind: "json",
        value: { id: 4, name: "f" },
      });
    });

    it("is never given again where the app skipped it, nor where no create followed a delete of the highest", () => {
      expect(idRule(specs(4))).toEqual({ kind: "id_sequence", start: 5, step: 1 });
      expect(idRule(specs(3).slice(0, 3))).toEqual({ kind: "id_sequence", start: 4, step: 1 });
    });

    it("is said undecided where the twin serves a delete but no create followed one of the highest", () => {
      // Create 3, delete 1 (not the highest): every create fits both readings, and the twin can free the highest.
      const undecided: RecordSpec[] = [
        ...specs(3).slice(0, 3),
        { method: "DELETE", path: "/api/things/1", status: 204 },
        { path: "/api/things/1", status: 404, res: { error: "not found" } },
        get("/api/things", [b, { id: 3, name: "c" }]),
      ];
      const { model } = learnSpecs(undecided);
      const rule = model.write_rules.find((r) => r.tool_name === "post_things")!;
      expect(rule.fields[0]!.rule).toEqual({ kind: "id_sequence", start: 4, step: 1, freed: "undecided" });
      expect(rule.explain).toContain(
        "id: the next integer id (from 4, step 1), after the highest ever seen (undecided: the recording never showed a create after the highest was deleted, which would tell whether the app gives that id again; taken: never)",
      );
    });
  });

  describe("one app's decision on a freed highest id, applied to the collections that never showed it", () => {
    const a = { id: 1, name: "a" };
    const b = { id: 2, name: "b" };
    const n1 = { id: 1, text: "x" };
    /** Things decide (a create after their highest was deleted gets `again`); notes only create and delete. */
    const specs = (again: number | null): RecordSpec[] => [
      get("/api/things", [a, b]),
      post("/api/things", { name: "c" }, { id: 3, name: "c" }),
      get("/api/things/3", { id: 3, name: "c" }),
      { method: "DELETE", path: "/api/things/3", status: 204 },
      { path: "/api/things/3", status: 404, res: { error: "not found" } },
      ...(again === null
        ? []
        : [
            post("/api/things", { name: "d" }, { id: again, name: "d" }),
            get("/api/things", [a, b, { id: again, name: "d" }]),
          ]),
      get("/api/notes", [n1]),
      post("/api/notes", { text: "y" }, { id: 2, text: "y" }),
      get("/api/notes/2", { id: 2, text: "y" }),
      { method: "DELETE", path: "/api/notes/1", status: 204 },
      { path: "/api/notes/1", status: 404, res: { error: "not found" } },
      get("/api/notes", [{ id: 2, text: "y" }]),
    ];
    const learnedNotes = (again: number | null) => {
      const learned = learnSpecs(specs(again));
      const rule = learned.model.write_rules.find((r) => r.tool_name === "post_notes")!;
      return { learned, rule, id: rule.fields.find((f) => f.field === "id")!.rule };
    };

    it("decides reuse_highest or monotonic only from creates after a delete of the highest, and only when they agree", () => {
      const c = (collection: string, id: string, maxIntBefore: number, maxPresentBefore: number | null) => ({
        collection,
        id,
        maxIntBefore,
        maxPresentBefore,
      });
      expect(reusePolicy([c("things", "3", 3, 2), c("notes", "9", 8, 8)])).toEqual({
        policy: "reuse_highest",
        from: ["things"],
      });
      expect(reusePolicy([c("things", "4", 3, 2)])).toEqual({ policy: "monotonic", from: ["things"] });
      // Rightly undecided: no create followed a delete of the highest, or two collections disagree.
      expect(reusePolicy([c("things", "3", 2, 2)])).toBeNull();
      expect(reusePolicy([c("things", "3", 3, 2), c("notes", "4", 3, 2)])).toBeNull();
    });

    it("gives a note the freed id again, inferred from things, labelled so in the rule and coverage", () => {
      const { learned, rule, id } = learnedNotes(3);
      expect(id).toEqual({
        kind: "id_sequence",
        start: 1,
        step: 1,
        after: "present",
        freed: "inferred",
        inferred_from: ["things"],
      });
      expect(rule.explain).toContain(
        "id: the highest integer id present + 1 (an id freed by deleting the highest is given again) (inferred: this collection never showed a create after its highest was deleted; things did, and one app numbers its collections alike)",
      );
      const row = learned.coverage.writes.served.find((w) => w.tool_name === "post_notes")!;
      expect(row.unconfirmed).toEqual([
        {
          field: "id",
          kind: "id_reuse",
          explain:
            "inferred: after the highest entity is deleted, the next create's id is the freed one, as things showed; this collection never did",
        },
        ...(row.unconfirmed ?? []).filter((u) => u.kind !== "id_reuse"),
      ]);
      const ep = createEpisode(learned.model, learned.seed, { episodeId: "i" });
      handleRequest(learned.model, ep, twinRequest("DELETE", "/api/notes/2"));
      const made = handleRequest(learned.model, ep, twinRequest("POST", "/api/notes", { text: "z" }));
      expect(made.body).toEqual({ kind: "json", value: { id: 1, text: "z" } });
      expect(made.headers["x-apptwin-warning"]).toBeUndefined();
      // The things that decided it keep their own rule, unlabelled.
      const things = learned.model.write_rules.find((r) => r.tool_name === "post_things")!;
      expect(things.fields[0]!.rule).toEqual({ kind: "id_sequence", start: 1, step: 1, after: "present" });
    });

    it("never gives a note a freed id where things showed the app skipping it, inferred too", () => {
      const { id } = learnedNotes(4);
      expect(id).toEqual({
        kind: "id_sequence",
        start: 3,
        step: 1,
        freed: "inferred",
        inferred_from: ["things"],
      });
    });

    it("claims no policy where no collection decided: served monotonic, the answer past a freed id warns", () => {
      const { learned, id } = learnedNotes(null);
      expect(id).toEqual({ kind: "id_sequence", start: 3, step: 1, freed: "undecided" });
      const ep = createEpisode(learned.model, learned.seed, { episodeId: "u" });
      // The highest note present is 2 and nothing was freed above it: no guess to warn of.
      const first = handleRequest(learned.model, ep, twinRequest("POST", "/api/notes", { text: "z" }));
      expect([first.body, first.headers["x-apptwin-warning"]]).toEqual([
        { kind: "json", value: { id: 3, text: "z" } },
        undefined,
      ]);
      handleRequest(learned.model, ep, twinRequest("DELETE", "/api/notes/3"));
      const next = handleRequest(learned.model, ep, twinRequest("POST", "/api/notes", { text: "w" }));
      expect(next.body).toEqual({ kind: "json", value: { id: 4, text: "w" } });
      expect(next.headers["x-apptwin-warning"]).toBe(
        "id 4 is the twin's guess: the highest entity was deleted and the recording never showed whether the app gives its freed id (3) again; the twin never does",
      );
    });
  });
});
