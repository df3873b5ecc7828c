/**
 * The signed-in identity: a literal in a collection's item slot (`/api/users/me`) answering one of its entities.
 * A created field holding its id, in a create that also wrote the signed-in entity's name, is the session's
 * constant, not a counter that merely fits; refused where nothing shows the session or the value differs from it.
 */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const users = [
  { id: 1, name: "admin" },
  { id: 2, name: "editor" },
];
const seedComment = { id: 1, post: 4, author: 0, author_name: "Guest", text: "first" };
const comment = (id: number, author: number, author_name: string, text: string) => ({
  id,
  post: 4,
  author,
  author_name,
  text,
});

/** Users read, the signed-in one read at `me` (when given), a comment list, one create and its read-back. */
const specs = (me: unknown, made: ReturnType<typeof comment>): RecordSpec[] => [
  { path: "/api/users", status: 200, res: users },
  { path: "/api/users/2", status: 200, res: users[1] },
  ...(me === undefined ? [] : [{ path: "/api/users/me", status: 200, res: me }]),
  { path: "/api/comments", status: 200, res: [seedComment] },
  { method: "POST", path: "/api/comments", status: 201, req: { post: 4, text: made.text }, res: made },
  { path: "/api/comments", status: 200, res: [seedComment, made] },
];

describe("the signed-in identity", () => {
  it("makes a created field holding the signed-in user's id a constant, and serves the create", () => {
    const { model, seed, coverage } = learnSpecs(specs(users[0], comment(2, 1, "admin", "second")));
    expect(coverage.writes.withheld).toEqual([]);
    const rule = model.write_rules.find((r) => r.tool_name === "post_comments")!;
    expect(rule.fields.find((f) => f.field === "author")?.rule).toEqual({ kind: "constant", value: 1 });
    const ep = createEpisode(model, seed, { episodeId: "s" });
    const made = handleRequest(model, ep, {
      method: "POST",
      path: "/api/comments",
      query: [],
      headers: {},
      body: { kind: "json", value: { post: 4, text: "third" } },
    });
    expect(made.body).toEqual({ kind: "json", value: comment(3, 1, "admin", "third") });
  });

  it("is refused with no read of the signed-in entity: the only create stays a counter or a constant", () => {
    const { coverage } = learnSpecs(specs(undefined, comment(2, 1, "admin", "second")));
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason, w.closable])).toEqual([
      ["post_comments", "unexplained_field", true],
    ]);
  });

  it("is refused where the create wrote nothing else of the signed-in entity (the 1 may be a counter's)", () => {
    const { coverage } = learnSpecs(specs(users[0], comment(2, 1, "Guest", "second")));
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason])).toEqual([
      ["post_comments", "unexplained_field"],
    ]);
  });
});
