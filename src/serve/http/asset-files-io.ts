/**
 * The twin's recorded assets: only paths the manifest lists are served, and
 * each file must resolve (symlinks followed) inside the bundle's assets
 * folder, so no request can read a file outside it.
 */
import { readFile, realpath } from "node:fs/promises";
import { isAbsolute, relative, resolve, sep } from "node:path";
import type { TwinAsset } from "../twin-bundle.js";

/** A loaded asset ready to send. */
export interface LoadedAsset {
  status: number;
  content_type: string;
  bytes: Buffer;
}

/** True when `child` is `parent` or lies below it. */
function inside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) && !rel.split(sep).includes("..");
}

/** Looks up recorded assets by URL path and reads them from the assets folder, confined to it. */
export class AssetFiles {
  private readonly byPath: Map<string, TwinAsset>;
  /** The assets recorded under each URL path, whatever their query. */
  private readonly byPathname = new Map<string, TwinAsset[]>();

  constructor(
    assets: TwinAsset[],
    private readonly assetsDir: string | null,
  ) {
    this.byPath = new Map(assets.map((a) => [a.path, a]));
    for (const a of assets) {
      const pathname = a.path.split("?")[0]!;
      this.byPathname.set(pathname, [...(this.byPathname.get(pathname) ?? []), a]);
    }
  }

  /**
   * The asset answering this URL path and query (`search` with its "?", or
   * ""): the one recorded at exactly that URL, else the one recorded at the
   * path without a query, else the only one recorded at the path; or undefined.
   */
  find(path: string, search = ""): TwinAsset | undefined {
    const exact = this.byPath.get(path + search);
    if (exact || search === "") return exact ?? this.only(path);
    return this.byPath.get(path) ?? this.only(path);
  }

  private only(pathname: string): TwinAsset | undefined {
    const all = this.byPathname.get(pathname);
    return all?.length === 1 ? all[0] : undefined;
  }

  /** Every asset path, sorted. */
  paths(): string[] {
    return [...this.byPath.keys()].sort();
  }

  /** Reads an asset's file; null when it is missing or would leave the assets folder. */
  async load(asset: TwinAsset): Promise<LoadedAsset | null> {
    if (this.assetsDir === null) return null;
    const name = asset.file.startsWith("assets/") ? asset.file.slice("assets/".length) : asset.file;
    if (name.includes("/") || name.includes("\\") || name.includes("..") || name.includes("\0")) return null;
    try {
      const root = await realpath(this.assetsDir);
      const real = await realpath(resolve(root, name));
      if (!inside(root, real)) return null;
      return { status: asset.status, content_type: asset.content_type, bytes: await readFile(real) };
    } catch {
      return null;
    }
  }
}
