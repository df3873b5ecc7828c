/**
 * What serve needs of a bundle, as a structural type: `Bundle` from
 * src/bundle/bundle-schema.ts fits it, and tests can build one in memory
 * without files. Keeping serve on this subset keeps it independent of how
 * the bundle is read.
 */
import type { Model, SeedState } from "../model/model-schema.js";

/** One MCP tool of the bundle and how its arguments map onto an HTTP request. */
export interface TwinTool {
  name: string;
  title: string;
  description: string;
  input_schema: Record<string, unknown>;
  output_schema: Record<string, unknown>;
  annotations: {
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint: false;
  };
  binding: {
    method: string;
    template: string;
    path_params: string[];
    query_params: string[];
    body: "json" | "form" | null;
  };
}

/** One recorded asset: the URL path it answers, its file under the bundle, type and status. */
export interface TwinAsset {
  path: string;
  file: string;
  content_type: string;
  status: number;
}

/** The parts of a bundle the twin serves. */
export interface TwinBundle {
  manifest: { name: string; assets: TwinAsset[] };
  model: Model;
  seed: SeedState;
  tools: TwinTool[];
  /** The bundle's `assets/` directory; null when the bundle has no assets to serve. */
  assetsDir: string | null;
}
