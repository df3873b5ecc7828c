/**
 * Running a user's agent on one task: a shell command started with the
 * task's prompt and its episode's MCP URL in its environment, its answer
 * read from stdout, stopped (its whole process group) when it passes the
 * timeout. A small loopback proxy gives each episode its own MCP URL, so
 * any MCP client reaches its episode without setting a header.
 */
import { spawn } from "node:child_process";
import { createServer, type IncomingMessage, request, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** How an agent process ended. */
export interface AgentExit {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
}

const MAX_STDOUT = 1024 * 1024;
const MAX_STDERR_TAIL = 4 * 1024;

/** Runs `command` through `sh -c` with `env` added to the environment; never longer than `timeoutMs`. */
export function runAgent(
  command: string,
  env: Record<string, string>,
  timeoutMs: number,
): Promise<AgentExit> {
  const started = Date.now();
  const child = spawn("sh", ["-c", command], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => {
    if (stdout.length < MAX_STDOUT) stdout += d.slice(0, MAX_STDOUT - stdout.length);
  });
  child.stderr.setEncoding("utf8").on("data", (d: string) => {
    stderr = (stderr + d).slice(-MAX_STDERR_TAIL);
  });
  let timedOut = false;
  const killGroup = (signal: NodeJS.Signals) => {
    // The agent's own process group, which this spawn created: the agent and whatever it started.
    if (child.pid !== undefined) {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // already gone
      }
    }
  };
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup("SIGKILL");
  }, timeoutMs);
  return new Promise((resolve) => {
    child.on("close", (code) => {
      clearTimeout(timer);
      killGroup("SIGTERM");
      resolve({ stdout, stderr, exitCode: code, timedOut, durationMs: Date.now() - started });
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({
        stdout,
        stderr: `${stderr}${String(error)}`,
        exitCode: null,
        timedOut,
        durationMs: Date.now() - started,
      });
    });
  });
}

/** A loopback proxy: `/episodes/<id>/mcp` is the twin's `/mcp` bound to episode `<id>`. */
export interface EpisodeProxy {
  urlFor(episode: string): string;
  close(): Promise<void>;
}

function forward(twin: URL, episode: string, req: IncomingMessage, res: ServerResponse): void {
  const headers = { ...req.headers, host: twin.host, "x-apptwin-episode": episode };
  const upstream = request(
    { hostname: twin.hostname, port: twin.port, path: "/mcp", method: req.method, headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on("error", () => {
    if (!res.headersSent) res.writeHead(502, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: "twin_unreachable" }));
  });
  req.pipe(upstream);
}

/** Starts the proxy in front of the twin whose origin is `twinUrl`. */
export async function startEpisodeProxy(twinUrl: string): Promise<EpisodeProxy> {
  const twin = new URL(twinUrl);
  const server = createServer((req, res) => {
    const m = /^\/episodes\/([A-Za-z0-9][A-Za-z0-9._-]{0,127})\/mcp(?:\?.*)?$/.exec(req.url ?? "");
    if (!m) {
      req.resume();
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: "not_found", message: "Only /episodes/<id>/mcp is served here." }));
      return;
    }
    forward(twin, m[1]!, req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    urlFor: (episode) => `http://127.0.0.1:${port}/episodes/${episode}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
