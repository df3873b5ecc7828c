/**
 * Top-level error handling for the CLI: a UserError prints one clean message
 * (and its suggestions) and exits 2; oclif's own parse errors are the user's
 * too; anything else is a bug and prints its stack.
 */
import { isInterrupted } from "./interrupted.js";
import { isUserError } from "./user-error.js";

/** Formats a user error for the terminal: the message, then each suggestion on its own line. */
export function formatUserError(error: { message: string; suggestions?: readonly string[] }): string {
  const lines = [`Error: ${error.message}`];
  for (const s of error.suggestions ?? []) lines.push(`  hint: ${s}`);
  return lines.join("\n");
}

/** Prints the error the way its kind deserves and sets the exit code; never returns normally for bugs. */
export function handleTopLevelError(error: unknown): void {
  if (isInterrupted(error)) {
    process.stderr.write(`apptwin: ${error.message}\n`);
    process.exitCode = 130;
    return;
  }
  if (isUserError(error)) {
    process.stderr.write(`${formatUserError(error)}\n`);
    process.exitCode = 2;
    return;
  }
  // oclif's exit() and parse errors (unknown flag, missing arg) carry an oclif exit code.
  const oclif = error as { oclif?: { exit?: number }; code?: string; message?: string };
  if (oclif?.oclif && typeof oclif.oclif.exit === "number") {
    if (oclif.code === "EEXIT") {
      process.exitCode = oclif.oclif.exit;
      return;
    }
    process.stderr.write(`Error: ${oclif.message ?? String(error)}\n`);
    process.exitCode = oclif.oclif.exit === 1 ? 2 : oclif.oclif.exit;
    return;
  }
  const stack = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(
    `apptwin hit a bug (this is not your mistake):\n${stack}\nPlease report it with the command you ran.\n`,
  );
  process.exitCode = 70;
}
