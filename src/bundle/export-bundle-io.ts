/**
 * `apptwin build` as one call, so every way of building (the build and export
 * commands, and any tool that exports a bundle) writes the same bytes: read
 * the evidence files, build, write the bundle atomically, optionally pack it
 * beside itself, and summarise.
 */
import { lstat, readdir, readFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { type EvidenceVerdict, verdictSentence } from "../coverage/evidence-verdict.js";
import { FileError } from "../errors/user-error.js";
import { readEvidence } from "../evidence/evidence-io.js";
import { assertDestinationFree, assertOutFolder } from "../util/atomic-write.js";
import { buildBundle } from "./build-bundle.js";
import { writeBundle, writePack } from "./bundle-io.js";
import { packTgz } from "./pack-tgz.js";

/** The build summary: where the bundle is, its files, the coverage counts and the pack. */
export interface ExportResult {
  out: string;
  name: string;
  files: string[];
  coverage: {
    status: "empty" | "partial" | "complete";
    served: number;
    replayed: number;
    withheld: number;
    withheld_tools: { tool: string; request: string; reason: string; hint: string }[];
    /** The verdict of the evidence the bundle was learned from, and why it is not `passed`. */
    evidence: EvidenceVerdict;
  };
  /** What the bundle cannot do that its user must know: a page asset cut when recorded, so the twin's UI will not load. */
  warnings: string[];
  pack?: string;
  /** True when nothing was written (a dry run): the report of what would be. */
  dry_run?: boolean;
}

/**
 * The learning options recorded by the bundle an evidence file is the evidence.json of (a manifest.json beside it
 * listing that evidence as a source), so rebuilding from it learns the same model; undefined for any other file.
 */
async function recordedInfer(path: string, evidenceId: string): Promise<boolean | undefined> {
  if (basename(path) !== "evidence.json") return undefined;
  let manifest: unknown;
  try {
    manifest = JSON.parse(await readFile(join(dirname(path), "manifest.json"), "utf8"));
  } catch {
    return undefined;
  }
  const m = manifest as { sources?: { evidence_id?: unknown }[]; build_options?: { infer?: unknown } };
  const listed = Array.isArray(m.sources) && m.sources.some((s) => s?.evidence_id === evidenceId);
  return listed && m.build_options?.infer === false ? false : undefined;
}

/** Builds the bundle of `evidence` (paths) into `out`; refuses an existing destination unless `force`. */
export async function exportBundle(opts: {
  evidence: string[];
  out: string;
  name?: string;
  pack?: boolean;
  force?: boolean;
  /** Check the destination and build in memory, but write nothing. */
  dryRun?: boolean;
  /**
   * Infer item routes from a sibling's confirmed pair (`--no-infer`: false). Undefined: true, unless the evidence is
   * a bundle's own evidence.json whose manifest records `--no-infer` (a rebuild gives the same bytes).
   */
  infer?: boolean;
}): Promise<ExportResult> {
  const evidence = [];
  let infer = opts.infer;
  for (const path of opts.evidence) {
    const ev = await readEvidence(path);
    evidence.push(ev);
    if (opts.infer === undefined && (await recordedInfer(path, ev.evidence_id)) === false) infer = false;
  }
  const built = buildBundle({
    evidence,
    ...(opts.name === undefined ? {} : { name: opts.name }),
    ...(infer === false ? { infer: false } : {}),
  });
  const out = resolve(opts.out);
  const force = opts.force ?? false;
  const pack = opts.pack ? join(dirname(out), `${basename(out)}.tgz`) : undefined;
  // Refuse before writing anything, so a refused pack never leaves a bundle behind.
  await assertOutFolder(out);
  if (force) await assertReplaceableBundle(out);
  const tgz = pack === undefined ? undefined : packTgz(basename(out), built.files);
  if (pack !== undefined) await assertDestinationFree(pack, { force });
  if (!opts.dryRun) {
    await writeBundle(out, built.files, { force });
    if (pack !== undefined && tgz !== undefined) await writePack(pack, tgz, { force });
  }
  const eps = built.model.endpoints;
  return {
    out,
    name: built.name,
    files: [...built.files.keys()],
    coverage: {
      status: built.coverage.status,
      served: eps.filter((e) => e.serving === "state" && !e.inferred).length,
      replayed: eps.filter((e) => e.serving === "replay").length,
      withheld: eps.filter((e) => e.serving === "withheld").length,
      withheld_tools: built.coverage.writes.withheld.map((w) => ({
        tool: w.tool_name,
        request: `${w.method} ${w.template}`,
        reason: w.reason,
        hint: w.hint,
      })),
      evidence: built.coverage.evidence ?? { verdict: "passed", reasons: [] },
    },
    warnings: built.coverage.warnings.filter((w) => w.code === "asset_truncated").map((w) => w.message),
    ...(pack === undefined ? {} : { pack }),
    ...(opts.dryRun ? { dry_run: true } : {}),
  };
}

/** The human summary of a build, line by line. */
export function formatExport(r: ExportResult): string[] {
  const c = r.coverage;
  const lines = [
    `Coverage: ${c.status} — ${c.served} served from state, ${c.replayed} replayed, ${c.withheld} withheld`,
  ];
  const verdict = verdictSentence(c.evidence);
  if (verdict !== null) lines.push(`Evidence: ${verdict}`);
  for (const w of c.withheld_tools)
    lines.push(`  withheld ${w.tool} (${w.request}): ${w.reason} — ${w.hint}`);
  for (const w of r.warnings) lines.push(`Warning: ${w}`);
  if (r.dry_run) {
    lines.push(
      `Dry run: bundle "${r.name}" would be written to ${r.out} (${r.files.length} files); nothing was written`,
    );
    if (r.pack) lines.push(`It would be packed to ${r.pack}`);
    return lines;
  }
  lines.push(`Bundle "${r.name}" written to ${r.out} (${r.files.length} files)`);
  if (r.pack) lines.push(`Packed to ${r.pack}`);
  lines.push(`Run it: apptwin serve ${r.out}`);
  return lines;
}

/**
 * `--force` replaces a bundle, never anything else: a destination that exists
 * must be a directory that is empty or holds a `manifest.json` (so a slip
 * like `--out ~ --force` cannot wipe a home folder or an evidence file).
 */
async function assertReplaceableBundle(out: string): Promise<void> {
  const st = await lstat(out).catch(() => null);
  if (st === null) return;
  if (!st.isDirectory())
    throw new FileError(
      "not_a_bundle",
      `${out} exists and is not a directory; --force only replaces a bundle directory (choose another --out)`,
    );
  const entries = await readdir(out);
  if (entries.length > 0 && !entries.includes("manifest.json"))
    throw new FileError(
      "not_a_bundle",
      `${out} is a directory that is not an apptwin bundle (no manifest.json); --force only replaces a bundle (choose another --out)`,
    );
}
