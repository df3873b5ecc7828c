/**
 * A write's recorded miss answers writes of unknown ids (`write-misses.ts`) when no item read's miss was recorded;
 * rightly refused when the recorded write misses disagree, and unused when a read's miss was recorded.
 */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, list, twinRequest } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const THINGS = [
  { id: 1, title: "A" },
  { id: 2, title: "B" },
];
const missing = (id: number) => ({
  error: { statusCode: 404, message: `Entity not found: Thing with id ${id}` },
});
const base: RecordSpec[] = [
  list(THINGS),
  { path: "/api/things/1", status: 200, res: THINGS[0] },
  { method: "PUT", path: "/api/things/1", status: 200, req: { title: "A2" }, res: { id: 1, title: "A2" } },
  { path: "/api/things/1", status: 200, res: { id: 1, title: "A2" } },
];
const putMiss = (id: number, res: unknown): RecordSpec => ({
  method: "PUT",
  path: `/api/things/${id}`,
  status: 404,
  req: { title: "X" },
  res,
});
const answer = (specs: RecordSpec[], path: string) => {
  const { model, seed } = learnSpecs(specs);
  const ep = createEpisode(model, seed, { episodeId: "w" });
  const a = handleRequest(model, ep, twinRequest("PUT", path, { title: "Y" }));
  return [a.status, a.body?.kind === "json" ? a.body.value : null];
};

describe("the answer to a write of an unknown id", () => {
  it("is the recorded write miss, naming the requested id", () => {
    expect(answer([...base, putMiss(99, missing(99))], "/api/things/42")).toEqual([404, missing(42)]);
  });

  it("is refused when two recorded write misses answered otherwise: the twin's own not-found", () => {
    const specs = [...base, putMiss(98, missing(98)), putMiss(99, { error: "gone away" })];
    expect(learnSpecs(specs).model.collections[0]!.write_not_found).toBeUndefined();
    expect(answer(specs, "/api/things/42")).toEqual([404, { error: "not_found" }]);
  });

  it("is unused when an item read's miss was recorded: the collection's not-found answers writes too", () => {
    const specs = [
      ...base,
      { path: "/api/things/7", status: 404, res: { message: "no" } },
      putMiss(99, missing(99)),
    ];
    expect(learnSpecs(specs).model.collections[0]!.write_not_found).toBeUndefined();
    expect(answer(specs, "/api/things/42")).toEqual([404, { message: "no" }]);
  });
});
