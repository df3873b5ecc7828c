/**
 * The user stopped a run (Ctrl+C): neither their mistake (exit 2) nor a bug
 * (exit 70). The CLI prints its one line and exits 130, as a shell does for
 * SIGINT.
 */

/** A run the user interrupted; nothing was written. */
export class Interrupted extends Error {
  readonly exitCode = 130;

  constructor(message: string) {
    super(message);
    this.name = "Interrupted";
  }
}

/** True for an {@link Interrupted} (also across module copies). */
export function isInterrupted(error: unknown): error is Interrupted {
  return error instanceof Interrupted || (error as { name?: unknown } | null)?.name === "Interrupted";
}
