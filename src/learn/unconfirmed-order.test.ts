/**
 * A collection whose own order no read showed (never listed plainly, only sorted or filtered): a read the twin
 * would answer with two or more of it, sorted by no confirmed rule, is the explained `unconfirmed_order` miss;
 * one a plain list of two showed is served in the order that list proved.
 */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, list, twinRequest } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const a = { id: 1, name: "A", kind: "x" };
const b = { id: 2, name: "B", kind: "y" };
const c = { id: 3, name: "C", kind: "x" };
const d = { id: 4, name: "D", kind: "z" };
const reads: RecordSpec[] = [
  ...[a, b, c, d].map((e) => ({ path: `/api/things/${e.id}`, status: 200, res: e })),
  { path: "/api/things?sort=-name", status: 200, res: [d, c, b, a] },
  { path: "/api/things?sort=name", status: 200, res: [a, b, c, d] },
  { path: "/api/things?kind=y", status: 200, res: [b] },
  { path: "/api/things?kind=z", status: 200, res: [d] },
];

function ask(specs: RecordSpec[], query: [string, string][]) {
  const { model, seed } = learnSpecs(specs);
  const ep = createEpisode(model, seed, { episodeId: "o" });
  return { model, res: handleRequest(model, ep, twinRequest("GET", "/api/things", null, query)) };
}

describe("a list order no read showed", () => {
  it("answers a filtered read of two or more with the explained miss, one of a single entity from state", () => {
    const { model, res } = ask(reads, [["kind", "x"]]);
    expect(model.collections[0]!.order_unconfirmed).toBe(true);
    expect(res.status).toBe(501);
    expect(res.served_by).toBe("miss");
    expect(res.body).toMatchObject({
      kind: "json",
      value: {
        error: "unconfirmed_order",
        message:
          "get_things: this read answers 2 of things in the app's own order, and no read in the recording showed that order (things was only read filtered, sorted or in part), so the twin does not pass its own order off as the app's",
      },
    });
    const one = ask(reads, [["kind", "y"]]).res;
    expect([one.status, one.served_by, one.body]).toEqual([200, "state", { kind: "json", value: [b] }]);
    const sorted = ask(reads, [["sort", "-name"]]).res;
    expect([sorted.status, sorted.served_by]).toEqual([200, "state"]);
  });

  it("is not set once a plain list of two showed the order", () => {
    const { model, res } = ask([list([c, a, b, d]), ...reads], [["kind", "x"]]);
    expect(model.collections[0]!.order_unconfirmed).toBeUndefined();
    expect([res.status, res.served_by]).toEqual([200, "state"]);
    expect((res.body as { value: { id: number }[] }).value.map((e) => e.id)).toEqual([3, 1]);
  });
});
