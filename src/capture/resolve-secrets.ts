/**
 * Reads the scenario's declared secrets from the environment before the
 * browser starts, so a missing variable fails the run at once, naming the
 * variable and the secret, every missing one together.
 */
import { UserError } from "../errors/user-error.js";
import { shortSecret } from "../evidence/redaction.js";
import type { Scenario } from "../scenario/scenario-schema.js";

/** Returns secret id → value; throws a UserError naming every unset (or empty) variable. */
export function resolveSecrets(
  scenario: Pick<Scenario, "secrets">,
  env: Record<string, string | undefined>,
  file = "scenario",
): Map<string, string> {
  const values = new Map<string, string>();
  const missing: string[] = [];
  const short: string[] = [];
  for (const [i, s] of (scenario.secrets ?? []).entries()) {
    const v = env[s.env];
    if (v === undefined || v === "") missing.push(`${s.env} (secret "${s.id}")`);
    else if (shortSecret(v) !== null)
      short.push(`${file}: secrets[${i}] ("${s.id}"): the value of ${s.env} ${shortSecret(v)}`);
    else values.set(s.id, v);
  }
  const problems: string[] = [];
  if (missing.length > 0) {
    const names = missing.length === 1 ? `variable ${missing[0]} is` : `variables ${missing.join(", ")} are`;
    problems.push(`${file}: the environment ${names} not set`);
  }
  problems.push(...short);
  if (problems.length > 0) {
    throw new UserError(
      missing.length > 0 ? "missing_secret" : "short_secret",
      `${problems.join("\n")}; nothing was run`,
      [
        missing.length > 0
          ? "Export each variable in the shell that runs apptwin capture; the value is never written anywhere."
          : "Declare only real credentials as secrets (a password, a token); the value is never written anywhere.",
      ],
    );
  }
  return values;
}
