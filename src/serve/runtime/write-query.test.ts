/** A write's query: served only as its recorded writes sent it; another name, value or a lacking one is explained. */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs } from "../../../test/support/learn-specs.js";
import { createEpisode } from "./create-episode.js";
import { handleRequest } from "./handle-request.js";
import type { TwinRequest } from "./twin-types.js";

const a = { id: 1, title: "a" };
const b = { id: 2, title: "b" };
const gone = { deleted: true, previous: { id: 2, title: "b" } };

/** A list, a force-delete (read back 404), a list without it: WordPress's shape. */
const specs = (query: string): RecordSpec[] => [
  { path: "/api/posts", status: 200, res: [a, b] },
  { method: "DELETE", path: `/api/posts/2${query}`, status: 200, res: gone },
  { path: "/api/posts/2", status: 404, res: { code: "not_found" } },
  { path: "/api/posts", status: 200, res: [a] },
];

function twin(query: string) {
  const { model, seed } = learnSpecs(specs(query));
  const ep = createEpisode(model, seed, { episodeId: "q" });
  const send = (method: string, path: string, q: [string, string][] = []) =>
    handleRequest(model, ep, { method, path, query: q, headers: {}, body: null } satisfies TwinRequest);
  return { model, send };
}

describe("a write's query", () => {
  it("is learned as its recorded parameters and values, and said in the rule's sentence", () => {
    const rule = twin("?force=true").model.write_rules.find((r) => r.tool_name === "delete_posts_by_id")!;
    expect(rule.query).toEqual([{ param: "force", values: ["true"] }]);
    expect(rule.explain).toContain(
      'Served only with the query its recorded writes sent (force: "true"); another parameter or value is an explained miss.',
    );
  });

  it("answers 501 unlearned_query naming a lacking, another-valued or unknown parameter, and writes nothing", () => {
    const { send } = twin("?force=true");
    const cases: [[string, string][], string[], string][] = [
      [
        [],
        ["force"],
        'every one of delete_posts_by_id\'s recorded writes sent "force" ("true"); what the app does without it was never recorded',
      ],
      [
        [["force", "false"]],
        ["force"],
        'delete_posts_by_id\'s recorded writes sent "force" only as "true"; what the app does with "false" was never recorded',
      ],
      [
        [
          ["bogus", "1"],
          ["force", "true"],
        ],
        ["bogus"],
        'delete_posts_by_id\'s recorded writes never sent "bogus"',
      ],
    ];
    for (const [q, params, first] of cases) {
      const res = send("DELETE", "/api/posts/1", q);
      expect(res.status).toBe(501);
      const body = (res.body as { kind: "json"; value: Record<string, unknown> }).value;
      expect(body.error).toBe("unlearned_query");
      const unlearned = body.unlearned as { param: string; explain: string }[];
      expect(unlearned.map((u) => u.param)).toEqual(params);
      expect(unlearned[0]!.explain).toBe(first);
      expect(send("GET", "/api/posts/1").status).toBe(200);
    }
  });

  it("is not applied to the recorded query, nor to a write recorded without one", () => {
    const forced = twin("?force=true");
    expect(forced.send("DELETE", "/api/posts/1", [["force", "true"]]).status).toBe(200);
    expect(forced.send("GET", "/api/posts/1").status).toBe(404);
    const plain = twin("");
    expect(plain.model.write_rules[0]!.query).toBeUndefined();
    expect(plain.send("DELETE", "/api/posts/1").status).toBe(200);
    expect(plain.send("GET", "/api/posts/1").status).toBe(404);
  });
});
