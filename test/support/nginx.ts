/**
 * A real load balancer for tests: Debian's nginx on a free loopback port,
 * running the documented snippet (docs/deploy/nginx-apptwin.conf) with the
 * test's replicas as its upstreams, round-robin, stopped by its PID. It is ready once it has written its pid file (nginx does so after
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

/** The documented nginx snippet (docs/deploy), which the tests run as it is but for its addresses. */
export const DEPLOY_SNIPPET = join(import.meta.dirname, "..", "..", "docs", "deploy", "nginx-apptwin.conf");

/**
 * The documented snippet with the test's upstreams as its replicas and the test's port as its listen address;
 * throws when the snippet no longer has the upstream and listen lines a user edits.
 */
export function deploySnippet(text: string, port: number, upstreams: string[]): string {
  const servers = /^(\s*)server\s+[^\s{;]+[^;{]*;\n/gm;
  const first = servers.exec(text);
  const listen = /^(\s*)listen\s+[^;]+;/m;
  if (!first || !listen.test(text)) {
    throw new Error(
      `${DEPLOY_SNIPPET}: expected an upstream's "server host:port;" lines and a "listen" line`,
    );
  }
  const indent = first[1]!;
  let placed = false;
  const swapped = text.replace(servers, () => {
    if (placed) return "";
    placed = true;
    return upstreams.map((u) => `${indent}server ${u};\n`).join("");
  });
  return swapped.replace(listen, (_m, lead: string) => `${lead}listen 127.0.0.1:${port};`);
}

/** The main config around the snippet: everything nginx writes kept in `dir`, the snippet included. */
export function nginxConfig(dir: string, snippet: string): string {
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
  include ${snippet};
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
    const snippet = join(dir, "apptwin.conf");
    await writeFile(snippet, deploySnippet(await readFile(DEPLOY_SNIPPET, "utf8"), port, upstreams));
    await writeFile(conf, nginxConfig(dir, snippet));
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
