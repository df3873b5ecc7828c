/**
 * A real Redis for tests: Debian's `redis-server` on a free loopback port,
 * nothing saved to disk, stopped by its PID. (`--port 0` turns TCP off in
 * redis-server rather than choosing a port, so a free port is found first; a
 * port taken meanwhile makes redis-server exit, and another is tried.) It is
 * ready when it prints so itself — not when something answers on the port,
 * which another engineer's Redis may hold. `.ci/run` installs redis-server
 * when it is missing.
 */
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { type Started, start, stop, waitReady } from "./child-process.js";

/** Where Debian installs redis-server. */
export const REDIS_SERVER = ["/usr/bin/redis-server", "/usr/sbin/redis-server"].find((p) => existsSync(p));

/** A port no one listens on right now (the kernel's choice for port 0). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

/** A running redis-server. */
export interface TestRedis {
  port: number;
  url: string;
  process: Started;
  /** Stops it by PID (SIGKILL: a lost store, as tests need it) and waits until it has exited. */
  stop(): Promise<void>;
}

/** How long redis-server may take to be ready on a loaded machine. */
const READY_MS = 30_000;

/** Starts redis-server on a free port, or throws with its output. */
export async function startRedis(): Promise<TestRedis> {
  if (!REDIS_SERVER) throw new Error("redis-server is not installed (apt-get install -y redis-server)");
  let last = "";
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    const p = start(REDIS_SERVER, [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      "--daemonize",
      "no",
    ]);
    if (
      await waitReady(p, "redis-server", () => p.output().includes("Ready to accept connections"), READY_MS)
    ) {
      return {
        port,
        url: `redis://127.0.0.1:${port}/0`,
        process: p,
        stop: () => stop(p, "SIGKILL"),
      };
    }
    last = p.output();
    // Exited before it was ready: another process took the port meanwhile (tried again), or a real failure.
    if (!last.includes("Address already in use")) break;
  }
  throw new Error(`redis-server did not start: ${last}`);
}
