/**
 * The bundle's file-system edge: writing a rendered bundle into place
 * atomically (built in a temporary sibling, renamed; an existing destination
 * refused unless forced), writing the `.tgz`, and reading bundle files back.
 */
import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { FileError } from "../errors/user-error.js";
import { assertDestinationFree, writeDirAtomic, writeFileAtomic } from "../util/atomic-write.js";

/** Writes every file of a rendered bundle into `dest` atomically; an existing `dest` is refused unless `force`. */
export async function writeBundle(
  dest: string,
  files: ReadonlyMap<string, Uint8Array>,
  opts: { force: boolean },
): Promise<void> {
  await writeDirAtomic(
    dest,
    async (tmp) => {
      for (const [path, bytes] of files) {
        const target = join(tmp, ...path.split("/"));
        await mkdir(dirname(target), { recursive: true });
        await writeFile(target, bytes, { mode: 0o644 });
      }
    },
    opts,
  );
}

/** Writes the packed bundle to `path` atomically; an existing file is refused unless `force`. */
export async function writePack(path: string, bytes: Uint8Array, opts: { force: boolean }): Promise<void> {
  await assertDestinationFree(path, opts);
  await writeFileAtomic(path, bytes);
}

/** Throws a FileError unless `dir` is an existing directory. */
export async function assertBundleDir(dir: string): Promise<void> {
  const info = await stat(dir).catch(() => null);
  if (info === null)
    throw new FileError(
      "bundle_not_found",
      `${dir}: no such bundle directory; build one with apptwin build --evidence FILE --out DIR`,
    );
  if (!info.isDirectory()) throw new FileError("not_a_bundle", `${dir}: is a file, not a bundle directory`);
}

/** The bytes of one bundle file (a `/`-separated bundle path), or null when it does not exist. */
export async function readBundleFile(dir: string, path: string): Promise<Uint8Array | null> {
  try {
    return new Uint8Array(await readFile(join(dir, ...path.split("/"))));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "EISDIR" || code === "ENOTDIR") return null;
    throw new FileError("file_unreadable", `${join(dir, path)}: cannot be read (${code ?? String(error)})`);
  }
}
