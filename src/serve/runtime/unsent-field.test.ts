/**
 * A field every recorded create sent: what the app writes when a request leaves it out was never recorded (the
 * session-7 review: WordPress `POST /tags {"name"}` answers `"description":""`, Redmine a project without
 * description/is_public answers `null`/`true`, and the twin left both out). Such a create is an explained 501 naming
 * the field, unless the untouched entities confirm the app's default (learn.ts `untouchedDefaults`).
 */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, twinRequest } from "../../../test/support/learn-specs.js";
import { createEpisode } from "./create-episode.js";
import { handleRequest } from "./handle-request.js";
import type { TwinRequest } from "./twin-types.js";

function twin(specs: RecordSpec[]) {
  const { model, seed } = learnSpecs(specs);
  const episode = createEpisode(model, seed, { episodeId: "u" });
  return { model, ask: (r: TwinRequest) => handleRequest(model, episode, r) };
}

const created = (n: number, note: string) => ({ id: n, name: `T${n}`, note });

describe("a create leaving out a field every recorded create sent", () => {
  it("is an explained 501 naming the field and the request pointer, and creates nothing", () => {
    const seed = { id: 1, name: "T1", note: "seeded" };
    const { model, ask } = twin([
      { path: "/api/tags", status: 200, res: [seed] },
      {
        method: "POST",
        path: "/api/tags",
        status: 201,
        req: { name: "T2", note: "n2" },
        res: created(2, "n2"),
      },
      { path: "/api/tags", status: 200, res: [seed, created(2, "n2")] },
      {
        method: "POST",
        path: "/api/tags",
        status: 201,
        req: { name: "T3", note: "n3" },
        res: created(3, "n3"),
      },
      { path: "/api/tags", status: 200, res: [seed, created(2, "n2"), created(3, "n3")] },
    ]);
    const rule = model.write_rules.find((w) => w.tool_name === "post_tags")!;
    expect(rule.fields.find((f) => f.field === "note")?.rule).toEqual({
      kind: "from_request",
      pointer: "/note",
      otherwise: { kind: "unlearned" },
    });
    const r = ask(twinRequest("POST", "/api/tags", { name: "T4" }));
    expect([r.status, r.served_by]).toEqual([501, "miss"]);
    expect(r.body).toEqual({
      kind: "json",
      value: {
        error: "unlearned_value",
        message:
          'post_tags writes "note" from the request\'s /note; every recorded create sent it and this request does not, and nothing recorded shows what the app writes for "note" without it (a default, null, nothing), so the twin does not guess',
        field: "note",
        pointer: "/note",
        recorded: [],
        hint: "Record post_tags once without /note, followed by a read of the entity it created, then rebuild the bundle.",
      },
    });
    expect((ask(twinRequest("GET", "/api/tags")).body as { value: unknown[] }).value).toHaveLength(3);
    // Sent, it is served as recorded.
    expect(ask(twinRequest("POST", "/api/tags", { name: "T4", note: "n4" })).status).toBe(201);
  });

  it("gives the default the untouched entities confirm (each holds the one empty value)", () => {
    const seeds = [
      { id: 1, name: "T1", note: "" },
      { id: 2, name: "T2", note: "" },
    ];
    const { ask } = twin([
      { path: "/api/tags", status: 200, res: seeds },
      {
        method: "POST",
        path: "/api/tags",
        status: 201,
        req: { name: "T3", note: "n3" },
        res: created(3, "n3"),
      },
      { path: "/api/tags", status: 200, res: [...seeds, created(3, "n3")] },
    ]);
    const r = ask(twinRequest("POST", "/api/tags", { name: "T4" }));
    expect([r.status, r.body]).toEqual([201, { kind: "json", value: { id: 4, name: "T4", note: "" } }]);
  });

  it("leaves the field out where a recorded create without it showed it left out", () => {
    const { ask } = twin([
      { path: "/api/tags", status: 200, res: [] },
      {
        method: "POST",
        path: "/api/tags",
        status: 201,
        req: { name: "T1", note: "n1" },
        res: created(1, "n1"),
      },
      { method: "POST", path: "/api/tags", status: 201, req: { name: "T2" }, res: { id: 2, name: "T2" } },
      { path: "/api/tags", status: 200, res: [created(1, "n1"), { id: 2, name: "T2" }] },
    ]);
    const r = ask(twinRequest("POST", "/api/tags", { name: "T3" }));
    expect([r.status, r.body]).toEqual([201, { kind: "json", value: { id: 3, name: "T3" } }]);
  });
});
