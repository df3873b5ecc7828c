/** Properties of path templating: ids of every kind collapse, constant segments never do, order does not matter. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildTemplater, sameShape } from "./path-template.js";
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

describe("word ids by what answered", () => {
  const answers = (entries: [string, string, unknown][]) => {
    const out = new Map<string, Map<string, unknown[]>>();
    for (const [path, method, body] of entries) {
      const byMethod = out.get(path) ?? new Map<string, unknown[]>();
      out.set(path, byMethod);
      byMethod.set(method, [...(byMethod.get(method) ?? []), body]);
    }
    return out;
  };
  const list = (items: unknown[]) => ({ categories: items, total_count: items.length });

  it("keeps siblings apart whose shared sub-path answered only empty lists, or whose own answers differ", () => {
    const paths = [
      ["admin", "config", "mail"],
      ["admin", "config", "auth"],
      ["admin", "config", "mail", "history"],
      ["admin", "config", "auth", "history"],
    ];
    const evidence = (own: boolean, history: unknown) => ({
      idValues: new Set<string>(),
      keysByList: new Map(),
      answers: answers([
        ...(own
          ? ([
              ["admin/config/mail", "GET", { smtp_host: "smtp.x", port: 25 }],
              ["admin/config/auth", "GET", { providers: ["google"] }],
            ] as [string, string, unknown][])
          : []),
        ["admin/config/mail/history", "GET", history],
        ["admin/config/auth/history", "GET", history],
      ]),
    });
    // Empty lists are like anything: no likeness shown.
    expect(buildTemplater(paths, evidence(false, []))(["admin", "config", "mail"]).template).toBe(
      "/admin/config/mail",
    );
    // A shared sub-path alike, but the siblings' own documents differ in shape.
    const entries = [{ at: "2026-01-01", by: "admin" }];
    expect(buildTemplater(paths, evidence(true, entries))(["admin", "config", "mail"]).template).toBe(
      "/admin/config/mail",
    );
  });

  it("makes word siblings one parameter when a sub-path under both answered with one shape", () => {
    const paths = [
      ["projects", "website", "categories.json"],
      ["projects", "mobile-app", "categories.json"],
      ["projects", "website", "notes.json"],
    ];
    const t = buildTemplater(paths, {
      idValues: new Set(),
      keysByList: new Map(),
      answers: answers([
        ["projects/website/categories.json", "GET", list([{ id: 2, name: "Backend", owner: { id: 5 } }])],
        // An empty list and fewer optional fields are the same shape.
        ["projects/mobile-app/categories.json", "GET", list([])],
        ["projects/mobile-app/categories.json", "POST", { category: { id: 1, name: "Push" } }],
      ]),
    });
    expect(t(["projects", "mobile-app", "categories.json"]).template).toBe(
      "/projects/{project_id}/categories.json",
    );
    // A sub-path read under one of them only is templated with them.
    expect(t(["projects", "website", "notes.json"]).template).toBe("/projects/{project_id}/notes.json");
  });

  it("refuses siblings with nothing answered in common, or a common sub-path answered with other shapes", () => {
    // Two singleton documents: no sub-path below either, whatever their shapes.
    const docs = buildTemplater(
      [
        ["config", "a"],
        ["config", "b"],
      ],
      {
        idValues: new Set(),
        keysByList: new Map(),
        answers: answers([
          ["config/a", "GET", { theme: "dark" }],
          ["config/b", "GET", { limits: [1, 2] }],
        ]),
      },
    );
    expect([docs(["config", "a"]).template, docs(["config", "b"]).template]).toEqual([
      "/config/a",
      "/config/b",
    ]);
    // The same sub-path answered with other fields: two resources, not one with an id.
    const unlike = buildTemplater(
      [
        ["config", "a", "items"],
        ["config", "b", "items"],
      ],
      {
        idValues: new Set(),
        keysByList: new Map(),
        answers: answers([
          ["config/a/items", "GET", { items: [{ name: "x" }] }],
          ["config/b/items", "GET", { items: [{ port: 80 }] }],
        ]),
      },
    );
    expect(unlike(["config", "a", "items"]).template).toBe("/config/a/items");
    // Under `api` or a version a word is a route (`/api/contents`, `/api/sessions`), never compared.
    const routes = buildTemplater(
      [
        ["api", "contents", "status"],
        ["api", "sessions", "status"],
      ],
      {
        idValues: new Set(),
        keysByList: new Map(),
        answers: answers([
          ["api/contents/status", "GET", { ok: true }],
          ["api/sessions/status", "GET", { ok: true }],
        ]),
      },
    );
    expect(routes(["api", "sessions", "status"]).template).toBe("/api/sessions/status");
  });

  it("makes siblings whose answers name them by their stem ids, and the bare stem with a path below it too", () => {
    const paths = [
      ["wiki", "Roadmap.json"],
      ["wiki", "Deployment.json"],
      ["wiki", "Deployment", "1.json"],
      ["wiki", "index.json"],
    ];
    const stemNamed = new Set(["wiki/Roadmap.json", "wiki/Deployment.json"]);
    const t = buildTemplater(paths, { idValues: new Set(), keysByList: new Map(), stemNamed });
    expect(t(["wiki", "Roadmap.json"]).template).toBe("/wiki/{id}.json");
    expect(t(["wiki", "Release.json"]).template).toBe("/wiki/{id}.json");
    expect(t(["wiki", "Deployment", "1.json"]).template).toBe("/wiki/{wiki_id}/{id}.json");
    expect(t(["wiki", "index.json"]).template).toBe("/wiki/index.json");
    // One self-named page alone, beside no other id, stays a literal.
    const one = buildTemplater(
      [
        ["wiki", "Roadmap.json"],
        ["wiki", "index.json"],
      ],
      {
        idValues: new Set(),
        keysByList: new Map(),
        stemNamed: new Set(["wiki/Roadmap.json"]),
      },
    );
    expect(one(["wiki", "Roadmap.json"]).template).toBe("/wiki/Roadmap.json");
  });
});

describe("sameShape", () => {
  it("compares kinds, keys one a subset of the other, and first items", () => {
    expect(sameShape({ a: 1, b: { c: "x" } }, { a: 2, b: { c: "y", d: 1 }, e: null })).toBe(true);
    expect(sameShape({ a: [] }, { a: [{ id: 1 }] })).toBe(true);
    expect(sameShape({ a: 1 }, { b: 1 })).toBe(false);
    expect(sameShape({ a: [1] }, { a: ["x"] })).toBe(false);
    expect(sameShape([{ a: 1 }], { a: 1 })).toBe(false);
  });
});
