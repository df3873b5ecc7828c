/** `apptwin build --no-infer`: the inferred item routes are left out of the bundle; without it they are labelled. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import Build from "../src/commands/build.js";
import { buildEvidence } from "./fixtures/evidence/build-evidence.js";

const root = join(import.meta.dirname, "..");
const dir = mkdtempSync(join(tmpdir(), "apptwin-infer-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const tags = [
  { id: 1, label: "home" },
  { id: 2, label: "work" },
];
const evidence = join(dir, "ev.json");
writeFileSync(
  evidence,
  JSON.stringify(
    buildEvidence([
      {
        path: "/api/items",
        status: 200,
        res: [
          { id: 1, title: "Milk" },
          { id: 2, title: "Bread" },
        ],
      },
      { path: "/api/items/1", status: 200, res: { id: 1, title: "Milk" } },
      { path: "/api/tags", status: 200, res: tags },
    ]),
  ),
);

async function build(out: string, ...extra: string[]): Promise<{ serving: string; tool_name: string }[]> {
  const log = vi.spyOn(console, "log").mockImplementation(() => {});
  try {
    await Build.run(["--evidence", evidence, "--out", out, ...extra], root);
  } finally {
    log.mockRestore();
  }
  return JSON.parse(readFileSync(join(out, "coverage.json"), "utf8")).reads;
}

describe("apptwin build --no-infer", () => {
  it("labels the inferred route in coverage by default and leaves it out with --no-infer", async () => {
    const reads = await build(join(dir, "on"));
    expect(reads.find((r) => r.tool_name === "get_tags_by_id")?.serving).toBe("inferred");
    const off = await build(join(dir, "off"), "--no-infer");
    expect(off.map((r) => r.tool_name)).not.toContain("get_tags_by_id");
    expect(off.map((r) => r.serving)).not.toContain("inferred");
  });
});

describe("a --no-infer bundle rebuilt from its own evidence.json", () => {
  it("records the option in its manifest and rebuilds to the same bytes, file by file", async () => {
    const first = join(dir, "first");
    await build(first, "--no-infer");
    const manifest = JSON.parse(readFileSync(join(first, "manifest.json"), "utf8"));
    expect(manifest.build_options).toEqual({ infer: false });
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      await Build.run(["--evidence", join(first, "evidence.json"), "--out", join(dir, "again")], root);
    } finally {
      log.mockRestore();
    }
    for (const f of manifest.files as { path: string }[])
      expect(readFileSync(join(dir, "again", f.path)).equals(readFileSync(join(first, f.path))), f.path).toBe(
        true,
      );
    expect(
      readFileSync(join(dir, "again", "manifest.json")).equals(readFileSync(join(first, "manifest.json"))),
    ).toBe(true);
  });

  it("a default build records no option (its bytes as before)", async () => {
    await build(join(dir, "plain"));
    expect(
      JSON.parse(readFileSync(join(dir, "plain", "manifest.json"), "utf8")).build_options,
    ).toBeUndefined();
  });
});
