import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FileError } from "../errors/user-error.js";
import { assertFileDestination, writeDirAtomic, writeFileAtomic } from "./atomic-write.js";

const fresh = (): string => mkdtempSync(join(tmpdir(), "apptwin-atomic-"));

describe("writeFileAtomic", () => {
  it("writes the bytes and leaves no temporary sibling", async () => {
    const dir = fresh();
    await writeFileAtomic(join(dir, "a.json"), "one\n");
    await writeFileAtomic(join(dir, "a.json"), new Uint8Array([116, 119, 111]));
    expect(readFileSync(join(dir, "a.json"), "utf8")).toBe("two");
    expect(readdirSync(dir)).toEqual(["a.json"]);
  });

  it("removes the temporary sibling when the rename fails", async () => {
    const dir = fresh();
    mkdirSync(join(dir, "taken"));
    writeFileSync(join(dir, "taken", "x"), "x");
    await expect(writeFileAtomic(join(dir, "taken"), "data")).rejects.toThrow();
    expect(readdirSync(dir)).toEqual(["taken"]);
  });
});

describe("writeDirAtomic", () => {
  it("renames a complete directory into place", async () => {
    const dir = fresh();
    const dest = join(dir, "bundle");
    await writeDirAtomic(dest, async (tmp) => writeFileSync(join(tmp, "m.json"), "{}"), { force: false });
    expect(readdirSync(dest)).toEqual(["m.json"]);
    expect(readdirSync(dir)).toEqual(["bundle"]);
  });

  it("refuses an existing destination without force, with the exact message", async () => {
    const dir = fresh();
    const dest = join(dir, "bundle");
    mkdirSync(dest);
    const err = await writeDirAtomic(dest, async () => {}, { force: false }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FileError);
    expect((err as FileError).code).toBe("destination_exists");
    expect((err as FileError).message).toBe(`${dest} already exists; choose another --out or pass --force`);
  });

  it("replaces with force only after the new one is complete, and keeps the old one when filling fails", async () => {
    const dir = fresh();
    const dest = join(dir, "bundle");
    mkdirSync(dest);
    writeFileSync(join(dest, "old.txt"), "old");
    await expect(
      writeDirAtomic(
        dest,
        async () => {
          throw new Error("fill failed");
        },
        { force: true },
      ),
    ).rejects.toThrow("fill failed");
    expect(readdirSync(dest)).toEqual(["old.txt"]);
    await writeDirAtomic(dest, async (tmp) => writeFileSync(join(tmp, "new.txt"), "new"), { force: true });
    expect(readdirSync(dest)).toEqual(["new.txt"]);
    expect(readdirSync(dir)).toEqual(["bundle"]);
  });
});

describe("assertFileDestination", () => {
  const refusal = (p: Promise<void>) =>
    p.then(
      () => null,
      (e: unknown) => e as FileError,
    );

  it("refuses a --out whose folder does not exist, before anything is written", async () => {
    const dir = fresh();
    const dest = join(dir, "missing", "evidence.json");
    const err = await refusal(assertFileDestination(dest, { force: true }));
    expect(err).toBeInstanceOf(FileError);
    expect(err?.code).toBe("out_parent_missing");
    expect(err?.message).toBe(`${join(dir, "missing")}: no such folder for --out; create it first`);
  });

  it("refuses a directory as a file destination, even with --force", async () => {
    const dir = fresh();
    mkdirSync(join(dir, "taken"));
    const err = await refusal(assertFileDestination(join(dir, "taken"), { force: true }));
    expect(err?.code).toBe("destination_is_directory");
    expect(err?.message).toBe(
      `${join(dir, "taken")} is a directory; --out names the file to write (for example ${join(dir, "taken", "evidence.json")})`,
    );
    expect(readdirSync(join(dir, "taken"))).toEqual([]);
  });

  it("refuses an existing file without --force and accepts it with --force or when free", async () => {
    const dir = fresh();
    writeFileSync(join(dir, "a.json"), "{}");
    expect((await refusal(assertFileDestination(join(dir, "a.json"), { force: false })))?.code).toBe(
      "destination_exists",
    );
    await expect(assertFileDestination(join(dir, "a.json"), { force: true })).resolves.toBeUndefined();
    await expect(assertFileDestination(join(dir, "b.json"), { force: false })).resolves.toBeUndefined();
  });
});

describe("stale temporaries of killed runs", () => {
  /** The pid of a process that has exited. */
  const deadPid = (): number => {
    const r = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], {
      encoding: "utf8",
    });
    return Number(r.stdout);
  };

  it("removes those of dead processes before writing, and keeps those of live ones", async () => {
    const dir = fresh();
    const dead = deadPid();
    mkdirSync(join(dir, `.bundle.tmp-${dead}-1`));
    writeFileSync(join(dir, `.bundle.tmp-${dead}-1`, "model.json"), "{}");
    writeFileSync(join(dir, `.evidence.json.tmp-${dead}-7`), "half");
    // A live process's temporary (the test runner's parent) may be a write in progress: it stays.
    const live = `.other.tmp-${process.ppid}-2`;
    writeFileSync(join(dir, live), "in progress");
    writeFileSync(join(dir, ".notes.tmp-keep"), "not ours");
    await writeDirAtomic(join(dir, "bundle"), async (tmp) => writeFileSync(join(tmp, "a"), "a"), {
      force: false,
    });
    expect(readdirSync(dir).sort()).toEqual([live, ".notes.tmp-keep", "bundle"].sort());
    writeFileSync(join(dir, `.evidence.json.tmp-${dead}-8`), "half");
    await writeFileAtomic(join(dir, "evidence.json"), "{}\n");
    expect(readdirSync(dir).sort()).toEqual([live, ".notes.tmp-keep", "bundle", "evidence.json"].sort());
  });
});
