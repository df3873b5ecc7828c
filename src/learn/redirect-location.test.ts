/** Redirects: post-redirect-get writes judged by their read-back, and recorded redirects replayed with their Location. */
import { describe, expect, it } from "vitest";
import { buildEvidence, type RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, list } from "../../test/support/learn-specs.js";
import { learnModel } from "../bundle/learn-model.js";

describe("post-redirect-get", () => {
  const A = { id: 1, title: "A" };
  const B = { id: 2, title: "B" };
  const formCreate = (location: string): RecordSpec => ({
    method: "POST",
    path: "/api/things",
    status: 303,
    form: { title: "B" },
    resHeaders: [{ name: "Location", value: location }],
  });

  it("judges a create answered 303 by its read-back and answers with the status and a Location template", () => {
    const { model, coverage } = learnSpecs([list([A]), formCreate("/api/things/2"), list([A, B])]);
    expect(coverage.writes.withheld).toEqual([]);
    expect(model.write_rules).toMatchObject([
      {
        tool_name: "post_things",
        kind: "create",
        status: 303,
        location: "/api/things/{id}",
        response: { kind: "empty" },
        fields: [
          { field: "id", rule: { kind: "id_sequence", start: 3, step: 1 } },
          {
            field: "title",
            rule: {
              kind: "from_request",
              pointer: "/title",
              otherwise: { kind: "constant", value: null, default: "unconfirmed" },
            },
          },
        ],
      },
    ]);
    expect(model.write_rules[0]!.explain).toBe(
      "POST /api/things creates one thing and answers 303 with no body, redirecting to /api/things/{id} (id: the next integer id (from 3, step 1), after the highest ever seen; title: taken from the request body at /title, or null when the request has none (default: unconfirmed; no recorded create left it out, and every entity recorded holds it: the documented rule's value)).",
    );
  });

  it("finds the entity a redirected create made as the one new id of the next full list", () => {
    const { model } = learnSpecs([list([A]), formCreate("http://127.0.0.1:4010/things"), list([A, B])]);
    expect(model.write_rules.map((r) => [r.tool_name, r.status, r.location])).toEqual([
      ["post_things", 303, "/things"],
    ]);
  });

  it("reads a Location id that is not valid percent-encoding as it is (no read shows it), never crashing learning", () => {
    const { coverage } = learnSpecs([list([A]), formCreate("/api/things/2%"), list([A, B])]);
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason])).toEqual([
      ["post_things", "not_read_back"],
    ]);
  });

  it("judges an update answered 302 by its read-back", () => {
    const { model } = learnSpecs([
      list([A]),
      { path: "/api/things/1", status: 200, res: A },
      {
        method: "PUT",
        path: "/api/things/1",
        status: 302,
        form: { title: "C" },
        resHeaders: [{ name: "location", value: "/things" }],
      },
      { path: "/api/things/1", status: 200, res: { id: 1, title: "C" } },
    ]);
    expect(model.write_rules.map((r) => [r.tool_name, r.kind, r.status, r.location])).toEqual([
      ["put_things_by_id", "merge", 302, "/things"],
    ]);
  });
});

describe("real-recording oddities", () => {
  it("replays a redirect with its Location", () => {
    const ev = buildEvidence([{ path: "/api/redirect-out", status: 302 }]);
    ev.records[0]!.response!.headers.push({ name: "Location", value: "http://127.0.0.1:4011/landing" });
    ev.records[0]!.response!.redirect_to = "http://127.0.0.1:4011/landing";
    expect(learnModel(ev).model.replays[0]!.responses).toEqual([
      { status: 302, headers: { location: "http://127.0.0.1:4011/landing" }, body: null },
    ]);
  });

  it("replays a redirect to the app's own origin as a path, so a browser stays on the twin", () => {
    const ev = buildEvidence([{ path: "/api/go-home", status: 302 }]);
    const to = `${new URL(ev.records[0]!.request.url).origin}/items?tab=all`;
    ev.records[0]!.response!.headers.push({ name: "Location", value: to });
    ev.records[0]!.response!.redirect_to = to;
    expect(learnModel(ev).model.replays[0]!.responses).toEqual([
      { status: 302, headers: { location: "/items?tab=all" }, body: null },
    ]);
  });
});
