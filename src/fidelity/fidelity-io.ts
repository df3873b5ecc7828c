/** The file edge of `apptwin fidelity`: read the bundle and the held-out evidence, then score. */

import { readBundle } from "../bundle/bundle-reader.js";
import { readEvidence } from "../evidence/evidence-io.js";
import { type FidelityReport, runFidelity } from "./run-fidelity.js";

/** Reads a bundle and a held-out evidence file and runs the fidelity comparison. */
export async function runFidelityFiles(opts: {
  dir: string;
  evidence: string;
  maxDifferences?: number;
}): Promise<FidelityReport> {
  const bundle = await readBundle(opts.dir);
  const heldout = await readEvidence(opts.evidence);
  return runFidelity({
    model: bundle.model,
    seed: bundle.seed,
    heldout,
    ...(opts.maxDifferences === undefined ? {} : { maxDifferences: opts.maxDifferences }),
  });
}
