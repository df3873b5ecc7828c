/**
 * Evidence in, the Model, its seed state and its coverage report out: learn
 * first, then coverage over what learning found, the order of the pipeline.
 * It sits in bundle, the first stage that needs both, so that neither learn
 * nor coverage reaches for the other's caller.
 */
import { buildCoverage } from "../coverage/build-coverage.js";
import type { Coverage } from "../coverage/coverage-schema.js";
import type { Evidence } from "../evidence/evidence-schema.js";
import { learn } from "../learn/learn.js";
import type { Model, SeedState } from "../model/model-schema.js";

/**
 * Learns from one (merged) evidence, then reports the coverage of what was learned. Pure. `infer: false` leaves
 * out the item routes learning would infer from a sibling collection (`apptwin build --no-infer`).
 */
export function learnModel(
  evidence: Evidence,
  options: { infer?: boolean } = {},
): { model: Model; seed: SeedState; coverage: Coverage } {
  const learned = learn(evidence, options.infer === false ? { infer: false } : {});
  return { model: learned.model, seed: learned.seed, coverage: buildCoverage(learned, evidence) };
}
