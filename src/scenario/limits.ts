/** The run limits of a scenario with their defaults filled in. */
import type { Scenario } from "./scenario-schema.js";

/** Limits with every field set. */
export interface ResolvedLimits {
  max_steps: number;
  max_run_ms: number;
  max_body_bytes: number;
  /** One asset body kept (documents, scripts, styles, fonts, images, media, manifests). */
  max_asset_bytes: number;
  max_evidence_bytes: number;
}

/** The defaults: 200 steps, 10 minutes, 1 MiB per API body, 32 MiB per asset, 64 MiB of evidence. */
export const DEFAULT_LIMITS: Readonly<ResolvedLimits> = Object.freeze({
  max_steps: 200,
  max_run_ms: 600_000,
  max_body_bytes: 1_048_576,
  max_asset_bytes: 33_554_432,
  max_evidence_bytes: 67_108_864,
});

/** Returns the scenario's limits, each missing one at its default. */
export function resolveLimits(s: Pick<Scenario, "limits">): ResolvedLimits {
  const l = s.limits ?? {};
  return {
    max_steps: l.max_steps ?? DEFAULT_LIMITS.max_steps,
    max_run_ms: l.max_run_ms ?? DEFAULT_LIMITS.max_run_ms,
    max_body_bytes: l.max_body_bytes ?? DEFAULT_LIMITS.max_body_bytes,
    max_asset_bytes: l.max_asset_bytes ?? DEFAULT_LIMITS.max_asset_bytes,
    max_evidence_bytes: l.max_evidence_bytes ?? DEFAULT_LIMITS.max_evidence_bytes,
  };
}
