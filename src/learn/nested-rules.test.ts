/**
 * Rules inside objects and strings: a value explained key by key, a string assembled from the values a write
 * knows (`format`, with slugs), a nested request pointer, the old value plus one, a recorded redaction, a copy of a
 * nested value — each learned only where every observation agrees, and refused where one does not.
 */
import { describe, expect, it } from "vitest";
import { fieldsOf, learnSpecs, list } from "../../test/support/learn-specs.js";

const HOST = "http://127.0.0.1:4010";
/** A post as the app stores it: the title object, a link holding the id, a slug of the title. */
const post = (id: number, title: string) => ({
  id,
  title: { rendered: title },
  link: `${HOST}/?p=${id}`,
  slug: title.toLowerCase().replace(/[^a-z0-9]+/g, "-"),
  _links: { self: [{ href: `${HOST}/api/posts/${id}` }], collection: [{ href: `${HOST}/api/posts` }] },
});
const posts = (seed: unknown[], ...made: unknown[]) => ({
  path: "/api/posts",
  status: 200,
  res: [...seed, ...made],
});
const create = (title: string, res: unknown) => ({
  method: "POST",
  path: "/api/posts",
  status: 201,
  req: { title },
  res,
});

describe("rules inside objects and strings", () => {
  const seed = [post(1, "Hello")];

  it("explains an object key by key and assembles strings from the new id and the sent title", () => {
    const fields = fieldsOf(
      [posts(seed), create("Big news", post(2, "Big news")), posts(seed, post(2, "Big news"))],
      "post_posts",
    );
    expect(fields.title).toEqual({
      kind: "object",
      fields: [
        { field: "rendered", rule: { kind: "from_request", pointer: "/title", otherwise: { kind: "omit" } } },
      ],
    });
    expect(fields.link).toEqual({
      kind: "format",
      parts: [{ text: `${HOST}/?p=` }, { entity: "/id" }],
      otherwise: { kind: "omit" },
    });
    expect(fields.slug).toEqual({
      kind: "format",
      parts: [{ request: "/title", transform: "slug" }],
      otherwise: { kind: "constant", value: null, default: "unconfirmed" },
    });
    expect(fields._links).toEqual({
      kind: "object",
      fields: [
        {
          field: "self",
          rule: {
            kind: "array",
            items: [
              {
                kind: "object",
                fields: [
                  {
                    field: "href",
                    rule: {
                      kind: "format",
                      parts: [{ text: `${HOST}/api/posts/` }, { entity: "/id" }],
                      otherwise: { kind: "omit" },
                    },
                  },
                ],
              },
            ],
          },
        },
        { field: "collection", rule: { kind: "constant", value: [{ href: `${HOST}/api/posts` }] } },
      ],
    });
  });

  it("refuses a format the observations disagree on, naming the nested field", () => {
    const odd = { ...post(3, "Other"), link: `${HOST}/other/3` };
    const { coverage } = learnSpecs([
      posts(seed),
      create("Big news", post(2, "Big news")),
      create("Other", odd),
      posts(seed, post(2, "Big news"), odd),
    ]);
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason, w.hint])).toEqual([
      [
        "post_posts",
        "conflicting_observations",
        'Observations of POST /api/posts disagree on "link"; record the write again, each followed by a GET /api/posts',
      ],
    ]);
  });

  it("takes a field from a nested request pointer", () => {
    const issue = (id: number, subject: string) => ({ id, subject });
    const fields = fieldsOf(
      [
        { path: "/api/issues", status: 200, res: [issue(1, "A")] },
        {
          method: "POST",
          path: "/api/issues",
          status: 201,
          req: { issue: { subject: "B" } },
          res: issue(2, "B"),
        },
        { path: "/api/issues", status: 200, res: [issue(1, "A"), issue(2, "B")] },
      ],
      "post_issues",
    );
    expect(fields.subject).toEqual({
      kind: "from_request",
      pointer: "/issue/subject",
      otherwise: { kind: "constant", value: null, default: "unconfirmed" },
    });
  });

  it("learns the old value plus one, a recorded redaction kept, and nested fields from the request on an update", () => {
    const before = {
      id: 5,
      title: { raw: "A", rendered: "A" },
      revisions: 0,
      secret: "[REDACTED:field:secret]",
    };
    const after = { ...before, title: { raw: "B", rendered: "B" }, revisions: 1 };
    const fields = fieldsOf(
      [
        list([before]),
        { method: "PATCH", path: "/api/things/5", status: 200, req: { name: "B" }, res: after },
        { path: "/api/things/5", status: 200, res: after },
      ],
      "patch_things_by_id",
    );
    expect(fields.title).toEqual({
      kind: "object",
      fields: [
        { field: "raw", rule: { kind: "from_request", pointer: "/name", otherwise: { kind: "keep" } } },
        { field: "rendered", rule: { kind: "from_request", pointer: "/name", otherwise: { kind: "keep" } } },
      ],
    });
    expect(fields.revisions).toEqual({ kind: "increment", step: 1 });
    expect(fields.secret).toEqual({ kind: "keep" });
  });

  it("answers a redacted value as its marker on a create, never as a constant guess", () => {
    const made = { id: 2, title: "B", password: "[REDACTED:field:password]" };
    const fields = fieldsOf(
      [
        list([{ id: 1, title: "A" }]),
        { method: "POST", path: "/api/things", status: 201, req: { title: "B" }, res: made },
        list([{ id: 1, title: "A" }, made]),
      ],
      "post_things",
    );
    expect(fields.password).toEqual({ kind: "redacted", marker: "[REDACTED:field:password]" });
  });

  it("copies a fresh value an earlier field drew (one UUID, not two), and only from before it", () => {
    const u = (n: number) => `7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4${n}`;
    const made = (id: number) => ({ id, key: u(id), ref: { key: u(id) } });
    const fields = fieldsOf(
      [
        list([]),
        { method: "POST", path: "/api/things", status: 201, req: { n: 1 }, res: made(2) },
        { method: "POST", path: "/api/things", status: 201, req: { n: 1 }, res: made(3) },
        list([made(2), made(3)]),
      ],
      "post_things",
    );
    expect(fields.key).toEqual({ kind: "uuid" });
    expect(fields.ref).toEqual({
      kind: "object",
      fields: [{ field: "key", rule: { kind: "copy", from: "key" } }],
    });
  });
});
