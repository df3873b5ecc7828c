import { describe, expect, it } from "vitest";
import {
  ITEMS_COVERAGE,
  ITEMS_MODEL,
  ITEMS_SEED,
  itemsEvidence,
} from "../../test/fixtures/bundle/items-model.js";
import { generateTasks } from "../tasks/generate-tasks.js";
import { TasksFileSchema } from "../tasks/task-schema.js";
import { canonicalJson } from "../util/canonical-json.js";
import { collectAssets, sha256Hex } from "./bundle-assets.js";
import { ManifestSchema } from "./bundle-schema.js";
import { type BundleContent, bundleName, renderBundleFiles } from "./render-bundle.js";
import { toolsFromModel } from "./tool-definitions.js";

const text = (b: Uint8Array | undefined) => new TextDecoder().decode(b);

function reverseKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reverseKeys);
  if (v === null || typeof v !== "object") return v;
  return Object.fromEntries(
    Object.entries(v)
      .reverse()
      .map(([k, x]) => [k, reverseKeys(x)]),
  );
}

function content(): BundleContent {
  const evidence = itemsEvidence();
  return {
    name: bundleName(evidence),
    evidence,
    sources: [{ evidence_id: evidence.evidence_id, sha256: sha256Hex(canonicalJson(evidence)) }],
    model: ITEMS_MODEL,
    seed: ITEMS_SEED,
    coverage: ITEMS_COVERAGE,
  };
}

describe("renderBundleFiles", () => {
  it("renders every file of section 5, sorted by path", () => {
    const files = renderBundleFiles(content());
    const assetFiles = [...files.keys()].filter((p) => p.startsWith("assets/"));
    expect([...files.keys()]).toEqual([
      "README.md",
      ...assetFiles,
      "coverage.json",
      "evidence.json",
      "manifest.json",
      "model.json",
      "openapi.json",
      "state.json",
      "tasks.json",
      "tools.json",
    ]);
    expect(assetFiles).toHaveLength(4);
  });

  it("gives identical bytes for the same input, whatever the key order of the input objects", () => {
    const a = renderBundleFiles(content());
    const c = content();
    c.model = reverseKeys(c.model) as typeof c.model;
    c.seed = reverseKeys(c.seed) as typeof c.seed;
    c.coverage = reverseKeys(c.coverage) as typeof c.coverage;
    const b = renderBundleFiles(c);
    expect([...b.keys()]).toEqual([...a.keys()]);
    for (const [path, bytes] of a)
      expect(Buffer.from(b.get(path)!).equals(Buffer.from(bytes)), path).toBe(true);
  });

  it("fingerprints every other file in the manifest and names the sources", () => {
    const files = renderBundleFiles(content());
    const manifest = ManifestSchema.parse(JSON.parse(text(files.get("manifest.json"))));
    expect(manifest.name).toBe("items-basic");
    expect(manifest.files.map((f) => f.path)).toEqual([...files.keys()].filter((p) => p !== "manifest.json"));
    for (const f of manifest.files) {
      expect(f.sha256).toBe(sha256Hex(files.get(f.path)!));
      expect(f.bytes).toBe(files.get(f.path)!.byteLength);
    }
    expect(manifest.sources).toEqual([
      { evidence_id: "ev_0123456789abcdef", sha256: sha256Hex(text(files.get("evidence.json"))) },
    ]);
  });

  it("writes canonical JSON with a trailing newline and the generated tasks", () => {
    const files = renderBundleFiles(content());
    for (const [path, bytes] of files) {
      if (!path.endsWith(".json") || path.startsWith("assets/")) continue;
      expect(text(bytes), path).toBe(canonicalJson(JSON.parse(text(bytes))));
    }
    const tasks = TasksFileSchema.parse(JSON.parse(text(files.get("tasks.json"))));
    const c = content();
    expect(tasks).toEqual(generateTasks(c.model, c.seed, toolsFromModel(c.model)));
    expect(JSON.parse(text(files.get("state.json")))).toEqual({ schema_version: 1, ...ITEMS_SEED });
  });

  it("writes a README with served tools, withheld writes and how to run", () => {
    const readme = text(renderBundleFiles(content()).get("README.md"));
    expect(readme).toContain("# items-basic — apptwin environment");
    expect(readme).toContain("| `get_items` | `GET /api/items` | state | yes |");
    expect(readme).toContain("| `post_api_login` | `POST /api/login` | replay | no |");
    expect(readme).toContain(
      "| `patch_items_by_id` | `PATCH /api/items/{id}` | not_read_back | read the item back with GET /api/items/{id} after the PATCH |",
    );
    expect(readme).toContain("apptwin serve <this-directory>");
    expect(readme).not.toMatch(/\/work\/|\/tmp\//);
  });
});

describe("collectAssets", () => {
  it("keeps app-origin 2xx page assets, the latest per URL (path and query), content-addressed", () => {
    const { assets, files } = collectAssets(itemsEvidence());
    const js = new TextEncoder().encode("console.log(2)");
    const v1 = new TextEncoder().encode("console.log(1)");
    expect(assets).toEqual([
      {
        path: "/items",
        file: `assets/${sha256Hex("<!doctype html><title>Items</title>").slice(0, 16)}.html`,
        content_type: "text/html; charset=utf-8",
        status: 200,
      },
      {
        path: "/static/items.js",
        file: `assets/${sha256Hex(js).slice(0, 16)}.js`,
        content_type: "text/javascript",
        status: 200,
      },
      {
        path: "/static/items.js?v=1",
        file: `assets/${sha256Hex(v1).slice(0, 16)}.js`,
        content_type: "text/javascript",
        status: 200,
      },
      {
        path: "/static/style.css",
        file: `assets/${sha256Hex("body{}").slice(0, 16)}.css`,
        content_type: "text/css",
        status: 200,
      },
    ]);
    expect(text(files.get(assets[1]!.file))).toBe("console.log(2)");
  });
});

describe("bundleName", () => {
  it("prefers the flag, then the evidence's name (scenario, HAR file), then app", () => {
    const e = itemsEvidence();
    expect(bundleName(e, "mine")).toBe("mine");
    expect(bundleName(e)).toBe("items-basic");
    const har = (fileName: string) =>
      bundleName({
        ...e,
        source: { kind: "har", scenario: null, har: { file_name: fileName, creator: "c" }, merged: null },
      });
    expect(har("shop recording.har")).toBe("shop-recording");
    expect(har(".har")).toBe("app");
  });
});
