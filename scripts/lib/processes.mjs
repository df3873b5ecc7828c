// Processes a script starts (redis-server, `apptwin serve`), for bench/ and
// scripts/: each kept in `started` so the script can stop them all by their
// PIDs at the end, ready when its own output says so, every wait bounded.
import { spawn } from "node:child_process";
import { createServer } from "node:net";

/** Every process started here (stop them with `stopAll`). */
export const started = [];

/**
 * Starts `command` (stdout and stderr kept) and resolves with `{ child, got }` once `ready(output)` returns a
 * truthy `got`; rejects with the output when it exits first or is not ready within `ms` (then it is killed).
 */
export function startProcess(command, args, ready, what, { cwd, env, ms = 60_000 } = {}) {
  const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  started.push(child);
  let output = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${what} was not ready within ${ms} ms: ${output}`));
    }, ms);
    const check = () => {
      const got = ready(output);
      if (got) {
        clearTimeout(timer);
        resolve({ child, got });
      }
    };
    const keep = (d) => {
      output += d;
      check();
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (${code}) before it was ready: ${output}`));
    });
  });
}

/** Stops a process by its PID (SIGTERM, SIGKILL after 10 s) and waits until it has exited. */
export function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const late = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", () => {
      clearTimeout(late);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/** Stops every process started here. */
export function stopAll() {
  return Promise.all(started.map(stop));
}

/** A port no one listens on right now (the kernel's choice for port 0). */
export async function freePort() {
  const server = createServer();
  await new Promise((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address();
  await new Promise((done) => server.close(done));
  return port;
}

/** Debian's redis-server on a free loopback port, nothing saved; `{ child, url }` once it says it is ready. */
export async function startRedis(redisServer) {
  const port = await freePort();
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"];
  const { child } = await startProcess(
    redisServer,
    args,
    (out) => out.includes("Ready to accept connections"),
    "redis-server",
  );
  return { child, port, url: `redis://127.0.0.1:${port}/0` };
}
