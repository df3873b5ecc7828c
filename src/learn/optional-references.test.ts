/**
 * A reference object a create answers only when its request sent what it is built from (`issue: {id}` from
 * `/time_entry/issue_id`, and no `issue` key for a create without it): left out when the request lacks it, as the
 * create that omitted it showed; and the cases rightly refused (a sub-field that disagrees once, a create that sent
 * the value and got no object).
 */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, twinRequest as send, withheldOf } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

type Entry = { id: number; hours: number; issue?: { id: number } };
const entries = (rows: Entry[]): RecordSpec => ({
  path: "/time_entries.json",
  status: 200,
  res: { time_entries: rows },
});
const create = (req: Record<string, unknown>, res: Entry): RecordSpec => ({
  method: "POST",
  path: "/time_entries.json",
  status: 201,
  req: { time_entry: req },
  res: { time_entry: res },
});

function recording(secondIssue: { id: number } | null = { id: 2 }): RecordSpec[] {
  const second: Entry = secondIssue ? { id: 2, hours: 2, issue: secondIssue } : { id: 2, hours: 2 };
  return [
    entries([]),
    create({ issue_id: 1, hours: 1 }, { id: 1, hours: 1, issue: { id: 1 } }),
    create({ issue_id: 2, hours: 2 }, second),
    create({ hours: 3 }, { id: 3, hours: 3 }),
    entries([{ id: 1, hours: 1, issue: { id: 1 } }, second, { id: 3, hours: 3 }]),
  ];
}

const body = (a: ReturnType<typeof handleRequest>) => (a.body?.kind === "json" ? a.body.value : null);

describe("a reference object only some creates answer", () => {
  it("is built from the request when sent, and left out when not, as the create without it showed", () => {
    const { model, seed } = learnSpecs(recording());
    const rule = model.write_rules.find((r) => r.tool_name === "post_time_entries_json")!;
    expect(rule.fields.find((f) => f.field === "issue")?.rule).toEqual({
      kind: "object",
      fields: [
        {
          field: "id",
          rule: { kind: "from_request", pointer: "/time_entry/issue_id", otherwise: { kind: "omit" } },
        },
      ],
      when_sent: ["/time_entry/issue_id"],
    });
    expect(rule.explain).toContain(
      "issue: an object of id: taken from the request body at /time_entry/issue_id, left out when the request has no /time_entry/issue_id",
    );
    const ep = createEpisode(model, seed, { episodeId: "optional" });
    const with7 = handleRequest(
      model,
      ep,
      send("POST", "/time_entries.json", { time_entry: { issue_id: 7, hours: 4 } }),
    );
    expect(body(with7)).toEqual({ time_entry: { id: 4, hours: 4, issue: { id: 7 } } });
    const without = handleRequest(
      model,
      ep,
      send("POST", "/time_entries.json", { time_entry: { hours: 5 } }),
    );
    expect(body(without)).toEqual({ time_entry: { id: 5, hours: 5 } });
  });
});

describe("reference objects rightly refused", () => {
  it("withholds a reference whose sub-field disagrees with the request once", () => {
    expect(withheldOf(recording({ id: 9 })).map(([tool, reason]) => [tool, reason])).toEqual([
      ["post_time_entries_json", "unexplained_field"],
    ]);
  });

  it("withholds one a create left out although it sent the value", () => {
    expect(withheldOf(recording(null)).map(([tool, reason]) => [tool, reason])).toEqual([
      ["post_time_entries_json", "unexplained_field"],
    ]);
  });
});
