/**
 * The bundle's own file formats (`schema_version: 1`): the manifest that
 * lists and fingerprints every file, the tools file and the seed state file,
 * plus the `Bundle` a reader hands to serve and eval (tasks.json has its own
 * schema in src/eval/task-schema.ts).
 */
import { z } from "zod";
import type { Coverage } from "../coverage/coverage-schema.js";
import { JsonSchemaSchema, type Model, type SeedState, SeedStateSchema } from "../model/model-schema.js";

/** The newest bundle format version this apptwin writes and reads. */
export const BUNDLE_SCHEMA_VERSION = 1;

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, "must be 64 lowercase hex characters (a sha256)");

/** One file of the bundle (every file but the manifest itself), with its sha256 and size. */
export const ManifestFileSchema = z.strictObject({
  path: z.string().min(1),
  sha256: Sha256,
  bytes: z.number().int().nonnegative(),
});

/** One recorded asset: the URL path it answers, the content-addressed file and its type. */
export const ManifestAssetSchema = z.strictObject({
  path: z.string().startsWith("/"),
  file: z.string().regex(/^assets\/[0-9a-f]{16}\.[a-z0-9]+$/, "must be assets/<16 hex>.<ext>"),
  content_type: z.string(),
  status: z.number().int(),
});

/** `manifest.json`: what the bundle is, where it came from, and a fingerprint of every file. */
export const ManifestSchema = z.strictObject({
  schema_version: z.literal(BUNDLE_SCHEMA_VERSION),
  name: z.string().min(1),
  apptwin_version: z.string(),
  sources: z.array(z.strictObject({ evidence_id: z.string(), sha256: Sha256 })),
  files: z.array(ManifestFileSchema),
  assets: z.array(ManifestAssetSchema),
  /**
   * The learning options the build was given when not the defaults (`--no-infer`: `{infer: false}`), so a rebuild
   * from the bundle's own evidence.json learns the same model. Absent for a default build (older bundles read).
   */
  build_options: z.strictObject({ infer: z.literal(false) }).optional(),
});

/** One MCP tool the twin offers, with how its arguments map onto an HTTP request. */
export const ToolDefinitionSchema = z.strictObject({
  name: z.string().min(1),
  title: z.string(),
  description: z.string(),
  input_schema: JsonSchemaSchema,
  output_schema: JsonSchemaSchema,
  annotations: z.strictObject({
    readOnlyHint: z.boolean(),
    destructiveHint: z.boolean(),
    idempotentHint: z.boolean(),
    openWorldHint: z.literal(false),
  }),
  binding: z.strictObject({
    method: z.string(),
    template: z.string(),
    path_params: z.array(z.string()),
    query_params: z.array(z.string()),
    body: z.enum(["json", "form"]).nullable(),
  }),
});

/** `tools.json`: the tool definitions, sorted by name. */
export const ToolsFileSchema = z.strictObject({
  schema_version: z.literal(BUNDLE_SCHEMA_VERSION),
  tools: z.array(ToolDefinitionSchema),
});

/** `state.json`: the seed state with its format version. */
export const StateFileSchema = SeedStateSchema.extend({ schema_version: z.literal(BUNDLE_SCHEMA_VERSION) });

export type ManifestFile = z.infer<typeof ManifestFileSchema>;
export type ManifestAsset = z.infer<typeof ManifestAssetSchema>;
export type Manifest = z.infer<typeof ManifestSchema>;
export type ToolDefinition = z.infer<typeof ToolDefinitionSchema>;

/** A bundle as read from disk and validated: what serve and eval run on. */
export interface Bundle {
  /** The bundle directory as given to the reader. */
  dir: string;
  manifest: Manifest;
  model: Model;
  seed: SeedState;
  tools: ToolDefinition[];
  coverage: Coverage;
  /** The bundle's `assets/` directory; asset files are named in `manifest.assets`. */
  assetsDir: string;
}
