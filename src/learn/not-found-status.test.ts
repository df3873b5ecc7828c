import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs } from "../../test/support/learn-specs.js";

const things = [
  { id: 1, title: "A" },
  { id: 2, title: "B" },
];
const forbidden = { errors: [{ message: "You don't have permission to access this." }] };
const base: RecordSpec[] = [
  { path: "/api/things", status: 200, res: things },
  { path: "/api/things/1", status: 200, res: things[0] },
];

describe("a 403 that means no such entity", () => {
  it("is the route's not-found answer when every 403 named an id never shown or deleted, and confirms the delete", () => {
    const { model, seed } = learnSpecs([
      ...base,
      { path: "/api/things/99", status: 403, res: forbidden },
      { method: "DELETE", path: "/api/things/2", status: 204 },
      { path: "/api/things/2", status: 403, res: forbidden },
    ]);
    const c = model.collections[0]!;
    expect(c.not_found).toMatchObject({ status: 403, body: forbidden });
    expect(seed.collections.things).toEqual([things[0]]);
    expect(model.endpoints.find((e) => e.tool_name === "delete_things_by_id")?.serving).toBe("state");
  });

  it("is rejected for an entity the recording showed and never deleted (a refusal, not a miss)", () => {
    const { model, seed } = learnSpecs([...base, { path: "/api/things/2", status: 403, res: forbidden }]);
    expect(model.collections[0]!.not_found).toBeNull();
    expect(seed.collections.things).toEqual(things);
  });
});
