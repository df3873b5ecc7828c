/**
 * The base of every apptwin command: `--json` everywhere, and user errors
 * reported the same way in both modes (one clean message, exit 2). Commands
 * stay thin: parse flags, call one function, return a typed result.
 */
import { Command, Errors } from "@oclif/core";
import { formatUserError } from "../errors/handle.js";
import { DocumentError, isUserError } from "../errors/user-error.js";

/** Base command: JSON output on `--json`, UserErrors to exit 2, bugs to a stack. */
export abstract class BaseCommand extends Command {
  static override enableJsonFlag = true;

  protected override async catch(error: Error & { exitCode?: number }): Promise<unknown> {
    if (isUserError(error)) {
      if (this.jsonEnabled()) {
        const payload = {
          error: {
            code: error.code,
            message: error.message,
            ...(error instanceof DocumentError ? { file: error.file, issues: error.issues } : {}),
            suggestions: error.suggestions,
          },
        };
        process.stdout.write(`${JSON.stringify(payload, null, 2)}\n`);
      } else {
        process.stderr.write(`${formatUserError(error)}\n`);
      }
      process.exitCode = 2;
      // Tell oclif we are done; the exit code is already set.
      return this.exit(2);
    }
    if (this.jsonEnabled() && isParseError(error)) {
      const payload = {
        error: {
          code: "invalid_arguments",
          message: error.message.replace(/\s*\nSee more help with --help$/, ""),
          suggestions: [`Run ${this.config.bin} ${this.id} --help for its flags and arguments.`],
        },
      };
      process.stdout.write(`${JSON.stringify(payload, null, 2)}\n`);
      process.exitCode = 2;
      return this.exit(2);
    }
    throw error;
  }
}

/**
 * oclif's flag and argument errors (unknown flag, missing flag, a value out of
 * range): the user's, exit 2. Commands never raise a CLIError themselves, and
 * oclif's exit() is an ExitError, which is not one of these.
 */
function isParseError(error: Error): boolean {
  return error instanceof Errors.CLIError && !(error instanceof Errors.ExitError);
}
