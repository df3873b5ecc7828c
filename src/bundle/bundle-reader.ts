/**
 * Reading a bundle: the manifest first (a newer format is refused, never
 * half-read), then every file it lists, each checked against its sha256 and
 * parsed by its zod schema. All problems of the bundle are reported at once,
 * each naming the file and the field. The file access lives in bundle-io.ts.
 */
import type { z } from "zod";
import { CoverageSchema } from "../coverage/coverage-schema.js";
import { DocumentError, type Issue, UnsupportedVersionError } from "../errors/user-error.js";
import { zodIssues } from "../errors/zod-issues.js";
import { ModelSchema } from "../model/model-schema.js";
import { findTooDeep, MAX_WRAPPED_DEPTH } from "../util/json-depth.js";
import { sha256Hex } from "./bundle-assets.js";
import { assertBundleDir, readBundleFile } from "./bundle-io.js";
import {
  BUNDLE_SCHEMA_VERSION,
  type Bundle,
  type Manifest,
  ManifestSchema,
  StateFileSchema,
  ToolsFileSchema,
} from "./bundle-schema.js";

const REQUIRED = ["coverage.json", "evidence.json", "model.json", "state.json", "tools.json"] as const;
const SAFE_PATH = /^(?!.*(^|\/)\.\.?(\/|$))[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/;

function parseJson(file: string, text: string, issues: Issue[]): unknown {
  // A bundle file wraps recorded bodies (at most MAX_JSON_DEPTH deep) in a few levels; one past that is refused before anything walks it.
  if (findTooDeep(text, MAX_WRAPPED_DEPTH) !== undefined) {
    issues.push({
      code: "too_deep",
      path: "",
      message: `${file}: nests objects and arrays more than ${MAX_WRAPPED_DEPTH} levels deep; no bundle file does`,
    });
    return undefined;
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    issues.push({ code: "invalid_json", path: "", message: `${file}: is not valid JSON (${why})` });
    return undefined;
  }
}

function refuseNewer(file: string, raw: unknown): void {
  const version = (raw as { schema_version?: unknown } | null)?.schema_version;
  if (typeof version === "number" && version > BUNDLE_SCHEMA_VERSION) {
    throw new UnsupportedVersionError(file, version, BUNDLE_SCHEMA_VERSION);
  }
}

/** Parses `manifest.json` text of the bundle in `dir`; every problem at once. */
export function parseManifest(dir: string, text: string): Manifest {
  const file = `${dir}/manifest.json`;
  const issues: Issue[] = [];
  const raw = parseJson(file, text, issues);
  if (issues.length > 0) throw new DocumentError(file, issues);
  refuseNewer(file, raw);
  const parsed = ManifestSchema.safeParse(raw);
  if (!parsed.success) throw new DocumentError(file, zodIssues(file, parsed.error.issues));
  parsed.data.files.forEach((f, i) => {
    if (!SAFE_PATH.test(f.path))
      issues.push({
        code: "unsafe_path",
        path: `files[${i}].path`,
        message: `${file}: files[${i}].path must be a relative path inside the bundle (got ${JSON.stringify(f.path)})`,
      });
  });
  for (const name of REQUIRED) {
    if (!parsed.data.files.some((f) => f.path === name))
      issues.push({
        code: "missing_file",
        path: "files",
        message: `${file}: files does not list ${name}, which every bundle has`,
      });
  }
  if (issues.length > 0) throw new DocumentError(file, issues);
  return parsed.data;
}

function parseFile<S extends z.ZodType>(
  dir: string,
  name: string,
  bytes: Uint8Array,
  schema: S,
  issues: Issue[],
): z.infer<S> | undefined {
  const file = `${dir}/${name}`;
  const raw = parseJson(file, new TextDecoder().decode(bytes), issues);
  if (raw === undefined) return undefined;
  refuseNewer(file, raw);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    issues.push(...zodIssues(file, parsed.error.issues));
    return undefined;
  }
  return parsed.data;
}

/** Checks each listed file against the manifest and parses the bundle's data files; `files` maps bundle path to bytes (null: missing). */
export function parseBundle(
  dir: string,
  manifest: Manifest,
  files: ReadonlyMap<string, Uint8Array | null>,
): Bundle {
  const issues: Issue[] = [];
  manifest.files.forEach((entry) => {
    const bytes = files.get(entry.path) ?? null;
    const file = `${dir}/${entry.path}`;
    if (bytes === null)
      issues.push({
        code: "missing_file",
        path: entry.path,
        message: `${file}: is listed in manifest.json but missing; rebuild the bundle`,
      });
    else if (sha256Hex(bytes) !== entry.sha256 || bytes.byteLength !== entry.bytes)
      issues.push({
        code: "tampered_file",
        path: entry.path,
        message: `${file}: does not match its sha256 in manifest.json (the file was changed after the build); rebuild the bundle with apptwin build`,
      });
  });
  if (issues.length > 0) throw new DocumentError(`${dir}/manifest.json`, issues);
  const get = (name: string): Uint8Array => files.get(name)!;
  const model = parseFile(dir, "model.json", get("model.json"), ModelSchema, issues);
  const state = parseFile(dir, "state.json", get("state.json"), StateFileSchema, issues);
  const tools = parseFile(dir, "tools.json", get("tools.json"), ToolsFileSchema, issues);
  const coverage = parseFile(dir, "coverage.json", get("coverage.json"), CoverageSchema, issues);
  if (issues.length > 0 || !model || !state || !tools || !coverage) throw new DocumentError(dir, issues);
  return {
    dir,
    manifest,
    model,
    seed: { collections: state.collections },
    tools: tools.tools,
    coverage,
    assetsDir: `${dir}/assets`,
  };
}

/** Reads and validates the bundle in `dir`: a newer format, a missing or changed file, or a bad field is refused. */
export async function readBundle(dir: string): Promise<Bundle> {
  await assertBundleDir(dir);
  const manifestBytes = await readBundleFile(dir, "manifest.json");
  if (manifestBytes === null)
    throw new DocumentError(`${dir}/manifest.json`, [
      {
        code: "missing_file",
        path: "",
        message: `${dir}: has no manifest.json; is it a bundle written by apptwin build?`,
      },
    ]);
  const manifest = parseManifest(dir, new TextDecoder().decode(manifestBytes));
  const files = new Map<string, Uint8Array | null>();
  for (const f of manifest.files) files.set(f.path, await readBundleFile(dir, f.path));
  return parseBundle(dir, manifest, files);
}
