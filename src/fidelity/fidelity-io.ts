/** The file edge of `apptwin fidelity`: read the bundle and the held-out evidence, then score. */

import { readBundle } from "../bundle/bundle-reader.js";
import { UserError } from "../errors/user-error.js";
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
  // Judged on its own training data a twin scores well by construction; that is no measure of fidelity.
  if (bundle.manifest.sources.some((s) => s.evidence_id === heldout.evidence_id)) {
    throw new UserError(
      "not_held_out",
      `${opts.evidence}: evidence ${heldout.evidence_id} is what the bundle ${opts.dir} was built from (manifest.json sources), not a held-out recording; the twin was learned from those very requests, so the score would say nothing about requests it never saw. Capture another run of the app (a held-out scenario) and pass that.`,
    );
  }
  return runFidelity({
    model: bundle.model,
    seed: bundle.seed,
    heldout,
    ...(opts.maxDifferences === undefined ? {} : { maxDifferences: opts.maxDifferences }),
  });
}
