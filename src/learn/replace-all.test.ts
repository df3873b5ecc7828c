/** A write of the whole collection at its list path (`PUT /api/folders [...]`), confirmed by the next full list. */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const folders = (data: unknown[]): RecordSpec => ({ path: "/api/folders", status: 200, res: data });
const f = (id: number, name: string, open = true) => ({ id, name, open });
const put = (body: unknown[], res?: unknown): RecordSpec => ({
  method: "PUT",
  path: "/api/folders",
  status: res === undefined ? 204 : 200,
  req: body,
  ...(res === undefined ? {} : { res }),
});

describe("whole-collection writes", () => {
  it("replaces the collection with the request's array when the next full list shows exactly it", () => {
    const sent = [f(1, "inbox", false), f(3, "work")];
    const { model, seed, coverage } = learnSpecs([
      folders([f(1, "inbox"), f(2, "old")]),
      put(sent, sent),
      folders(sent),
    ]);
    expect(coverage.writes.withheld).toEqual([]);
    const rule = model.write_rules.find((r) => r.tool_name === "put_folders")!;
    expect([rule.kind, rule.replace_all, rule.response, rule.explain]).toEqual([
      "replace",
      true,
      { kind: "entity" },
      "PUT /api/folders replaces every folder with the entities of the request's array, in its order, and answers 200 with that array.",
    ]);
    const ep = createEpisode(model, seed, { episodeId: "r" });
    const send = (method: string, value: unknown) =>
      handleRequest(model, ep, {
        method,
        path: "/api/folders",
        query: [],
        headers: {},
        body: value === null ? null : { kind: "json", value },
      });
    const next = [f(4, "home"), f(3, "work", false)];
    expect(send("PUT", next).body).toEqual({ kind: "json", value: next });
    expect(send("GET", null).body).toEqual({ kind: "json", value: next });
    // One id twice: the twin writes nothing rather than guess the app's answer.
    expect(send("PUT", [f(5, "a"), f(5, "b")]).status).toBe(400);
    expect(send("GET", null).body).toEqual({ kind: "json", value: next });
  });

  it("is withheld with the reason when the list after it shows other entities than it sent", () => {
    const { coverage } = learnSpecs([
      folders([f(1, "inbox"), f(2, "old")]),
      put([f(1, "inbox", false), f(3, "work")]),
      folders([f(1, "inbox", false), f(2, "old"), f(3, "work")]),
    ]);
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason])).toEqual([
      ["put_folders", "read_back_disagrees"],
    ]);
  });
});
