import { describe, expect, it } from "vitest";
import { AssetFiles } from "./asset-files-io.js";

const asset = (path: string) => ({
  path,
  file: `assets/${"0".repeat(16)}.js`,
  content_type: "text/javascript",
  status: 200,
});

describe("AssetFiles.find", () => {
  const files = new AssetFiles(
    [
      asset("/wp-admin/load-scripts.php?load=a"),
      asset("/wp-admin/load-scripts.php?load=b"),
      asset("/static/app.js"),
      asset("/static/app.js?v=1"),
      asset("/static/only.css?v=9"),
    ],
    null,
  );

  it("answers a URL with the asset recorded at exactly that path and query", () => {
    expect(files.find("/wp-admin/load-scripts.php", "?load=b")?.path).toBe(
      "/wp-admin/load-scripts.php?load=b",
    );
    expect(files.find("/static/app.js", "?v=1")?.path).toBe("/static/app.js?v=1");
  });

  it("falls back to the path recorded without a query, else to the only one recorded at the path", () => {
    expect(files.find("/static/app.js", "?v=2")?.path).toBe("/static/app.js");
    expect(files.find("/static/only.css", "?v=10")?.path).toBe("/static/only.css?v=9");
    expect(files.find("/static/only.css")?.path).toBe("/static/only.css?v=9");
    expect(files.find("/wp-admin/load-scripts.php", "?load=c")).toBeUndefined();
  });
});
