/**
 * A write's answer field learned as one value that holds a piece of what the request sent (a copy of
 * `docs/plan.md` named `plan-Copy1.md`): built from the request, which no field rule does, so the write is withheld
 * rather than answer every request with this one's value.
 */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { fieldsOf, list, withheldOf } from "../../test/support/learn-specs.js";

const thing = (id: number, name: string, state = "draft") => ({ id, name, state });
const copy = (id: number, from: string, name: string): RecordSpec[] => [
  { method: "POST", path: "/api/things", status: 201, req: { copy_from: from }, res: thing(id, name) },
  { path: `/api/things/${id}`, status: 200, res: thing(id, name) },
];

describe("a field built from what the request sent", () => {
  it("withholds the write, naming the field, the value and what it was built from", () => {
    const specs = [list([thing(1, "docs/plan.md")]), ...copy(2, "docs/plan.md", "plan-Copy1.md")];
    expect(withheldOf(specs)).toEqual([
      [
        "post_things",
        "unexplained_field",
        'Field "name" in POST /api/things was "plan-Copy1.md" in every recorded one, a value built from what the request sent at /copy_from ("docs/plan.md"): the twin has no rule that builds a value from part of a sent one (a constant would give every request this one\'s value), so no recording can close this gap: the write stays withheld',
      ],
    ]);
  });

  it("rightly keeps a constant no request's text is part of (a state every create gets)", () => {
    const specs = [
      list([thing(1, "a")]),
      { method: "POST", path: "/api/things", status: 201, req: { name: "Milk" }, res: thing(2, "Milk") },
      { path: "/api/things/2", status: 200, res: thing(2, "Milk") },
    ];
    expect(withheldOf(specs)).toEqual([]);
    expect(fieldsOf(specs, "post_things")["state"]).toMatchObject({ kind: "constant", value: "draft" });
  });
});
