/**
 * An in-memory TwinBundle for tests: a model and seed, the tools built from
 * the model by the caller, and optional asset files written to a folder.
 */
import type { Model, SeedState } from "../../learn/model-schema.js";
import type { TwinAsset, TwinBundle, TwinTool } from "../twin-bundle.js";

/** Builds a TwinBundle from parts; `assetsDir` may be null when no assets are served. */
export function twinBundle(parts: {
  name?: string;
  model: Model;
  seed: SeedState;
  tools: TwinTool[];
  assets?: TwinAsset[];
  assetsDir?: string | null;
}): TwinBundle {
  return {
    manifest: { name: parts.name ?? "items", assets: parts.assets ?? [] },
    model: parts.model,
    seed: parts.seed,
    tools: parts.tools,
    assetsDir: parts.assetsDir ?? null,
  };
}
