/**
 * Atomic writes: every file and directory apptwin produces is built beside
 * its destination and renamed into place, so a crash never leaves half a
 * file or half a bundle behind; what a killed run left beside a destination
 * is removed before the next write there.
 */
import { existsSync } from "node:fs";
import { lstat, mkdir, open, readdir, rename, rm, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { FileError } from "../errors/user-error.js";

let counter = 0;

function tempSibling(dest: string): string {
  counter += 1;
  return join(dirname(dest), `.${basename(dest)}.tmp-${process.pid}-${counter}`);
}

/** A temporary sibling's name: `.<name>.tmp-<pid>-<n>`, the pid of the process that made it. */
const TEMP_NAME = /^\..+\.tmp-(\d+)-\d+$/;

/** True while a process with this pid runs (EPERM: it runs, as another user). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes the temporary siblings that processes killed mid-write (kill -9, a
 * crash) left in `dest`'s folder: hidden, possibly a whole half-written bundle,
 * never removed by anyone else. Those of live processes may be writes in progress and stay.
 */
export async function removeStaleTemporaries(dest: string): Promise<void> {
  const folder = dirname(dest);
  const names = await readdir(folder).catch(() => [] as string[]);
  for (const name of names) {
    const pid = Number(TEMP_NAME.exec(name)?.[1] ?? Number.NaN);
    if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid || isAlive(pid)) continue;
    await rm(join(folder, name), { recursive: true, force: true }).catch(() => undefined);
  }
}

/** Writes `data` to a temporary sibling, fsyncs it and renames it over `path`; the sibling is removed on failure. */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  await removeStaleTemporaries(path);
  const tmp = tempSibling(path);
  try {
    const handle = await open(tmp, "wx", 0o644);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}

/** The refusal every command gives for an existing destination without `--force`. */
export function destinationExistsError(dest: string): FileError {
  return new FileError("destination_exists", `${dest} already exists; choose another --out or pass --force`);
}

/** Throws `destination_exists` when `dest` exists (even as a dangling link) and `force` is false. */
export async function assertDestinationFree(dest: string, opts: { force: boolean }): Promise<void> {
  if (opts.force) return;
  const exists = await lstat(dest).then(
    () => true,
    () => false,
  );
  if (exists) throw destinationExistsError(dest);
}

/** Throws `out_parent_missing` unless the folder `dest` would be written into exists. */
export async function assertOutFolder(dest: string): Promise<void> {
  const parent = await stat(dirname(dest)).catch(() => null);
  if (!parent?.isDirectory())
    throw new FileError("out_parent_missing", `${dirname(dest)}: no such folder for --out; create it first`);
}

/**
 * Checks a file destination before any work is done (a capture's writes reach
 * the app, so a bad --out must be refused first): its folder exists, it is not
 * a directory (even with `force`), and it is free unless `force`.
 */
export async function assertFileDestination(
  dest: string,
  opts: { force: boolean; example?: string },
): Promise<void> {
  await assertOutFolder(dest);
  if ((await stat(dest).catch(() => null))?.isDirectory())
    throw new FileError(
      "destination_is_directory",
      `${dest} is a directory; --out names the file to write (for example ${join(dest, opts.example ?? "evidence.json")})`,
    );
  await assertDestinationFree(dest, opts);
}

/**
 * Fills a temporary sibling directory with `fill` and renames it to `dest`.
 * An existing `dest` is refused unless `force`, and then replaced only after
 * the new directory is complete.
 */
export async function writeDirAtomic(
  dest: string,
  fill: (tmpDir: string) => Promise<void>,
  opts: { force: boolean },
): Promise<void> {
  await assertDestinationFree(dest, opts);
  await removeStaleTemporaries(dest);
  const tmp = tempSibling(dest);
  await mkdir(tmp, { recursive: false });
  try {
    await fill(tmp);
  } catch (error) {
    await rm(tmp, { recursive: true, force: true });
    throw error;
  }
  if (!existsSync(dest)) {
    try {
      await rename(tmp, dest);
      return;
    } catch (error) {
      await rm(tmp, { recursive: true, force: true });
      throw error;
    }
  }
  // Replace: move the old one aside first, so the swap leaves either the old or the new, never neither.
  const old = tempSibling(dest);
  await rename(dest, old);
  try {
    await rename(tmp, dest);
  } catch (error) {
    await rename(old, dest);
    await rm(tmp, { recursive: true, force: true });
    throw error;
  }
  await rm(old, { recursive: true, force: true });
}
