/** Writes with no visible effect: acknowledged (answered as recorded, changing nothing), never counted as served. */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, list } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";
import type { TwinRequest } from "../serve/runtime/twin-types.js";

const ping = (path = "/api/track", res?: unknown): RecordSpec => ({
  method: "POST",
  path,
  status: res === undefined ? 204 : 200,
  req: { page: "/home" },
  ...(res === undefined ? {} : { res }),
});
const settings = (theme: string): RecordSpec => ({ path: "/api/settings", status: 200, res: { theme } });
const request = (method: string, path: string, value?: unknown): TwinRequest => ({
  method,
  path,
  query: [],
  headers: {},
  body: value === undefined ? null : { kind: "json", value },
});

describe("acknowledged writes", () => {
  it("answers a write that changed nothing any read showed as recorded, in a tier of its own, changing no state", () => {
    const specs = [list([{ id: 1, title: "A" }]), ping(), list([{ id: 1, title: "A" }]), ping()];
    const { model, seed, coverage } = learnSpecs(specs);
    expect(coverage.writes.served).toEqual([]);
    expect(coverage.writes.withheld).toEqual([]);
    expect(coverage.status).toBe("complete");
    expect(coverage.writes.acknowledged).toEqual([
      {
        tool_name: "post_track",
        method: "POST",
        template: "/api/track",
        collection: null,
        observations: 2,
        explain:
          "POST /api/track is acknowledged: the twin answers 204 as recorded and changes nothing, since every read repeated around it (GET /api/things) answered alike before and after the 2 recorded; its effect, if any, is unproven.",
      },
    ]);
    expect(model.endpoints.find((e) => e.tool_name === "post_track")?.serving).toBe("acknowledged");
    const ep = createEpisode(model, seed, { episodeId: "a" });
    const before = handleRequest(model, ep, request("GET", "/api/things"));
    expect(handleRequest(model, ep, request("POST", "/api/track", { page: "/other" }))).toEqual({
      status: 204,
      headers: {},
      body: null,
      served_by: "acknowledged",
      rule: "post_track",
    });
    expect(handleRequest(model, ep, request("GET", "/api/things"))).toEqual(before);
  });

  it("answers a recorded JSON body as recorded", () => {
    const specs = [
      list([{ id: 1, title: "A" }]),
      ping("/api/seen", { ok: true }),
      list([{ id: 1, title: "A" }]),
    ];
    const { model, seed, coverage } = learnSpecs(specs);
    expect(coverage.writes.acknowledged?.map((a) => a.tool_name)).toEqual(["post_seen"]);
    const ep = createEpisode(model, seed, { episodeId: "a" });
    expect(handleRequest(model, ep, request("POST", "/api/seen", { page: "/x" }))).toMatchObject({
      status: 200,
      body: { kind: "json", value: { ok: true } },
      served_by: "acknowledged",
    });
  });

  it("keeps withheld a write a read shows changed something, saying which read and that no recording closes it", () => {
    const save: RecordSpec = { method: "POST", path: "/api/save-theme", status: 204, req: { theme: "dark" } };
    const { coverage } = learnSpecs([settings("light"), save, settings("dark")]);
    expect(coverage.writes.acknowledged).toEqual([]);
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason, w.hint, w.closable])).toEqual([
      [
        "post_save_theme",
        "no_collection",
        "POST /api/save-theme changed what GET /api/settings answers, which is no collection the twin holds; the twin has no rule that applies a write to it, so no recording can close this gap: the write stays withheld",
        false,
      ],
    ]);
  });

  it("keeps withheld a write whose own path is read only after it (what it wrote may have appeared)", () => {
    const put: RecordSpec = { method: "PUT", path: "/files/notes.txt", status: 201, req: { content: "x" } };
    const { coverage } = learnSpecs([put, { path: "/files/notes.txt", status: 200, res: { content: "x" } }]);
    expect(coverage.writes.acknowledged).toEqual([]);
    // The path reads one document: a read of it before the write too would confirm it as a singleton's.
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason, w.closable])).toEqual([
      ["put_files_notes_txt", "not_read_back", true],
    ]);
  });

  it("keeps withheld a write no read was repeated around: nothing shows it changed nothing", () => {
    const { coverage } = learnSpecs([list([{ id: 1, title: "A" }]), ping()]);
    expect(coverage.writes.acknowledged).toEqual([]);
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason, w.closable])).toEqual([
      ["post_track", "no_collection", true],
    ]);
  });

  it("keeps withheld a write whose recorded answers differ", () => {
    const { coverage } = learnSpecs([
      list([{ id: 1, title: "A" }]),
      ping("/api/track", { n: 1 }),
      list([{ id: 1, title: "A" }]),
      ping("/api/track", { n: 2 }),
      list([{ id: 1, title: "A" }]),
    ]);
    expect(coverage.writes.acknowledged).toEqual([]);
    expect(coverage.writes.withheld.map((w) => w.tool_name)).toEqual(["post_track"]);
  });
});
