/**
 * Reads refused without credentials: the recorded 401/403 of a read that lacked what every accepted read of its
 * route carried, per route, or app-wide when every recorded read refusal agrees; never for a public route.
 */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";
import type { TwinRequest } from "../serve/runtime/twin-types.js";

const cookie = [{ name: "cookie", value: "session=s1" }];
const signedIn = (path: string, res: unknown): RecordSpec => ({ path, status: 200, res, headers: cookie });
const refused = (path: string, status: number, res: unknown): RecordSpec => ({ path, status, res });
const items = [
  { id: 1, title: "Milk" },
  { id: 2, title: "Bread" },
];
const tags = [{ id: 1, label: "home" }];
const denied = { error: "unauthorized", message: "Sign in first." };
const get = (path: string, headers: Record<string, string> = {}): TwinRequest => ({
  method: "GET",
  path,
  query: [],
  headers,
  body: null,
});

function twin(specs: RecordSpec[]) {
  const { model, seed } = learnSpecs(specs);
  const episode = createEpisode(model, seed, { episodeId: "r" });
  return { model, ask: (r: TwinRequest) => handleRequest(model, episode, r) };
}

describe("reads refused without credentials", () => {
  it("answers a read without the cookie every accepted read sent with the recorded 401, per route and app-wide", () => {
    const { model, ask } = twin([
      signedIn("/api/items", items),
      signedIn("/api/tags", tags),
      refused("/api/items", 401, denied),
    ]);
    expect(model.credential_refusals).toEqual([
      expect.objectContaining({ tool_name: "get_items", missing: ["cookie:session"], status: 401 }),
      expect.objectContaining({ tool_name: "get_tags", missing: ["cookie:session"], status: 401 }),
    ]);
    expect(model.credential_refusals![1]!.explain).toContain("the app's other reads");
    for (const path of ["/api/items", "/api/tags"]) {
      const r = ask(get(path));
      expect([r.status, r.served_by, r.body]).toEqual([401, "validation", { kind: "json", value: denied }]);
    }
    const ok = ask(get("/api/items", { cookie: "session=other" }));
    expect([ok.status, ok.served_by]).toEqual([200, "state"]);
    // An MCP call is the recording's signed-in user.
    expect(ask({ ...get("/api/tags"), signed_in: true }).status).toBe(200);
    // A CORS preflight carries no credentials and is no refused read.
    expect(ask({ ...get("/api/items"), method: "OPTIONS" }).served_by).not.toBe("validation");
  });

  it("learns no app-wide refusal when the recorded read refusals disagree (the route's own still applies)", () => {
    const { model } = twin([
      signedIn("/api/items", items),
      signedIn("/api/tags", tags),
      signedIn("/api/notes", [{ id: 1, text: "x" }]),
      refused("/api/items", 401, denied),
      refused("/api/notes", 403, { error: "forbidden" }),
    ]);
    expect(model.credential_refusals!.map((r) => [r.tool_name, r.status])).toEqual([
      ["get_items", 401],
      ["get_notes", 403],
    ]);
  });

  it("never refuses a route the recording read without the credential (a public read)", () => {
    const { model, ask } = twin([
      signedIn("/api/items", items),
      { path: "/api/tags", status: 200, res: tags },
      signedIn("/api/tags", tags),
      refused("/api/items", 401, denied),
    ]);
    expect(model.credential_refusals!.map((r) => r.tool_name)).toEqual(["get_items"]);
    expect(ask(get("/api/tags")).status).toBe(200);
  });
});

describe("writes without the credentials every accepted one carried, no refusal recorded", () => {
  const bearer = [{ name: "authorization", value: "[REDACTED:header:authorization]" }];
  const create = (headers?: RecordSpec["headers"]): RecordSpec => ({
    method: "POST",
    path: "/api/items",
    status: 201,
    req: { title: "Eggs" },
    res: { id: 3, title: "Eggs" },
    ...(headers ? { headers } : {}),
  });
  const after = signedIn("/api/items", [...items, { id: 3, title: "Eggs" }]);
  const post = (headers: Record<string, string>, extra: Partial<TwinRequest> = {}): TwinRequest => ({
    method: "POST",
    path: "/api/items",
    query: [],
    headers: { "content-type": "application/json", ...headers },
    body: { kind: "json", value: { title: "Tea" } },
    ...extra,
  });

  it("answers a write carrying none of them 501 unauthenticated_unrecorded, never a success", () => {
    const { model, ask } = twin([signedIn("/api/items", items), create([...cookie, ...bearer]), after]);
    expect(model.credentials_required).toEqual([
      {
        tool_name: "post_items",
        carried: ["cookie:session", "header:authorization"],
        explain:
          "The one accepted POST /api/items carried cookie:session and header:authorization; the recording never shows the app's answer to one without any of them.",
      },
    ]);
    const r = ask(post({}));
    expect([r.status, r.served_by, r.rule]).toEqual([501, "miss", "post_items"]);
    expect(r.body).toEqual({
      kind: "json",
      value: {
        error: "unauthenticated_unrecorded",
        message:
          "POST /api/items: every accepted POST /api/items in the recording carried cookie:session and header:authorization, and this request carries none of them; the recording never shows how the app answers a write without them, so the twin does not write.",
        hint: "Send the credentials the recorded requests sent (any of cookie:session and header:authorization; the twin never checks a value), or record the app's answer to a POST /api/items without them (a request step with its expected_status), then rebuild the bundle.",
        carried: ["cookie:session", "header:authorization"],
      },
    });
    // Nothing was written (the seed is the last list, 3 items); a request carrying one of them (any value) is
    // served, and so is an MCP call.
    expect((ask(get("/api/items")).body as { value: unknown[] }).value).toHaveLength(3);
    expect(ask(post({ authorization: "Bearer other" })).status).toBe(201);
    expect(ask(post({}, { signed_in: true })).status).toBe(201);
  });

  it("learns no requirement for a write the recording accepted without credentials, nor where a refusal was recorded", () => {
    const open = twin([signedIn("/api/items", items), create([...cookie]), create(), after]);
    expect(open.model.credentials_required).toBeUndefined();
    const refusedToo = twin([
      signedIn("/api/items", items),
      create([...cookie]),
      after,
      { method: "POST", path: "/api/items", status: 401, req: { title: "x" }, res: denied },
    ]);
    expect(refusedToo.model.credentials_required).toBeUndefined();
    expect([refusedToo.ask(post({})).status, refusedToo.ask(post({})).served_by]).toEqual([
      401,
      "validation",
    ]);
  });
});

describe("a body the app refused, sent again", () => {
  const refusal = { error: "invalid", fields: { title: "too long" } };
  const specs: RecordSpec[] = [
    signedIn("/api/items", items),
    {
      method: "POST",
      path: "/api/items",
      status: 201,
      req: { title: "Eggs" },
      res: { id: 3, title: "Eggs" },
    },
    { method: "POST", path: "/api/items", status: 422, req: { title: "Soup" }, res: refusal },
    signedIn("/api/items", [...items, { id: 3, title: "Eggs" }]),
  ];
  const post = (value: unknown): TwinRequest => ({
    method: "POST",
    path: "/api/items",
    query: [],
    headers: { "content-type": "application/json" },
    body: { kind: "json", value },
  });

  it("answers that very body with the recorded refusal, and another body as the rules say", () => {
    const { model, ask } = twin(specs);
    expect(model.refused_bodies).toEqual([
      {
        tool_name: "post_items",
        request: { title: "Soup" },
        status: 422,
        content_type: "application/json; charset=utf-8",
        body: refusal,
        explain:
          "POST /api/items answered this very body 422 (recorded at records[2]); no accepted request sent it.",
      },
    ]);
    const again = ask(post({ title: "Soup" }));
    expect([again.status, again.served_by, again.body]).toEqual([
      422,
      "validation",
      { kind: "json", value: refusal },
    ]);
    expect(ask(post({ title: "Stew" })).status).toBe(201);
  });

  it("learns none for a body the app also accepted, nor where its refusals disagree", () => {
    const accepted = twin([
      ...specs,
      { ...specs[1]!, req: { title: "Soup" }, res: { id: 4, title: "Soup" } },
    ]);
    expect(accepted.model.refused_bodies).toBeUndefined();
    const disagree = twin([...specs, { ...specs[2]!, res: { error: "other" } }]);
    expect(disagree.model.refused_bodies).toBeUndefined();
  });
});
