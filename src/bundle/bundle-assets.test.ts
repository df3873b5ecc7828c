import { describe, expect, it } from "vitest";
import { buildEvidence } from "../../test/fixtures/evidence/build-evidence.js";
import { collectAssets } from "./bundle-assets.js";

describe("collectAssets", () => {
  it("bundles every kind learning keeps aside as an asset, a web manifest and media included", () => {
    const evidence = buildEvidence([
      {
        path: "/items",
        status: 200,
        type: "document",
        resRaw: { text: "<h1>Items</h1>", mime: "text/html" },
      },
      {
        path: "/app.webmanifest",
        status: 200,
        type: "manifest",
        resRaw: { text: '{"name":"Items"}', mime: "application/manifest+json" },
      },
      { path: "/ding.mp3", status: 200, type: "media", resRaw: { text: "ID3", mime: "audio/mpeg" } },
      { path: "/api/items", status: 200, type: "fetch", res: { data: [], total: 0 } },
    ]);
    const { assets } = collectAssets(evidence);
    expect(assets.map((a) => [a.path, a.content_type, a.file.split(".").pop()])).toEqual([
      ["/app.webmanifest", "application/manifest+json", "webmanifest"],
      ["/ding.mp3", "audio/mpeg", "mp3"],
      ["/items", "text/html", "html"],
    ]);
  });

  it("bundles the images and fonts the browser loaded by itself (a favicon is 'other'), nothing else of that kind", () => {
    const evidence = buildEvidence([
      { path: "/favicon.ico", status: 200, type: "other", resRaw: { text: "ico", mime: "image/x-icon" } },
      { path: "/beacon", status: 200, type: "other", resRaw: { text: "ok", mime: "text/plain" } },
    ]);
    expect(collectAssets(evidence).assets.map((a) => [a.path, a.content_type])).toEqual([
      ["/favicon.ico", "image/x-icon"],
    ]);
  });
});
