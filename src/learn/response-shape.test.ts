/** What served writes answer: views of the entity, the entity under a key with fixed siblings, and refusals. */
import { describe, expect, it } from "vitest";
import { learnResponse } from "./response-shape.js";

const entity = { id: 2, title: "B", secret: "s", meta: { a: 1, b: 2 } };

describe("learnResponse", () => {
  it("answers the whole entity, or a view leaving out what the answer never shows", () => {
    expect(learnResponse([{ body: entity, entity }])).toEqual({ ok: true, response: { kind: "entity" } });
    expect(learnResponse([{ body: { id: 2 }, entity }])).toEqual({
      ok: true,
      response: { kind: "entity", omit: ["/meta", "/secret", "/title"] },
    });
    expect(learnResponse([{ body: { id: 2, title: "B", meta: { a: 1 } }, entity }])).toEqual({
      ok: true,
      response: { kind: "entity", omit: ["/meta/b", "/secret"] },
    });
  });

  it("answers the entity alone in an array (`[row]`), never an array of another length", () => {
    expect(learnResponse([{ body: [entity], entity }])).toEqual({ ok: true, response: { kind: "rows" } });
    expect(learnResponse([{ body: [{ id: 2, title: "B" }], entity }])).toEqual({
      ok: true,
      response: { kind: "rows", omit: ["/meta", "/secret"] },
    });
    // Two rows for one written entity, or a row of another entity: no rule explains them.
    expect(learnResponse([{ body: [entity, entity], entity }]).ok).toBe(false);
    expect(learnResponse([{ body: [{ ...entity, id: 3 }], entity }]).ok).toBe(false);
  });

  it("answers one scalar every answer gave alike, never one a field of the entity holds", () => {
    expect(
      learnResponse([
        { body: 1, entity },
        { body: 1, entity: { ...entity, id: 3 } },
      ]),
    ).toEqual({
      ok: true,
      response: { kind: "template", body: 1, fields: [] },
    });
    // `2` is the entity's id: a copy of it and a constant both fit one answer. Two answers that differ fit neither.
    expect(learnResponse([{ body: 2, entity }]).ok).toBe(false);
    expect(
      learnResponse([
        { body: 1, entity },
        { body: 0, entity: { ...entity, id: 3 } },
      ]).ok,
    ).toBe(false);
  });

  it("answers the entity under one key, alone or beside fixed siblings", () => {
    expect(learnResponse([{ body: { data: entity }, entity }])).toEqual({
      ok: true,
      response: { kind: "wrapped", key: "data" },
    });
    expect(learnResponse([{ body: { deleted: true, previous: { id: 2, title: "B" } }, entity }])).toEqual({
      ok: true,
      response: {
        kind: "template",
        body: { deleted: true, previous: null },
        fields: [],
        entity_key: "previous",
        omit: ["/meta", "/secret"],
      },
    });
  });

  it("refuses a view two answers disagree on, and a sibling that changes", () => {
    const other = { ...entity, id: 3 };
    // One answer shows `title`, the other leaves it out: no one view holds.
    expect(
      learnResponse([
        { body: { id: 2, title: "B" }, entity },
        { body: { id: 3 }, entity: other },
      ]),
    ).toEqual({ ok: false, field: "title" });
    expect(
      learnResponse([
        { body: { data: entity, meta: { n: 1 } }, entity },
        { body: { data: other, meta: { n: 2 } }, entity: other },
      ]),
    ).toEqual({ ok: false, field: "data" });
  });
});
