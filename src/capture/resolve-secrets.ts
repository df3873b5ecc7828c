/**
 * Reads the scenario's declared secrets from the environment before the
 * browser starts, so a missing variable fails the run at once, naming the
 * variable and the secret, every missing one together.
 */
import { UserError } from "../errors/user-error.js";
import type { Scenario } from "../scenario/scenario-schema.js";

/** Returns secret id → value; throws a UserError naming every unset (or empty) variable. */
export function resolveSecrets(
  scenario: Pick<Scenario, "secrets">,
  env: Record<string, string | undefined>,
  file = "scenario",
): Map<string, string> {
  const values = new Map<string, string>();
  const missing: string[] = [];
  for (const s of scenario.secrets ?? []) {
    const v = env[s.env];
    if (v === undefined || v === "") missing.push(`${s.env} (secret "${s.id}")`);
    else values.set(s.id, v);
  }
  if (missing.length > 0) {
    const names = missing.length === 1 ? `variable ${missing[0]} is` : `variables ${missing.join(", ")} are`;
    throw new UserError("missing_secret", `${file}: the environment ${names} not set; nothing was run`, [
      "Export each variable in the shell that runs apptwin capture; the value is never written anywhere.",
    ]);
  }
  return values;
}
