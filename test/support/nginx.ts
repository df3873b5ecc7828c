/**
 * A real load balancer for tests: Debian's nginx on a free loopback port with
 * a temporary config, round-robin over the given upstreams, stopped by its
 * PID. Where nginx is not installed, `startNginx` returns null and the test
 * uses its own round-robin client instead (`roundRobin`).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./redis-server.js";

/** Where Debian installs nginx. */
export const NGINX = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((p) => existsSync(p));

/** A running nginx in front of some upstreams. */
export interface TestNginx {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** The config: one upstream group (round-robin, the default), every path proxied with its Host kept. */
export function nginxConfig(dir: string, port: number, upstreams: string[]): string {
  const user = process.getuid?.() === 0 ? "user root;\n" : "";
  return `${user}worker_processes 1;
pid ${dir}/nginx.pid;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream twin {
${upstreams.map((u) => `    server ${u} max_fails=0;`).join("\n")}
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://twin;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_buffering off;
    }
  }
}
`;
}

async function listening(port: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = createConnection({ host: "127.0.0.1", port }, () => {
        s.destroy();
        resolve(true);
      });
      s.on("error", () => resolve(false));
    });
    if (ok) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

/** Starts nginx round-robin over `upstreams` (host:port), or returns null when nginx is not installed. */
export async function startNginx(upstreams: string[]): Promise<TestNginx | null> {
  if (!NGINX) return null;
  const dir = await mkdtemp(join(tmpdir(), "apptwin-nginx-"));
  await mkdir(join(dir, "logs"));
  const port = await freePort();
  await writeFile(join(dir, "nginx.conf"), nginxConfig(dir, port, upstreams));
  const child = spawn(
    NGINX,
    ["-p", dir, "-c", join(dir, "nginx.conf"), "-e", join(dir, "error.log"), "-g", "daemon off;"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  if (!(await listening(port, 5000))) {
    if (child.exitCode === null) process.kill(child.pid!, "SIGKILL");
    await exited;
    throw new Error(`nginx did not start: ${output}`);
  }
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, "SIGTERM");
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The test's own round-robin where nginx is missing: each call takes the next base URL. */
export function roundRobin(bases: string[]): () => string {
  let next = 0;
  return () => bases[next++ % bases.length]!;
}
