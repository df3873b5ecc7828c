/**
 * A real load balancer for tests: Debian's nginx on a free loopback port with
 * a temporary config, round-robin over the given upstreams, stopped by its
 * PID. It is ready once it has written its pid file (nginx does so after
 * binding its listening socket), so a port another process holds is never
 * taken for nginx's; a port taken meanwhile makes nginx exit, and another is
 * tried. Where nginx is not installed, `startNginx` returns null and the test
 * uses its own round-robin client instead (`roundRobin`).
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { start, stop, waitReady } from "./child-process.js";
import { freePort } from "./redis-server.js";

/** Where Debian installs nginx. */
export const NGINX = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((p) => existsSync(p));

/** A running nginx in front of some upstreams. */
export interface TestNginx {
  url: string;
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

/** How long nginx may take to be ready on a loaded machine. */
const READY_MS = 30_000;

/** Starts nginx round-robin over `upstreams` (host:port), or returns null when nginx is not installed. */
export async function startNginx(upstreams: string[]): Promise<TestNginx | null> {
  if (!NGINX) return null;
  let last = "";
  for (let attempt = 0; attempt < 5; attempt++) {
    const dir = await mkdtemp(join(tmpdir(), "apptwin-nginx-"));
    await mkdir(join(dir, "logs"));
    const port = await freePort();
    const conf = join(dir, "nginx.conf");
    await writeFile(conf, nginxConfig(dir, port, upstreams));
    const p = start(NGINX, ["-p", dir, "-c", conf, "-e", join(dir, "error.log"), "-g", "daemon off;"]);
    const pidFile = join(dir, "nginx.pid");
    const wrote = async () =>
      (await readFile(pidFile, "utf8").catch(() => "")).trim() === String(p.child.pid);
    if (await waitReady(p, "nginx", wrote, READY_MS)) {
      return {
        url: `http://127.0.0.1:${port}`,
        stop: async () => {
          await stop(p);
          await rm(dir, { recursive: true, force: true });
        },
      };
    }
    last = p.output() + (await readFile(join(dir, "error.log"), "utf8").catch(() => ""));
    await rm(dir, { recursive: true, force: true });
    if (!last.includes("Address already in use")) break;
  }
  throw new Error(`nginx did not start: ${last}`);
}

/** The test's own round-robin where nginx is missing: each call takes the next base URL. */
export function roundRobin(bases: string[]): () => string {
  let next = 0;
  return () => bases[next++ % bases.length]!;
}
