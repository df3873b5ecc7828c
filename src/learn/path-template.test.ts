/** Properties of path templating: ids of every kind collapse, constant segments never do, order does not matter. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildTemplater } from "./path-template.js";
import { toolName } from "./tool-name.js";

const hex = (n: number) =>
  fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: n, maxLength: n });
const ULID_CHARS = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const idArb = fc.oneof(
  fc.integer({ min: 0, max: 1e9 }).map(String),
  fc.uuid(),
  hex(24),
  fc
    .tuple(
      fc.constantFrom(..."01234567"),
      fc.string({ unit: fc.constantFrom(...ULID_CHARS), minLength: 25, maxLength: 25 }),
    )
    .map(([a, b]) => a + b),
);
const CONSTANT = ["api", "v1", "v2", "2026-03-01", "2026-03"];

function templates(paths: string[][]): string[] {
  const t = buildTemplater(paths, new Set());
  return paths.map((p) => t(p).template);
}

describe("path templates", () => {
  it("collapses ids of every kind into one parameter", () => {
    fc.assert(
      fc.property(fc.array(idArb, { minLength: 1, maxLength: 8 }), (ids) => {
        const out = templates(ids.map((id) => ["api", "items", id]));
        expect(new Set(out)).toEqual(new Set(["/api/items/{id}"]));
      }),
    );
  });

  it("never turns api, versions or dates into parameters", () => {
    fc.assert(
      fc.property(fc.constantFrom(...CONSTANT), idArb, (seg, id) => {
        const [out] = templates([[seg, "things", id]]);
        expect(out).toBe(`/${seg}/things/{id}`);
      }),
    );
  });

  it("does not depend on the order of the records", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom("boards", "cards", "items"), idArb, fc.boolean()), {
          minLength: 1,
          maxLength: 10,
        }),
        fc.integer(),
        (rows, seed) => {
          const paths = rows.map(([c, id, nested]) => (nested ? ["api", c, id, "notes"] : ["api", c, id]));
          const shuffled = [...paths].sort(
            (a, b) => ((a.join("/").length * seed) % 7) - ((b.join("/").length * seed) % 7),
          );
          const t1 = buildTemplater(paths, new Set());
          const t2 = buildTemplater(shuffled, new Set());
          for (const p of paths) expect(t2(p)).toEqual(t1(p));
        },
      ),
    );
  });

  it("makes varying siblings parameters when their values are ids in bodies", () => {
    const t = buildTemplater(
      [
        ["api", "users", "alice"],
        ["api", "users", "bob"],
        ["api", "users", "search"],
      ],
      new Set(["alice", "bob"]),
    );
    expect(t(["api", "users", "alice"]).template).toBe("/api/users/{id}");
    expect(t(["api", "users", "search"]).template).toBe("/api/users/search");
  });

  it("names nested parameters after their parent and tools after the meaningful segments", () => {
    const t = buildTemplater(
      [
        ["api", "boards", "7", "cards", "9"],
        ["api", "boards", "7", "cards"],
      ],
      new Set(),
    );
    const item = t(["api", "boards", "7", "cards", "9"]);
    expect(item.template).toBe("/api/boards/{board_id}/cards/{id}");
    expect(toolName("GET", item.literals, item.params)).toBe("get_boards_cards_by_board_id_and_id");
    const list = t(["api", "boards", "7", "cards"]);
    expect(toolName("GET", list.literals, list.params)).toBe("get_boards_cards_by_board_id");
  });
});

describe("ids by role", () => {
  it("keeps a file-type suffix literal around an id (`/issues/{id}.json`), the tool named by the id", () => {
    const t = buildTemplater(
      [["issues.json"], ["issues", "1.json"], ["issues", "2.json"], ["issues", "7.xml"]],
      new Set(),
    );
    const item = t(["issues", "1.json"]);
    expect([item.template, item.suffixes]).toEqual(["/issues/{id}.json", [".json"]]);
    expect(t(["issues", "7.xml"]).template).toBe("/issues/{id}.xml");
    expect(t(["issues.json"]).template).toBe("/issues.json");
    expect(toolName("GET", item.literals, item.params)).toBe("get_issues_by_id");
    // A literal keeps its suffix: it may be part of the name (`notes.txt`), not a format.
    expect(toolName("GET", t(["issues.json"]).literals, [])).toBe("get_issues_json");
  });

  it("makes a segment read once a parameter when the list of its parent path shows an entity keyed by it", () => {
    const keysByList = new Map([["projects", new Set(["1", "website", "Website"])]]);
    const t = buildTemplater(
      [
        ["projects.json"],
        ["projects", "website.json"],
        ["projects", "website", "versions.json"],
        ["projects", "archived.json"],
      ],
      { idValues: new Set(), keysByList },
    );
    expect(t(["projects", "website.json"]).template).toBe("/projects/{id}.json");
    expect(t(["projects", "website", "versions.json"]).template).toBe("/projects/{project_id}/versions.json");
    // A value no listed entity holds stays a literal: the evidence names no entity by it.
    expect(
      buildTemplater([["projects", "archived.json"]], { idValues: new Set(), keysByList })([
        "projects",
        "archived.json",
      ]).template,
    ).toBe("/projects/archived.json");
  });
});
