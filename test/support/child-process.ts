/**
 * Processes a test starts (redis-server, nginx, `apptwin serve`), waited for
 * and stopped by their own PID, every wait bounded: a process is ready when
 * it says so itself (not when something answers on its port, which another
 * process may hold), a process that exits before it is ready fails at once
 * with its output, and one that is not ready in time is killed and fails.
 */
import { type ChildProcess, spawn } from "node:child_process";

/** A started process: its output so far, and how it ended. */
export interface Started {
  child: ChildProcess;
  output: () => string;
  /** Resolves with the exit code (null when ended by a signal) once it has exited. */
  exit: Promise<number | null>;
}

/** Starts `command` with stdout and stderr kept (stdout and stderr are also handed to `onData`). */
export function start(
  command: string,
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Started {
  const child = spawn(command, args, { ...opts, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exit = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  return { child, output: () => output, exit };
}

/** True while the process has not exited. */
export function running(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

/**
 * Waits until `ready()` holds (checked every 50 ms), the process exits (false), or `ms` pass (the process is
 * killed by its PID, then an error names what it printed).
 */
export async function waitReady(
  p: Started,
  what: string,
  ready: () => boolean | Promise<boolean>,
  ms: number,
): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!running(p.child)) return false;
    if (await ready()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  await stop(p);
  throw new Error(`${what} was not ready within ${ms} ms: ${p.output()}`);
}

/** Stops the process by its PID (SIGTERM, then SIGKILL after `graceMs`) and waits until it has exited. */
export async function stop(p: Started, signal: NodeJS.Signals = "SIGTERM", graceMs = 10_000): Promise<void> {
  if (running(p.child)) p.child.kill(signal);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((done) => {
    timer = setTimeout(() => done("late"), graceMs);
  });
  const ended = await Promise.race([p.exit.then(() => "exited" as const), late]);
  clearTimeout(timer);
  if (ended === "late" && running(p.child)) {
    p.child.kill("SIGKILL");
    await p.exit;
  }
}
