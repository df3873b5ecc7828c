/**
 * The `command_not_found` hook: a misspelt command gets "did you mean" with
 * the nearest command, as a JSON error on stdout under `--json` (exit 2, like
 * every other user mistake) and as one clean message otherwise. In an
 * interactive terminal, @oclif/plugin-not-found asks whether to run the
 * suggestion instead; nothing else may prompt, since agents and CI read us.
 */
import type { Hook } from "@oclif/core";
import notFound from "@oclif/plugin-not-found";
import { editDistance } from "../errors/near-miss.js";
import { UserError } from "../errors/user-error.js";

/** The command id nearest to `id`, or undefined when none is within half its length. */
export function nearestCommand(id: string, commands: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Math.max(2, Math.ceil(id.length / 2)) + 1;
  for (const c of commands) {
    const d = editDistance(id.toLowerCase(), c.toLowerCase());
    if (d < bestD) [best, bestD] = [c, d];
  }
  return best;
}

/** The error an unknown command is, with the suggestion and where to list the commands. */
export function unknownCommandError(bin: string, typed: string, commands: readonly string[]): UserError {
  const near = nearestCommand(typed, commands);
  const suggestions = [
    ...(near ? [`Did you mean "${bin} ${near}"?`] : []),
    `Run "${bin} help" for the list of commands.`,
  ];
  return new UserError(
    "unknown_command",
    `${bin} has no command "${typed}"${near ? `; did you mean "${near}"?` : "."}`,
    suggestions,
  );
}

const hook: Hook.CommandNotFound = async function (opts) {
  const visible = opts.config.commands.filter((c) => !c.hidden);
  const ids = [...new Set([...visible.map((c) => c.id), ...visible.flatMap((c) => c.aliases)])].sort();
  const sep = opts.config.topicSeparator;
  // Without topics, oclif joins the arguments after an unknown word into its id ("serv bundle" → "serv:bundle").
  const words = opts.id.split(":");
  const typed = opts.config.findTopic(words[0]!) ? words.join(sep) : words[0]!;
  const error = unknownCommandError(
    opts.config.bin,
    typed,
    ids.map((id) => id.split(":").join(sep)),
  );
  if ((opts.argv ?? []).includes("--json")) {
    const { code, message, suggestions } = error;
    process.stdout.write(`${JSON.stringify({ error: { code, message, suggestions } }, null, 2)}\n`);
    process.exitCode = 2;
    return null;
  }
  if (process.stdin.isTTY && process.stderr.isTTY) return notFound.call(this, opts);
  throw error;
};

export default hook;
