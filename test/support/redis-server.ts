/**
 * A real Redis for tests: Debian's `redis-server` on a free loopback port,
 * nothing saved to disk, stopped by its PID. (`--port 0` is not supported by
 * redis-server, so a free port is found first; a port taken meanwhile is
 * retried on another.) `.ci/run` installs redis-server when it is missing.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createConnection, createServer } from "node:net";

/** Where Debian installs redis-server. */
export const REDIS_SERVER = ["/usr/bin/redis-server", "/usr/sbin/redis-server"].find((p) => existsSync(p));

/** A port no one listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

/** True once a PING on the port answers PONG (within `ms`). */
async function answers(port: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: "127.0.0.1", port });
      let text = "";
      socket.on("connect", () => socket.write("PING\r\n"));
      socket.on("data", (d) => {
        text += d;
        if (text.includes("\r\n")) {
          socket.destroy();
          resolve(text.startsWith("+PONG"));
        }
      });
      socket.on("error", () => resolve(false));
    });
    if (ok) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

/** A running redis-server. */
export interface TestRedis {
  port: number;
  url: string;
  child: ChildProcess;
  /** Stops it by PID and waits for it to exit. */
  stop(): Promise<void>;
}

/** Starts redis-server on `port` (default: a free one), or throws with its output. */
export async function startRedis(port?: number): Promise<TestRedis> {
  if (!REDIS_SERVER) throw new Error("redis-server is not installed (apt-get install -y redis-server)");
  for (let attempt = 0; attempt < 5; attempt++) {
    const p = port ?? (await freePort());
    const child = spawn(
      REDIS_SERVER,
      ["--port", String(p), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no"],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let output = "";
    child.stdout!.on("data", (d) => (output += d));
    child.stderr!.on("data", (d) => (output += d));
    const exited = new Promise<void>((done) => child.once("exit", () => done()));
    if (await answers(p, 5000)) {
      return {
        port: p,
        url: `redis://127.0.0.1:${p}/0`,
        child,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, "SIGKILL");
          await exited;
        },
      };
    }
    if (child.exitCode === null) process.kill(child.pid!, "SIGKILL");
    await exited;
    if (port !== undefined) throw new Error(`redis-server did not start on port ${p}: ${output}`);
  }
  throw new Error("redis-server did not start on any of 5 free ports");
}
