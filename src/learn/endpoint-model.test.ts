/**
 * The request schema is what the app accepted: a refused body teaches a validation, never a field or a type the
 * endpoint takes (the session-5 review's `title: [integer, string]` and `id` on a LoopBack create, learned from the
 * app's two 422s and then published in tools.json and accepted by the twin).
 */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, twinRequest } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const todos = (...titles: string[]) => titles.map((title, i) => ({ id: i + 1, title }));
const refusal = (detail: unknown) => ({ error: { statusCode: 422, details: [detail] } });
const specs: RecordSpec[] = [
  { path: "/todos", status: 200, res: todos("A") },
  {
    method: "POST",
    path: "/todos",
    status: 200,
    req: { title: "B", tag: "home" },
    res: { id: 2, title: "B" },
  },
  { path: "/todos", status: 200, res: todos("A", "B") },
  { method: "POST", path: "/todos", status: 422, req: { title: 5 }, res: refusal({ path: "/title" }) },
  { method: "POST", path: "/todos", status: 422, req: { title: "T", id: 50 }, res: refusal({ extra: "id" }) },
];

describe("the request schema of a write", () => {
  it("holds only the fields and types of accepted requests, requiring what every request sent", () => {
    const { model } = learnSpecs(specs);
    expect(model.endpoints.find((e) => e.tool_name === "post_todos")!.request_schema).toEqual({
      type: "object",
      properties: { tag: { type: "string" }, title: { type: "string" } },
      required: ["title"],
    });
  });

  it("keeps the schema of the requests it has when the app accepted none (a replayed refusal)", () => {
    const { model } = learnSpecs([specs[0]!, specs[3]!]);
    const schema = model.endpoints.find((e) => e.tool_name === "post_todos")!.request_schema;
    expect(schema).toMatchObject({ properties: { title: { type: "integer" } } });
  });

  it("leaves a refused request's field unlearned in the twin: a body setting it is an explained miss", () => {
    const { model, seed } = learnSpecs(specs);
    const episode = createEpisode(model, seed, { episodeId: "e" });
    const extra = handleRequest(model, episode, twinRequest("POST", "/todos", { title: "Z", priority: 1 }));
    expect([extra.status, extra.served_by]).toEqual([501, "miss"]);
    expect(extra.body).toMatchObject({ value: { error: "unlearned_field", fields: ["priority"] } });
    // The accepted fields are served (`tag`, which the app took and never showed, as recorded); the refused
    // request wrote nothing.
    const ok = handleRequest(model, episode, twinRequest("POST", "/todos", { title: "Z", tag: "t" }));
    expect([ok.status, ok.served_by]).toEqual([200, "state"]);
    expect(handleRequest(model, episode, twinRequest("GET", "/todos")).body).toEqual({
      kind: "json",
      value: [...todos("A", "B"), { id: 3, title: "Z" }],
    });
  });
});
