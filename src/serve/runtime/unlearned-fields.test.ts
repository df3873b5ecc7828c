/**
 * A write setting a field the recording never showed that write taking is a 501 naming it, never a 2xx that drops
 * it (the session-5 review: a LoopBack PUT learned from one title-only PUT answered 204 to {title, desc,
 * isComplete} and the read showed only the title), inside a wrapped body (`{todo: {...}}`) too. A field sent at the
 * value the entity holds changes nothing.
 */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, twinRequest } from "../../../test/support/learn-specs.js";
import { createEpisode } from "./create-episode.js";
import { handleRequest } from "./handle-request.js";
import type { TwinRequest } from "./twin-types.js";

const one = { id: 1, title: "A" };
const specs: RecordSpec[] = [
  { path: "/todos", status: 200, res: [one] },
  { path: "/todos/1", status: 200, res: one },
  { method: "PUT", path: "/todos/1", status: 204, req: { title: "B" } },
  { path: "/todos/1", status: 200, res: { id: 1, title: "B" } },
];

function twin() {
  const { model, seed } = learnSpecs(specs);
  const episode = createEpisode(model, seed, { episodeId: "u" });
  return { model, ask: (r: TwinRequest) => handleRequest(model, episode, r) };
}

describe("a write setting an unlearned field", () => {
  it("answers 501 unlearned_field naming the fields, and writes nothing", () => {
    const { ask } = twin();
    const r = ask(twinRequest("PUT", "/todos/1", { title: "C", desc: "d", isComplete: true }));
    expect([r.status, r.served_by, r.rule]).toEqual([501, "miss", "put_todos_by_id"]);
    expect(r.body).toMatchObject({
      value: {
        error: "unlearned_field",
        fields: ["desc", "isComplete"],
        hint: 'Record a PUT /todos/{id} that sends "desc", "isComplete" and a read of the todos after it (or the app\'s refusal of such a body), then rebuild the bundle.',
      },
    });
    expect(ask(twinRequest("GET", "/todos/1")).body).toEqual({ kind: "json", value: { id: 1, title: "B" } });
  });

  it("serves a body that sends a field back at the value the entity holds (its own id)", () => {
    const { ask } = twin();
    expect(ask(twinRequest("PUT", "/todos/1", { id: 1, title: "C" })).status).toBe(204);
    expect(ask(twinRequest("GET", "/todos/1")).body).toEqual({ kind: "json", value: { id: 1, title: "C" } });
    // Another id is a change the recording never showed: refused.
    expect(ask(twinRequest("PUT", "/todos/1", { id: 2, title: "D" })).status).toBe(501);
  });

  it("refuses a form to an endpoint whose accepted requests sent JSON (400 malformed_body)", () => {
    const { ask } = twin();
    const form = (fields: [string, string][]): TwinRequest => ({
      ...twinRequest("PUT", "/todos/1"),
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: { kind: "form", fields },
    });
    // The endpoint took JSON: a form is a body whose answer the recording lacks (refuse-request.ts).
    const r = ask(form([["title", "C"]]));
    expect([r.status, r.served_by, (r.body as { value: { error: string } }).value.error]).toEqual([
      400,
      "refused",
      "malformed_body",
    ]);
  });

  it("names a field inside a body wrapped as the item answers wrap the entity, and writes nothing", () => {
    const wrapped: RecordSpec[] = [
      { path: "/todos", status: 200, res: [one] },
      { path: "/todos/1", status: 200, res: { todo: one } },
      { method: "PUT", path: "/todos/1", status: 204, req: { todo: { title: "B" } } },
      { path: "/todos/1", status: 200, res: { todo: { id: 1, title: "B" } } },
    ];
    const { model, seed } = learnSpecs(wrapped);
    const episode = createEpisode(model, seed, { episodeId: "w" });
    const ask = (r: TwinRequest) => handleRequest(model, episode, r);
    const r = ask(twinRequest("PUT", "/todos/1", { todo: { title: "C", colour: "red" } }));
    expect([r.status, (r.body as { value: { fields: string[] } }).value.fields]).toEqual([
      501,
      ["todo.colour"],
    ]);
    expect(ask(twinRequest("GET", "/todos/1")).body).toEqual({
      kind: "json",
      value: { todo: { id: 1, title: "B" } },
    });
    // Its own id sent back inside the wrapper changes nothing: served.
    expect(ask(twinRequest("PUT", "/todos/1", { todo: { id: 1, title: "C" } })).status).toBe(204);
  });
});
