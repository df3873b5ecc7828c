/**
 * A deterministic `.tgz` of a bundle, built in memory from its files: ustar
 * headers written by node-tar's `Header` with sorted entries, a fixed mtime,
 * owner 0:0 with no names, normalised modes and no pax headers, then gzip
 * with no time in its header and a fixed OS byte. Same files, same bytes.
 */
import { gzipSync } from "node:zlib";
import { Header } from "tar";
import { UserError } from "../errors/user-error.js";

/** The mtime of every entry: 2000-01-01T00:00:00Z. */
export const PACK_MTIME = new Date(Date.UTC(2000, 0, 1));

const BLOCK = 512;

function header(path: string, type: "File" | "Directory", size: number): Buffer {
  const h = new Header({
    path,
    type,
    size,
    mode: type === "Directory" ? 0o755 : 0o644,
    uid: 0,
    gid: 0,
    uname: "",
    gname: "",
    mtime: PACK_MTIME,
  });
  const block = Buffer.alloc(BLOCK);
  if (h.encode(block, 0)) throw new Error(`pack: path too long for a plain ustar header: ${path}`);
  return block;
}

function padding(size: number): Buffer {
  const rest = size % BLOCK;
  return Buffer.alloc(rest === 0 ? 0 : BLOCK - rest);
}

/** A folder name a plain ustar header holds: printable ASCII, 1 to 100 characters (node-tar needs pax otherwise). */
const USTAR_NAME = /^[\x20-\x7e]{1,100}$/;

/** The tar archive of `files` under the folder `root`, directories first-seen, entries sorted by path. */
export function packTar(root: string, files: ReadonlyMap<string, Uint8Array>): Buffer {
  // The root is the user's --out name; the bundle's own paths are short ASCII by construction.
  if (!USTAR_NAME.test(root))
    throw new UserError(
      "unpackable_name",
      `--pack cannot store the folder name ${JSON.stringify(root)} in a plain ustar header (ASCII only, at most 100 characters per name); choose another --out or leave out --pack`,
    );
  const chunks: Buffer[] = [];
  const dirs = new Set<string>();
  const paths = [...files.keys()].sort();
  const addDir = (dir: string): void => {
    if (dirs.has(dir)) return;
    dirs.add(dir);
    chunks.push(header(`${dir}/`, "Directory", 0));
  };
  addDir(root);
  for (const path of paths) {
    const parts = path.split("/");
    for (let i = 1; i < parts.length; i++) addDir(`${root}/${parts.slice(0, i).join("/")}`);
    const data = files.get(path)!;
    chunks.push(
      header(`${root}/${path}`, "File", data.byteLength),
      Buffer.from(data),
      padding(data.byteLength),
    );
  }
  chunks.push(Buffer.alloc(BLOCK * 2));
  return Buffer.concat(chunks);
}

/** The gzip of the tar of `files` under `root`: header mtime 0, OS byte 3 (Unix) on every platform. */
export function packTgz(root: string, files: ReadonlyMap<string, Uint8Array>): Buffer {
  const gz = gzipSync(packTar(root, files), { level: 9 });
  // Header bytes 4-7 hold the mtime (zlib writes 0); byte 9 is the OS, which zlib sets per platform.
  gz.writeUInt32LE(0, 4);
  gz[9] = 3;
  return gz;
}
