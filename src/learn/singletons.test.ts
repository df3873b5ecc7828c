/** Singleton documents (settings, the current user, a whole config): read and changed at one fixed path, from state. */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { buildEvidence } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, list, twinRequest } from "../../test/support/learn-specs.js";
import { buildBundle } from "../bundle/build-bundle.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const read = (path: string, res: unknown): RecordSpec => ({ path, status: 200, res });
const write = (method: string, path: string, req: unknown, res?: unknown, status = 200): RecordSpec => ({
  method,
  path,
  status: res === undefined ? 204 : status,
  req,
  ...(res === undefined ? {} : { res }),
});

const light = { theme: "light", language: "en", notifications: true };

describe("singleton documents", () => {
  it("serves a PATCH read just before and after it: the sent fields take the request's values, the rest is kept", () => {
    const dark = { ...light, theme: "dark" };
    const de = { ...dark, language: "de" };
    const { model, seed, coverage } = learnSpecs([
      read("/api/settings", light),
      write("PATCH", "/api/settings", { theme: "dark" }, dark),
      read("/api/settings", dark),
      write("PATCH", "/api/settings", { language: "de" }, de),
      read("/api/settings", de),
    ]);
    expect(coverage.writes.withheld).toEqual([]);
    expect(coverage.writes.served.map((w) => [w.tool_name, w.collection])).toEqual([
      ["patch_settings", "settings"],
    ]);
    const c = model.collections.find((x) => x.name === "settings")!;
    expect(c).toMatchObject({
      singleton: true,
      id_field: "_singleton",
      hidden: ["/_singleton"],
      list_endpoint: null,
      item_endpoint: "get_settings",
    });
    expect(seed.collections.settings).toEqual([{ ...de, _singleton: "settings" }]);
    const rule = model.write_rules.find((r) => r.tool_name === "patch_settings")!;
    expect(rule.kind).toBe("merge");
    expect(rule.explain).toBe(
      "PATCH /api/settings updates the settings document and answers 200 with the entity (theme: taken from the request body at /theme, or kept as it was when the request has none; language: taken from the request body at /language, or kept as it was when the request has none; notifications: from the request when sent (settable: PATCH /api/settings sets it), else kept). Confirmed by 2 recorded writes, each read by GET /api/settings just before and after with no other write in between.",
    );
    expect(model.endpoints.find((e) => e.tool_name === "get_settings")).toMatchObject({
      kind: "item",
      collection: "settings",
      serving: "state",
    });
    // The reads are served from state, not replayed.
    expect(model.replays.filter((r) => r.path_and_query === "/api/settings")).toEqual([]);

    const ep = createEpisode(model, seed, { episodeId: "s" });
    const solar = { theme: "solarized", language: "de", notifications: true };
    expect(
      handleRequest(model, ep, twinRequest("PATCH", "/api/settings", { theme: "solarized" })),
    ).toMatchObject({
      status: 200,
      body: { kind: "json", value: solar },
      served_by: "state",
      rule: "patch_settings",
    });
    expect(handleRequest(model, ep, twinRequest("GET", "/api/settings"))).toMatchObject({
      status: 200,
      body: { kind: "json", value: solar },
      served_by: "state",
    });
    // Two fields each stored as sent: the PATCH stores the document's other scalar fields too, typed by their value.
    const muted = { ...solar, notifications: false };
    expect(
      handleRequest(model, ep, twinRequest("PATCH", "/api/settings", { notifications: false })).body,
    ).toEqual({ kind: "json", value: muted });
    const typed = handleRequest(model, ep, twinRequest("PATCH", "/api/settings", { notifications: "off" }));
    expect([typed.status, (typed.body as { value: { error: string } }).value.error]).toEqual([
      400,
      "invalid_body",
    ]);
    // A key the document never held is no field of it: the explained miss, nothing written.
    const unknown = handleRequest(model, ep, twinRequest("PATCH", "/api/settings", { colour: "red" }));
    expect(unknown.body).toMatchObject({ value: { error: "unlearned_field", fields: ["colour"] } });
    expect(handleRequest(model, ep, twinRequest("GET", "/api/settings")).body).toEqual({
      kind: "json",
      value: muted,
    });
    // Sent back at the value it holds, it changes nothing whatever the app does with it.
    expect(
      handleRequest(model, ep, twinRequest("PATCH", "/api/settings", { theme: "dark", notifications: false }))
        .status,
    ).toBe(200);
  });

  it("takes no unsent field from one field stored as sent, nor from a write that did not store what it was sent", () => {
    const me = { id: 7, name: "Ann", bio: "" };
    const one = learnSpecs([
      read("/api/me", me),
      write("PATCH", "/api/me", { bio: "gardener" }, { ...me, bio: "gardener" }),
      read("/api/me", { ...me, bio: "gardener" }),
    ]);
    // The app lower-cased one sent value: a PATCH that transforms what it is sent proves no other field stored as sent.
    const lowered = learnSpecs([
      read("/api/settings", light),
      write("PATCH", "/api/settings", { theme: "dark" }, { ...light, theme: "dark" }),
      read("/api/settings", { ...light, theme: "dark" }),
      write(
        "PATCH",
        "/api/settings",
        { language: "DE", theme: "dark" },
        { ...light, theme: "dark", language: "de" },
      ),
      read("/api/settings", { ...light, theme: "dark", language: "de" }),
    ]);
    const kinds = (l: ReturnType<typeof learnSpecs>, tool: string) =>
      Object.fromEntries(
        l.model.write_rules.find((r) => r.tool_name === tool)!.fields.map((f) => [f.field, f.rule.kind]),
      );
    expect(kinds(one, "patch_me")).toMatchObject({ id: "keep", name: "keep", bio: "from_request" });
    expect(kinds(lowered, "patch_settings").notifications).toBe("keep");
  });

  it("replaces the whole document with a PUT whose read-back dropped a field it had, answering 204", () => {
    const before = { theme: "light", folders: [{ name: "inbox", open: true }], beta: true };
    const after = {
      theme: "dark",
      folders: [
        { name: "inbox", open: false },
        { name: "work", open: true },
      ],
    };
    const { model, seed, coverage } = learnSpecs([
      read("/config", before),
      write("PUT", "/config", after),
      read("/config", after),
    ]);
    expect(coverage.writes.served.map((w) => w.tool_name)).toEqual(["put_config"]);
    const rule = model.write_rules.find((r) => r.tool_name === "put_config")!;
    expect(rule.kind).toBe("replace");
    expect(rule.response).toEqual({ kind: "empty" });
    const ep = createEpisode(model, seed, { episodeId: "c" });
    const next = { theme: "solarized", folders: [{ name: "home", open: true }] };
    expect(handleRequest(model, ep, twinRequest("PUT", "/config", next))).toMatchObject({
      status: 204,
      body: null,
      served_by: "state",
    });
    expect(handleRequest(model, ep, twinRequest("GET", "/config")).body).toEqual({
      kind: "json",
      value: next,
    });
  });

  it("withholds a PATCH whose read-backs show values no rule gives (neither sent, kept nor one constant)", () => {
    const { coverage, model } = learnSpecs([
      read("/api/settings", light),
      write("PATCH", "/api/settings", { theme: "dark" }),
      read("/api/settings", { ...light, theme: "night" }),
      write("PATCH", "/api/settings", { theme: "solar" }),
      read("/api/settings", { ...light, theme: "sun" }),
    ]);
    expect(coverage.writes.served).toEqual([]);
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason, w.hint, w.closable])).toEqual([
      [
        "patch_settings",
        // A text sent and stored as another (dark -> night) is no constant: no rule fits it at all.
        "unexplained_field",
        'Field "theme" in PATCH /api/settings fits no rule (request, id sequence, clock, constant, copy); record 2 or more PATCH /api/settings with different inputs, each followed by a GET /api/settings',
        true,
      ],
    ]);
    // The document is still read from state.
    expect(model.endpoints.find((e) => e.tool_name === "get_settings")?.serving).toBe("state");
  });

  it("withholds a PATCH no read preceded and followed with nothing between, saying exactly what to record", () => {
    const { coverage } = learnSpecs([
      read("/api/settings", light),
      list([{ id: 1, title: "A" }]),
      { method: "POST", path: "/api/things", status: 201, req: { title: "B" }, res: { id: 2, title: "B" } },
      write("PATCH", "/api/settings", { theme: "dark" }),
      read("/api/settings", { ...light, theme: "dark" }),
    ]);
    const w = coverage.writes.withheld.find((x) => x.tool_name === "patch_settings")!;
    expect([w.reason, w.hint, w.closable]).toEqual([
      "not_read_back",
      "No PATCH /api/settings in the recording has a GET /api/settings just before it and just after it with no other write in between, so what it changed is not shown; record GET /api/settings, then PATCH /api/settings, then GET /api/settings again",
      true,
    ]);
  });

  it("is no singleton when a plain read of the path answered something other than one object", () => {
    const { coverage, model } = learnSpecs([
      read("/api/prefs", ["a", "b"]),
      write("PUT", "/api/prefs", ["a"]),
      read("/api/prefs", ["a"]),
    ]);
    expect(model.collections.some((c) => c.singleton)).toBe(false);
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason])).toEqual([
      ["put_prefs", "no_collection"],
    ]);
  });

  it("builds a bundle (tools, tasks, OpenAPI) of a recording with a singleton, the same bytes twice", () => {
    const dark = { ...light, theme: "dark" };
    const specs = [
      read("/api/settings", light),
      write("PATCH", "/api/settings", { theme: "dark" }, dark),
      read("/api/settings", dark),
    ];
    const a = buildBundle({ evidence: [buildEvidence(specs)] });
    const b = buildBundle({ evidence: [buildEvidence(specs)] });
    expect([...a.files.keys()]).toEqual([...b.files.keys()]);
    for (const [k, v] of a.files) expect(Buffer.from(v).equals(Buffer.from(b.files.get(k)!)), k).toBe(true);
    expect(a.coverage.writes.served.map((w) => w.tool_name)).toEqual(["patch_settings"]);
  });
});
