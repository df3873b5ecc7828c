/** Formats whose literal text may be the value of the one entity every recorded create referenced. */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, twinRequest } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";
import { apiWords, withReferencedFormats } from "./referenced-formats.js";

const host = "http://127.0.0.1:4010";
const comment = (id: number, post: number, slug = "getting-started") => ({
  id,
  post,
  content: `c${id}`,
  link: `${host}/${slug}/#comment-${id}`,
  self: `${host}/api/comments/${id}`,
});
/** Comments on post 5 only, a create on it read back; the posts route exists, no read of it shows a post's link. */
const recording = (creates: { id: number; post: number; slug?: string }[]): RecordSpec[] => [
  { path: "/api/posts/5/revisions", status: 401, res: { error: "forbidden" } },
  { path: "/api/comments", status: 200, res: [comment(2, 5)] },
  ...creates.flatMap(({ id, post, slug }): RecordSpec[] => [
    {
      method: "POST",
      path: "/api/comments",
      status: 201,
      req: { post, content: `c${id}` },
      res: comment(id, post, slug),
    },
    { path: `/api/comments/${id}`, status: 200, res: comment(id, post, slug) },
  ]),
];

describe("formats a referenced entity may decide", () => {
  it("answers the recorded link for the recorded post, and an explained miss for another post", () => {
    const { model, seed } = learnSpecs(recording([{ id: 3, post: 5 }]));
    const rule = model.write_rules.find((r) => r.tool_name === "post_comments")!;
    const link = rule.fields.find((f) => f.field === "link")!.rule;
    expect(link).toMatchObject({ kind: "format", given: { pointer: "/post", values: ["5"], absent: false } });
    // The API's own route explains the self link's text: it holds for any post.
    expect(rule.fields.find((f) => f.field === "self")!.rule).not.toHaveProperty("given");
    expect(rule.explain).toContain(
      "where the request's /post is 5 as recorded (its text may be that entity's; another value there is an explained miss)",
    );
    const ep = createEpisode(model, seed, { episodeId: "links" });
    const same = handleRequest(model, ep, twinRequest("POST", "/api/comments", { post: 5, content: "x" }));
    expect(same.status).toBe(201);
    expect(same.body).toMatchObject({ kind: "json", value: { link: `${host}/getting-started/#comment-4` } });
    const other = handleRequest(model, ep, twinRequest("POST", "/api/comments", { post: 4, content: "y" }));
    expect(other.status).toBe(501);
    expect(other.body).toMatchObject({ kind: "json", value: { error: "unlearned_value", pointer: "/post" } });
  });

  it("rightly leaves the link unconditioned when creates on two posts recorded it alike", () => {
    const { model } = learnSpecs(
      recording([
        { id: 3, post: 5 },
        { id: 4, post: 6, slug: "getting-started" },
      ]),
    );
    const rule = model.write_rules.find((r) => r.tool_name === "post_comments")!;
    expect(rule.fields.find((f) => f.field === "link")!.rule).toMatchObject({ kind: "format" });
    expect(rule.fields.find((f) => f.field === "link")!.rule).not.toHaveProperty("given");
  });

  it("rightly conditions nothing when no request field names a collection of the API", () => {
    const known = apiWords(["/api/comments", "/api/comments/{id}"], host);
    const fields = withReferencedFormats(
      [
        {
          field: "link",
          rule: {
            kind: "format",
            parts: [{ text: "x/getting-started/" }, { entity: "/id" }],
            otherwise: { kind: "omit" },
          },
        },
      ],
      [{ post: 5 }],
      known,
    );
    expect(fields[0]!.rule).not.toHaveProperty("given");
  });
});
