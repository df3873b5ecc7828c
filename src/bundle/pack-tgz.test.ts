import { gunzipSync } from "node:zlib";
import { Header } from "tar";
import { describe, expect, it } from "vitest";
import { PACK_MTIME, packTgz } from "./pack-tgz.js";

const enc = new TextEncoder();
const files = new Map<string, Uint8Array>([
  ["README.md", enc.encode("# x\n")],
  ["assets/0123456789abcdef.js", enc.encode("a".repeat(700))],
  ["manifest.json", enc.encode("{}\n")],
]);

function entries(tgz: Buffer): {
  path: string;
  type: string;
  mode: number;
  uid: number;
  gid: number;
  mtime: number;
  size: number;
  uname: string;
}[] {
  const tar = gunzipSync(tgz);
  const out = [];
  let off = 0;
  while (off + 512 <= tar.length) {
    const h = new Header(tar, off);
    if (h.nullBlock) break;
    out.push({
      path: h.path!,
      type: h.type,
      mode: h.mode!,
      uid: h.uid!,
      gid: h.gid!,
      mtime: h.mtime!.getTime(),
      size: h.size!,
      uname: h.uname ?? "",
    });
    off += 512 + Math.ceil(h.size! / 512) * 512;
  }
  return out;
}

describe("packTgz", () => {
  it("gives identical bytes twice, whatever the map's insertion order", () => {
    const a = packTgz("bundle", files);
    const b = packTgz("bundle", new Map([...files].reverse()));
    expect(a.equals(b)).toBe(true);
  });

  it("writes a gzip header with no time and a fixed OS byte", () => {
    const gz = packTgz("bundle", files);
    expect([...gz.subarray(0, 4)]).toEqual([0x1f, 0x8b, 8, 0]);
    expect([...gz.subarray(4, 8)]).toEqual([0, 0, 0, 0]);
    expect(gz[9]).toBe(3);
  });

  it("holds sorted entries with fixed mtime, owner 0:0, normalised modes and no pax headers", () => {
    const list = entries(packTgz("bundle", files));
    expect(list.map((e) => `${e.type} ${e.path}`)).toEqual([
      "Directory bundle/",
      "File bundle/README.md",
      "Directory bundle/assets/",
      "File bundle/assets/0123456789abcdef.js",
      "File bundle/manifest.json",
    ]);
    for (const e of list) {
      expect(e.mtime).toBe(PACK_MTIME.getTime());
      expect([e.uid, e.gid, e.uname]).toEqual([0, 0, ""]);
      expect(e.mode).toBe(e.type === "Directory" ? 0o755 : 0o644);
    }
    expect(list[3]!.size).toBe(700);
  });
});
