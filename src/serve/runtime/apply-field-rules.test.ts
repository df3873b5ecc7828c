/** Field rules evaluated into an entity: the clock as the app writes it, objects, arrays, formats, copies. */
import { describe, expect, it } from "vitest";
import type { Entity, FieldEntry, FieldRule, Model } from "../../model/model-schema.js";
import { applyFieldRules, formatClock, type RuleContext } from "./apply-field-rules.js";
import { createEpisode } from "./create-episode.js";
import type { Episode } from "./twin-types.js";

describe("formatClock", () => {
  const ms = Date.UTC(2026, 11, 1, 8, 9, 8, 441);
  it("writes every clock format the model knows", () => {
    expect(formatClock(ms, { format: "iso" })).toBe("2026-12-01T08:09:08.441Z");
    expect(formatClock(ms, { format: "iso", layout: "YYYY-MM-DDTHH:mm:ss" })).toBe("2026-12-01T08:09:08");
    expect(formatClock(ms, { format: "iso", layout: "YYYY-MM-DD HH:mm:ss", offset_min: 120 })).toBe(
      "2026-12-01 10:09:08",
    );
    expect(formatClock(ms, { format: "iso", layout: "YYYY-MM-DDTHH:mm:ss.SSSSSSZ" })).toBe(
      "2026-12-01T08:09:08.441000Z",
    );
    expect(formatClock(ms, { format: "date" })).toBe("2026-12-01");
    expect(formatClock(ms, { format: "epoch_ms" })).toBe(ms);
    expect(formatClock(ms, { format: "epoch_s" })).toBe(Math.floor(ms / 1000));
  });
});

describe("applyFieldRules", () => {
  const model: Model = {
    schema_version: 1,
    app_origin: "http://127.0.0.1:4010",
    endpoints: [],
    collections: [],
    write_rules: [],
    replays: [],
    clock: { last_time_ms: Date.UTC(2026, 11, 1, 8, 9, 8), step_ms: 1000 },
    id_sequences: { cats: 9 },
  };
  const episode = (): Episode => createEpisode(model, { collections: {} }, { episodeId: "t" });
  const ctx = (body: unknown, old: Entity | null = null): RuleContext => ({
    episode: episode(),
    collection: "tags",
    body: { kind: "json", value: body },
    params: { id: "9" },
    old,
  });
  const fr = (pointer: string): FieldRule => ({ kind: "from_request", pointer, otherwise: { kind: "keep" } });

  it("builds objects and arrays part by part, and strings from the entity's values once they are known", () => {
    const fields: FieldEntry[] = [
      { field: "id", rule: { kind: "id_sequence", start: 1, step: 1, sequence: "cats" } },
      { field: "title", rule: { kind: "object", fields: [{ field: "raw", rule: fr("/post/title") }] } },
      {
        field: "links",
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
                    parts: [{ text: "/tags/" }, { entity: "/id" }],
                    otherwise: { kind: "omit" },
                  },
                },
              ],
            },
          ],
        },
      },
      {
        field: "slug",
        rule: {
          kind: "format",
          parts: [{ request: "/post/title", transform: "slug" }],
          otherwise: { kind: "omit" },
        },
      },
      { field: "label", rule: { kind: "copy", from: "title", pointer: "/title/raw" } },
      { field: "password", rule: { kind: "redacted", marker: "[REDACTED:field:password]" } },
    ];
    const c = ctx({ post: { title: "Big News!" } });
    expect(applyFieldRules(fields, c, false)).toEqual({
      id: 9,
      title: { raw: "Big News!" },
      links: [{ href: "/tags/9" }],
      slug: "big-news",
      label: "Big News!",
      password: "[REDACTED:field:password]",
    });
    expect(c.episode.id_sequences).toEqual({ cats: 10 });
  });

  it("keeps, increments, and falls back when the request lacks what a format reads", () => {
    const old = { id: 9, title: { raw: "A", rendered: "A" }, revisions: 2, slug: "a" };
    const fields: FieldEntry[] = [
      {
        field: "title",
        rule: {
          kind: "object",
          fields: [
            { field: "raw", rule: fr("/title") },
            { field: "rendered", rule: fr("/title") },
          ],
        },
      },
      { field: "revisions", rule: { kind: "increment", step: 1 } },
      {
        field: "slug",
        rule: {
          kind: "format",
          parts: [{ request: "/title", transform: "slug" }],
          otherwise: { kind: "keep" },
        },
      },
    ];
    expect(applyFieldRules(fields, ctx({ other: 1 }, old), true)).toEqual({
      id: 9,
      title: { raw: "A", rendered: "A" },
      revisions: 3,
      slug: "a",
    });
  });

  it("puts an affix before or after the old text, and leaves the field out when the old value is no text", () => {
    const fields: FieldEntry[] = [
      { field: "slug", rule: { kind: "affix", prefix: "", suffix: "__trashed" } },
      { field: "name", rule: { kind: "affix", prefix: "old-", suffix: "" } },
      { field: "rank", rule: { kind: "affix", prefix: "", suffix: "!" } },
    ];
    expect(applyFieldRules(fields, ctx({}, { id: 9, slug: "contact", name: "n", rank: 3 }), true)).toEqual({
      id: 9,
      slug: "contact__trashed",
      name: "old-n",
    });
  });

  it("leaves out copies that go round in a circle rather than loop", () => {
    const fields: FieldEntry[] = [
      { field: "a", rule: { kind: "copy", from: "b" } },
      { field: "b", rule: { kind: "copy", from: "a" } },
      { field: "c", rule: { kind: "constant", value: 1 } },
    ];
    expect(applyFieldRules(fields, ctx({}), false)).toEqual({ c: 1 });
  });
});
