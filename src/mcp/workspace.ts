/**
 * The workspace of `apptwin mcp` (`APPTWIN_WORKSPACE`, default `./.apptwin`):
 * where captures, their coverage and the index of exported bundles persist,
 * so they outlive the server. A capture is a folder `captures/<id>/` that
 * counts only once its `capture.json` is written (last), so a capture cut
 * short never shows up half-made. The folder writes its own `.gitignore`:
 * evidence is redacted, but it is still the app's data.
 */
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { z } from "zod";
import { writeFileAtomic } from "../util/atomic-write.js";
import { canonicalJson } from "../util/canonical-json.js";

/** What `capture.json` records about one capture or import. */
export const CaptureMetaSchema = z.strictObject({
  schema_version: z.literal(1),
  id: z.string(),
  kind: z.enum(["capture", "import"]),
  /** The scenario's name, or the HAR file's base name. */
  name: z.string(),
  evidence_id: z.string(),
  verdict: z.enum(["passed", "failed", "incomplete"]),
  coverage_status: z.enum(["empty", "partial", "complete"]),
  created_at: z.string(),
});
export type CaptureMeta = z.infer<typeof CaptureMetaSchema>;

/** One exported bundle the workspace knows, by its name. */
export const BundleEntrySchema = z.strictObject({ name: z.string(), path: z.string() });
export type BundleEntry = z.infer<typeof BundleEntrySchema>;

const BundleIndexSchema = z.strictObject({
  schema_version: z.literal(1),
  bundles: z.array(BundleEntrySchema),
});

/** A capture id: the scenario name made safe for a folder and a URI, and a counter. */
const ID = /^[a-z0-9][a-z0-9-]{0,62}-\d+$/;

function jsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Makes a name safe for a capture id (`Items Full!` → `items-full`). */
export function idStem(name: string): string {
  const stem = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 48)
    .replace(/-+$/, "");
  return stem === "" ? "capture" : stem;
}

/** The workspace folder and what is in it. */
export class Workspace {
  readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  /** The workspace named by `APPTWIN_WORKSPACE`, else `./.apptwin` under `cwd`. */
  static fromEnv(env: Record<string, string | undefined>, cwd: string): Workspace {
    const named = env["APPTWIN_WORKSPACE"];
    return new Workspace(named !== undefined && named !== "" ? resolve(cwd, named) : join(cwd, ".apptwin"));
  }

  /** Creates the folder and its `.gitignore` when missing. */
  async ensure(): Promise<void> {
    await mkdir(join(this.root, "captures"), { recursive: true });
    await writeFile(join(this.root, ".gitignore"), "# apptwin workspace: captures and their coverage\n*\n", {
      flag: "wx",
    }).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== "EEXIST") throw e;
    });
  }

  captureDir(id: string): string {
    return join(this.root, "captures", id);
  }

  evidencePath(id: string): string {
    return join(this.captureDir(id), "evidence.json");
  }

  coveragePath(id: string): string {
    return join(this.captureDir(id), "coverage.json");
  }

  /** Claims a fresh id for `name` by creating its folder (never reusing one, even of a capture cut short). */
  async claimCapture(name: string): Promise<string> {
    await this.ensure();
    const stem = idStem(name);
    const taken = (await readdir(join(this.root, "captures"))).filter((d) => d.startsWith(`${stem}-`));
    let n = 1 + Math.max(0, ...taken.map((d) => Number(d.slice(stem.length + 1))).filter(Number.isInteger));
    for (;;) {
      const id = `${stem}-${n}`;
      try {
        await mkdir(this.captureDir(id));
        return id;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
        n += 1;
      }
    }
  }

  /** Marks a capture complete: its coverage and then its `capture.json`. */
  async landCapture(meta: CaptureMeta, coverage: unknown): Promise<void> {
    await writeFileAtomic(this.coveragePath(meta.id), canonicalJson(coverage));
    await writeFileAtomic(join(this.captureDir(meta.id), "capture.json"), canonicalJson(meta));
  }

  /** The capture `id`, or null when there is no complete capture of that id. */
  async capture(id: string): Promise<CaptureMeta | null> {
    if (!ID.test(id)) return null;
    const text = await readFile(join(this.captureDir(id), "capture.json"), "utf8").catch(() => null);
    if (text === null) return null;
    const parsed = CaptureMetaSchema.safeParse(jsonOrNull(text));
    return parsed.success ? parsed.data : null;
  }

  /** Every complete capture, by id. */
  async captures(): Promise<CaptureMeta[]> {
    const dirs = await readdir(join(this.root, "captures")).catch(() => [] as string[]);
    const metas = await Promise.all(dirs.sort().map((d) => this.capture(d)));
    return metas.filter((m): m is CaptureMeta => m !== null);
  }

  /** Every exported bundle the workspace recorded, by name. */
  async bundles(): Promise<BundleEntry[]> {
    const text = await readFile(join(this.root, "bundles.json"), "utf8").catch(() => null);
    if (text === null) return [];
    const parsed = BundleIndexSchema.safeParse(jsonOrNull(text));
    return parsed.success ? parsed.data.bundles : [];
  }

  /** The bundle of that name, or null. */
  async bundle(name: string): Promise<BundleEntry | null> {
    return (await this.bundles()).find((b) => b.name === name) ?? null;
  }

  /** Records an exported bundle; a later export of the same name replaces the entry. */
  async recordBundle(entry: BundleEntry): Promise<void> {
    await this.ensure();
    const bundles = (await this.bundles()).filter((b) => b.name !== entry.name);
    bundles.push(entry);
    bundles.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    await writeFileAtomic(join(this.root, "bundles.json"), canonicalJson({ schema_version: 1, bundles }));
  }
}
