/** Requests that wrap the entity under the key item answers use (`{"data": {...}}`), confirmed by the read-back. */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { fieldsOf, learnSpecs } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const issue = (subject: string) => ({ id: 4, subject, done: 0 });
const lists = (subject: string): RecordSpec => ({
  path: "/api/issues",
  status: 200,
  res: { data: [issue(subject), { id: 5, subject: "Other", done: 0 }], total: 2 },
});
const item = (subject: string): RecordSpec => ({
  path: "/api/issues/4",
  status: 200,
  res: { data: issue(subject) },
});
const put = (body: unknown): RecordSpec => ({ method: "PUT", path: "/api/issues/4", status: 204, req: body });

describe("requests wrapped like the item answers", () => {
  it("confirms a body-less update by the fields under the item key, and serves it", () => {
    const specs = [lists("Old"), item("Old"), put({ data: { subject: "New" } }), item("New")];
    expect(fieldsOf(specs, "put_issues_by_id").subject).toEqual({
      kind: "from_request",
      pointer: "/data/subject",
      otherwise: { kind: "keep" },
    });
    const { model, seed } = learnSpecs(specs);
    const ep = createEpisode(model, seed, { episodeId: "a" });
    const body = { kind: "json" as const, value: { data: { subject: "Renamed" } } };
    expect(
      handleRequest(model, ep, { method: "PUT", path: "/api/issues/4", query: [], headers: {}, body }).status,
    ).toBe(204);
    const read = handleRequest(model, ep, {
      method: "GET",
      path: "/api/issues/4",
      query: [],
      headers: {},
      body: null,
    });
    expect(read.body).toEqual({ kind: "json", value: { data: { id: 4, subject: "Renamed", done: 0 } } });
  });

  it("does not unwrap a key the item answers do not use: the update stays unconfirmed", () => {
    const { coverage } = learnSpecs([
      lists("Old"),
      item("Old"),
      put({ issue: { subject: "New" } }),
      item("New"),
    ]);
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason])).toEqual([
      ["put_issues_by_id", "not_read_back"],
    ]);
  });
});
