/**
 * Shows a capture as it runs: on a terminal one live line per step that is
 * replaced when the step ends; in CI or a pipe, plain lines. Writes to the
 * stream it is given (stderr), never stdout, so `--json` stays clean.
 */
import type { CaptureProgress } from "./run-capture.js";

/** Where progress goes and how: `live` redraws the current line (a TTY outside CI). */
export interface ProgressSink {
  write(text: string): unknown;
  live: boolean;
}

const MARK = { passed: "✓", failed: "✗", cancelled: "-" } as const;

/** One line for a progress event, without the line ending. */
export function progressLine(e: CaptureProgress): string {
  if (e.type === "step-start") return `▶ [${e.index + 1}/${e.total}] ${e.step_id} (${e.action})`;
  const r = e.result;
  const head = `${MARK[r.status]} [${e.index + 1}/${e.total}] ${r.step_id}`;
  if (r.status === "cancelled") return `${head} cancelled`;
  const took = `${r.duration_ms ?? 0} ms`;
  return r.error === null ? `${head} ${took}` : `${head} failed after ${took}: ${r.error}`;
}

/** Returns an onProgress callback that writes to the sink. */
export function progressReporter(sink: ProgressSink): (e: CaptureProgress) => void {
  return (e) => {
    const line = progressLine(e);
    if (sink.live) sink.write(e.type === "step-start" ? `\r\x1b[2K${line}` : `\r\x1b[2K${line}\n`);
    else sink.write(`${line}\n`);
  };
}

/** True when progress should redraw a live line: a TTY and no CI variable. */
export function isLiveTerminal(
  stream: { isTTY?: boolean },
  env: Record<string, string | undefined>,
): boolean {
  return stream.isTTY === true && (env["CI"] === undefined || env["CI"] === "" || env["CI"] === "false");
}
