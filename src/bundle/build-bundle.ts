/**
 * Evidence in, bundle files out: one evidence is used as it is, several are
 * merged, then learned and rendered. Pure, so building twice gives the same
 * bytes, and rebuilding from a bundle's own evidence.json does too (that file
 * is exactly the evidence that was learned from).
 */
import type { Coverage } from "../coverage/coverage-schema.js";
import { UserError } from "../errors/user-error.js";
import { packEvidence } from "../evidence/evidence-file.js";
import type { Evidence } from "../evidence/evidence-schema.js";
import { mergeEvidence } from "../evidence/merge.js";
import type { Model } from "../model/model-schema.js";
import { canonicalJsonBytes } from "../util/canonical-json.js";
import { sha256Hex } from "./bundle-assets.js";
import { learnModel } from "./learn-model.js";
import { bundleName, renderBundleFiles } from "./render-bundle.js";

/** A built (not yet written) bundle: its files by path, and what the build summary reports. */
export interface BuiltBundle {
  name: string;
  files: Map<string, Uint8Array>;
  model: Model;
  coverage: Coverage;
}

/** The evidence a bundle is learned from: the single input as is, else the merge of the distinct inputs. */
export function bundleEvidence(list: Evidence[]): Evidence {
  const distinct = [...new Map(list.map((e) => [e.evidence_id, e])).values()];
  if (distinct.length === 0) throw new UserError("no_evidence", "build needs at least one --evidence file");
  // mergeEvidence of one would wrap it in a new merge evidence; as is, a rebuild from evidence.json is identical.
  return distinct.length === 1 ? distinct[0]! : mergeEvidence(distinct);
}

/** Learns and renders the bundle of the given evidence. */
export function buildBundle(inputs: { evidence: Evidence[]; name?: string; infer?: boolean }): BuiltBundle {
  const evidence = bundleEvidence(inputs.evidence);
  const { model, seed, coverage } = learnModel(evidence, { infer: inputs.infer ?? true });
  // evidence.json's bytes (canonical JSON of the evidence as its file stores it), made once and after learning
  // (whose peak they would add to). A source is hashed as canonical JSON of itself: a single input without
  // repeated asset bodies is its packed form, and those bytes are hashed again rather than made twice.
  const packed = packEvidence(evidence);
  const evidenceBytes = canonicalJsonBytes(packed);
  const sources = [...new Map(inputs.evidence.map((e) => [e.evidence_id, e])).values()].map((e) => ({
    evidence_id: e.evidence_id,
    sha256: sha256Hex(e === packed ? evidenceBytes : canonicalJsonBytes(e)),
  }));
  const name = bundleName(evidence, inputs.name);
  return {
    name,
    files: renderBundleFiles({
      name,
      evidence,
      sources,
      model,
      seed,
      coverage,
      evidenceBytes,
      ...(inputs.infer === false ? { buildOptions: { infer: false as const } } : {}),
    }),
    model,
    coverage,
  };
}

/** Every file of the bundle of the given evidence, by path. */
export function buildBundleFiles(inputs: { evidence: Evidence[]; name?: string }): Map<string, Uint8Array> {
  return buildBundle(inputs).files;
}
