/**
 * Renders every file of a bundle from already-learned data, as bytes by
 * bundle path. Pure and deterministic: canonical JSON, sorted lists, no
 * build time, no absolute paths, so the same input always gives the same
 * bytes and the manifest's fingerprints can be computed before writing.
 */
import type { Coverage } from "../coverage/coverage-schema.js";
import { UserError } from "../errors/user-error.js";
import { packEvidence } from "../evidence/evidence-file.js";
import { evidenceName } from "../evidence/evidence-name.js";
import type { Evidence } from "../evidence/evidence-schema.js";
import type { Model, SeedState } from "../model/model-schema.js";
import { generateTasks } from "../tasks/generate-tasks.js";
import { canonicalJsonBytes } from "../util/canonical-json.js";
import { APPTWIN_VERSION } from "../version.js";
import { collectAssets, sha256Hex } from "./bundle-assets.js";
import { renderReadme } from "./bundle-readme.js";
import { BUNDLE_SCHEMA_VERSION, type Manifest } from "./bundle-schema.js";
import { openApiFromModel } from "./openapi-document.js";
import { toolsFromModel } from "./tool-definitions.js";

/** Everything a bundle is made of, already learned. */
export interface BundleContent {
  name: string;
  /** The evidence written as evidence.json (the single input, or the merge of several). */
  evidence: Evidence;
  /** Each input evidence's id and the sha256 of its canonical bytes. */
  sources: { evidence_id: string; sha256: string }[];
  model: Model;
  seed: SeedState;
  coverage: Coverage;
  /** Learning options other than the defaults (`{infer: false}`), recorded in the manifest. */
  buildOptions?: { infer: false };
  /** evidence.json's bytes already made (canonical JSON of the packed evidence; the build hashes them); made here when absent. */
  evidenceBytes?: Uint8Array;
}

const encoder = new TextEncoder();

/** Canonical JSON bytes, encoded piece by piece: a large file (evidence, model) is never a whole string first. */
function json(value: unknown): Uint8Array {
  return canonicalJsonBytes(value);
}

function byPath<T extends { path: string }>(a: T, b: T): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/** Every file of the bundle by path (manifest.json included), in sorted path order. */
export function renderBundleFiles(content: BundleContent): Map<string, Uint8Array> {
  const { name, evidence, model, seed, coverage } = content;
  const tools = toolsFromModel(model);
  const tasks = generateTasks(model, seed, tools);
  const { assets, files: assetFiles } = collectAssets(evidence);
  const files = new Map<string, Uint8Array>([
    ["README.md", encoder.encode(renderReadme({ name, model, tools, coverage, tasks }))],
    ["coverage.json", json(coverage)],
    ["evidence.json", content.evidenceBytes ?? json(packEvidence(evidence))],
    ["model.json", json(model)],
    ["openapi.json", json(openApiFromModel(model, name, APPTWIN_VERSION))],
    ["state.json", json({ schema_version: BUNDLE_SCHEMA_VERSION, ...seed })],
    ["tasks.json", json(tasks)],
    ["tools.json", json({ schema_version: BUNDLE_SCHEMA_VERSION, tools })],
    ...assetFiles,
  ]);
  const manifest: Manifest = {
    schema_version: BUNDLE_SCHEMA_VERSION,
    name,
    apptwin_version: APPTWIN_VERSION,
    sources: [...content.sources].sort((a, b) =>
      a.evidence_id < b.evidence_id ? -1 : a.evidence_id > b.evidence_id ? 1 : 0,
    ),
    files: [...files]
      .map(([path, bytes]) => ({ path, sha256: sha256Hex(bytes), bytes: bytes.byteLength }))
      .sort(byPath),
    assets,
    ...(content.buildOptions ? { build_options: content.buildOptions } : {}),
  };
  files.set("manifest.json", json(manifest));
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The bundle name: the flag, else the evidence's name (its scenario's, its HAR file's, its merged sources'), else `app`. */
export function bundleName(evidence: Evidence, flag?: string): string {
  if (flag !== undefined) {
    if (!BUNDLE_NAME.test(flag))
      throw new UserError(
        "invalid_name",
        `--name must be 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit (it names the bundle in URIs such as apptwin://bundles/<name>); got ${JSON.stringify(flag)}`,
      );
    return flag;
  }
  // A scenario's name is free text: keep it readable but safe in a URI.
  const fromScenario = (evidenceName(evidence) ?? "")
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^[^A-Za-z0-9]+/, "")
    .slice(0, 64);
  return fromScenario === "" ? "app" : fromScenario;
}

/** What a bundle name may be: it appears in resource URIs and file names. */
export const BUNDLE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
