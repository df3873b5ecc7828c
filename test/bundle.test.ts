/**
 * The bundle end to end without a browser: learned from the hand-built items
 * and boards recordings, built twice and rebuilt from its own evidence.json
 * (identical bytes), written by `apptwin build`/`export` in-process, packed
 * (identical .tgz), read back, and refused when tampered with or too new.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import * as tar from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBundleFiles } from "../src/bundle/build-bundle.js";
import { readBundle } from "../src/bundle/bundle-reader.js";
import Build from "../src/commands/build.js";
import Export from "../src/commands/export.js";
import { parseEvidence, writeEvidence } from "../src/evidence/evidence-io.js";
import { runCommand as run } from "./fixtures/bundle/run-command.js";
import { boardsEvidence } from "./fixtures/evidence/boards-evidence.js";
import { itemsEvidence } from "./fixtures/evidence/items-evidence.js";

const ITEMS_NAME = itemsEvidence().source.scenario?.name ?? "app";
let dir: string;

async function filesOf(d: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const e of await readdir(d, { recursive: true, withFileTypes: true })) {
    if (e.isFile()) {
      const abs = join(e.parentPath, e.name);
      out.set(relative(d, abs).split("\\").join("/"), await readFile(abs));
    }
  }
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : 1)));
}

function same(a: ReadonlyMap<string, Uint8Array>, b: ReadonlyMap<string, Uint8Array>): string[] {
  const diffs = [...new Set([...a.keys(), ...b.keys()])].filter((k) => {
    const x = a.get(k);
    const y = b.get(k);
    return !x || !y || !Buffer.from(x).equals(Buffer.from(y));
  });
  return diffs;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "apptwin-bundle-"));
  await writeEvidence(join(dir, "items.json"), itemsEvidence());
  await writeEvidence(join(dir, "boards.json"), boardsEvidence());
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("buildBundleFiles", () => {
  for (const [name, make] of [
    ["items", itemsEvidence],
    ["boards", boardsEvidence],
  ] as const) {
    it(`${name}: building twice and rebuilding from the bundle's own evidence.json give identical bytes`, () => {
      const first = buildBundleFiles({ evidence: [make()] });
      expect(same(first, buildBundleFiles({ evidence: [make()] }))).toEqual([]);
      const own = parseEvidence(new TextDecoder().decode(first.get("evidence.json")), "evidence.json");
      expect(same(first, buildBundleFiles({ evidence: [own] }))).toEqual([]);
      const text = [...first.entries()]
        .filter(([p]) => p !== "evidence.json")
        .map(([, b]) => new TextDecoder().decode(b))
        .join("\n");
      expect(text).not.toMatch(/\/tmp\/|\/work\/|\\Users\\/);
    });
  }

  it("merges several inputs the same way whatever their order, and names each source", () => {
    const a = { ...itemsEvidence(), evidence_id: "ev_aaaaaaaaaaaaaaaa" };
    const b = { ...itemsEvidence(), evidence_id: "ev_bbbbbbbbbbbbbbbb" };
    const ab = buildBundleFiles({ evidence: [a, b] });
    expect(same(ab, buildBundleFiles({ evidence: [b, a] }))).toEqual([]);
    const manifest = JSON.parse(new TextDecoder().decode(ab.get("manifest.json")));
    expect(manifest.sources.map((s: { evidence_id: string }) => s.evidence_id)).toEqual([
      "ev_aaaaaaaaaaaaaaaa",
      "ev_bbbbbbbbbbbbbbbb",
    ]);
    const evidence = JSON.parse(new TextDecoder().decode(ab.get("evidence.json")));
    expect(evidence.source.kind).toBe("merge");
    expect(evidence.records).toHaveLength(a.records.length * 2);
  });
});

describe("apptwin build", () => {
  it("writes the bundle, prints the coverage summary and refuses an existing destination", async () => {
    const out = join(dir, "items-env");
    const r = await run(Build, ["--evidence", join(dir, "items.json"), "--out", out]);
    expect(r.code).toBe(0);
    const files = await filesOf(out);
    expect(same(files, buildBundleFiles({ evidence: [itemsEvidence()] }))).toEqual([]);
    expect(r.stdout).toContain("Coverage: complete — 6 served from state, 1 replayed, 0 withheld");
    expect(r.stdout).toContain(`Bundle "${ITEMS_NAME}" written to ${out} (${files.size} files)`);
    // The sign-in is replayed (the twin does not check credentials), never withheld.
    expect(r.stdout).not.toContain("withheld post_login");

    const again = await run(Build, ["--evidence", join(dir, "items.json"), "--out", out]);
    expect(again.code).toBe(2);
    expect(again.stderr).toBe(`Error: ${out} already exists; choose another --out or pass --force\n`);
    const forced = await run(Build, ["--evidence", join(dir, "items.json"), "--out", out, "--force"]);
    expect(forced.code).toBe(0);
    expect(same(await filesOf(out), files)).toEqual([]);
  });

  it("answers --json with out, files, coverage counts and the pack; packing twice gives identical bytes", async () => {
    const tgz: Buffer[] = [];
    for (const sub of ["p1", "p2"]) {
      await mkdir(join(dir, sub));
      const out = join(dir, sub, "env");
      const r = await run(Build, ["--evidence", join(dir, "boards.json"), "--out", out, "--pack", "--json"]);
      expect(r.code).toBe(0);
      const json = JSON.parse(r.stdout);
      expect(json.out).toBe(out);
      expect(json.pack).toBe(`${out}.tgz`);
      expect(json.files).toEqual([...(await filesOf(out)).keys()]);
      expect(Object.keys(json.coverage).sort()).toEqual([
        "evidence",
        "replayed",
        "served",
        "status",
        "withheld",
        "withheld_tools",
      ]);
      expect(json.coverage.withheld).toBe(json.coverage.withheld_tools.length);
      tgz.push(await readFile(`${out}.tgz`));
    }
    expect(tgz[0]!.equals(tgz[1]!)).toBe(true);
    expect([...tgz[0]!.subarray(4, 8)]).toEqual([0, 0, 0, 0]);
    // The archive holds exactly the bundle's bytes.
    const x = join(dir, "extracted");
    await mkdir(x);
    await tar.x({ file: join(dir, "p1", "env.tgz"), cwd: x });
    expect(same(await filesOf(join(x, "env")), await filesOf(join(dir, "p1", "env")))).toEqual([]);
  });

  it("export is the same command and writes the same bytes", async () => {
    const a = join(dir, "exp-a");
    const r = await run(Export, ["--evidence", join(dir, "items.json"), "--out", a]);
    expect(r.code).toBe(0);
    expect(same(await filesOf(a), buildBundleFiles({ evidence: [itemsEvidence()] }))).toEqual([]);
  });

  it("refuses a --pack name a ustar header cannot hold before writing anything", async () => {
    for (const name of ["envé", "e".repeat(120)]) {
      const out = join(dir, name);
      const r = await run(Build, ["--evidence", join(dir, "items.json"), "--out", out, "--pack"]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `Error: --pack cannot store the folder name ${JSON.stringify(name)} in a plain ustar header (ASCII only, at most 100 characters per name); choose another --out or leave out --pack\n`,
      );
      expect(await readdir(dir)).not.toContain(name);
    }
  });

  it("refuses an --out whose parent folder does not exist, naming it", async () => {
    const parent = join(dir, "no-such-parent");
    const r = await run(Build, ["--evidence", join(dir, "items.json"), "--out", join(parent, "env")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`Error: ${parent}: no such folder for --out; create it first\n`);
  });

  it("with --force replaces only a bundle: not a file, not a folder without manifest.json", async () => {
    const file = join(dir, "evidence-copy.json");
    await writeFile(file, "{}\n");
    const onFile = await run(Build, ["--evidence", join(dir, "items.json"), "--out", file, "--force"]);
    expect(onFile.code).toBe(2);
    expect(onFile.stderr).toBe(
      `Error: ${file} exists and is not a directory; --force only replaces a bundle directory (choose another --out)\n`,
    );
    expect(await readFile(file, "utf8")).toBe("{}\n");
    const folder = join(dir, "my-notes");
    await mkdir(folder);
    await writeFile(join(folder, "keep.txt"), "mine\n");
    const onFolder = await run(Build, ["--evidence", join(dir, "items.json"), "--out", folder, "--force"]);
    expect(onFolder.code).toBe(2);
    expect(onFolder.stderr).toBe(
      `Error: ${folder} is a directory that is not an apptwin bundle (no manifest.json); --force only replaces a bundle (choose another --out)\n`,
    );
    expect(await readFile(join(folder, "keep.txt"), "utf8")).toBe("mine\n");
  });

  it("refuses a --name that cannot name a bundle, saying what would be valid", async () => {
    const r = await run(Build, [
      "--evidence",
      join(dir, "items.json"),
      "--out",
      join(dir, "named"),
      "--name",
      "a/b",
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'Error: --name must be 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit (it names the bundle in URIs such as apptwin://bundles/<name>); got "a/b"\n',
    );
  });

  it("refuses a missing evidence file with its name", async () => {
    const r = await run(Build, ["--evidence", join(dir, "nope.json"), "--out", join(dir, "x")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`Error: ${join(dir, "nope.json")}: no such evidence file\n`);
  });
});

describe("readBundle", () => {
  it("reads a built bundle back with its model, seed, tools and coverage", async () => {
    const out = join(dir, "read-ok");
    await run(Build, ["--evidence", join(dir, "items.json"), "--out", out]);
    const b = await readBundle(out);
    expect(b.manifest.name).toBe(ITEMS_NAME);
    expect(b.tools.map((t) => t.name)).toContain("get_items");
    expect(b.seed.collections["items"]?.length).toBeGreaterThan(0);
    expect(b.assetsDir).toBe(join(out, "assets"));
  });

  it("refuses a tampered file and a newer manifest version", async () => {
    const out = join(dir, "tampered");
    await run(Build, ["--evidence", join(dir, "items.json"), "--out", out]);
    const model = await readFile(join(out, "model.json"), "utf8");
    await writeFile(join(out, "model.json"), model.replace('"get_items"', '"get_itemz"'));
    await expect(readBundle(out)).rejects.toThrow(
      `${out}/model.json: does not match its sha256 in manifest.json (the file was changed after the build); rebuild the bundle with apptwin build`,
    );
    const manifest = JSON.parse(await readFile(join(out, "manifest.json"), "utf8"));
    await writeFile(join(out, "manifest.json"), JSON.stringify({ ...manifest, schema_version: 2 }));
    await expect(readBundle(out)).rejects.toThrow(
      `${out}/manifest.json: schema_version 2 is newer than this apptwin reads (1); upgrade apptwin to read it`,
    );
    await expect(readBundle(join(dir, "no-bundle"))).rejects.toThrow(
      `${join(dir, "no-bundle")}: no such bundle directory; build one with apptwin build --evidence FILE --out DIR`,
    );
  });
});
