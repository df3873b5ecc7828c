import { describe, expect, it } from "vitest";
import { buildEvidence } from "../../test/fixtures/evidence/build-evidence.js";
import { learn } from "../learn/learn.js";
import { memoryHandle } from "./memory-episode-store.js";
import { createEpisode } from "./runtime/create-episode.js";
import { TestDouble } from "./test-double.js";

describe("a replayed answer recorded without its body", () => {
  const e = buildEvidence([
    { path: "/api/items", status: 200, res: [{ id: 1 }] },
    { path: "/api/stats", status: 200, res: { open: 1 } },
    { path: "/api/health", status: 200, res: { ok: true } },
  ]);
  e.records[1]!.response!.body = null;
  const { model, seed } = learn(e);
  const double = new TestDouble(model);
  const request = (path: string) => ({ method: "GET", path, query: [], headers: {}, body: null });

  it("is answered without a body and says so in a header", async () => {
    const out = await double.serve(
      memoryHandle(createEpisode(model, seed, { episodeId: "e" })),
      request("/api/stats"),
      {
        via: "http",
      },
    );
    expect(out.kind).toBe("answer");
    if (out.kind !== "answer") return;
    expect([out.answer.status, out.answer.body, out.answer.served_by]).toEqual([200, null, "replay"]);
    expect(out.answer.headers["x-apptwin-body"]).toBe("not-recorded");
    expect(out.answer.headers["x-apptwin-warning"]).toBe(
      'the recording kept no body for GET /api/stats (200); this answer has none. Re-record it with bodies kept (in DevTools, export the HAR "with content").',
    );
  });

  it("leaves every other answer unflagged", async () => {
    const out = await double.serve(
      memoryHandle(createEpisode(model, seed, { episodeId: "f" })),
      request("/api/health"),
      {
        via: "http",
      },
    );
    expect(out.kind === "answer" && out.answer.headers["x-apptwin-body"]).toBe(undefined);
  });
});
