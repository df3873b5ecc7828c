#!/usr/bin/env node
// Checks docs/deploy as far as a machine without Docker or Kubernetes can:
// replays the Dockerfile's stages in a temporary directory (each stage a
// directory standing for its filesystem; WORKDIR, COPY, COPY --from, ENV and
// RUN done as written, RUN commands run for real), then runs the image's
// ENTRYPOINT + CMD there on a bundle at /bundle (what `-v …:/bundle` mounts),
// and the apptwin container's args of docs/deploy/kubernetes.yaml against a
// local redis-server (its Service name pointed at it), each answering health
// and an app path. It also checks that the manifest's probes, ports and
// Services agree. Not checked here: FROM's base image (the local node stands
// for node:20-bookworm-slim), USER (files are read as root), Docker's layer
// cache and the Kubernetes API's schema. Needs network access to the npm
// registry (the stages run npm ci), python3 with PyYAML (to read the
// manifest) and Debian's redis-server. Every process it starts is stopped by
// its PID; every wait is bounded. Usage: node scripts/check-deploy.mjs
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, startProcess, startRedis, stop, stopAll } from "./lib/processes.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const work = mkdtempSync(join(tmpdir(), "apptwin-check-deploy-"));
let failures = 0;

function ok(what) {
  console.log(`ok   ${what}`);
}
function fail(what) {
  failures += 1;
  console.log(`FAIL ${what}`);
}

/** The Dockerfile's instructions: comments dropped, continuation lines joined. */
function instructions(text) {
  const out = [];
  let current = "";
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (current === "" && (line === "" || line.startsWith("#"))) continue;
    current += current ? ` ${line}` : line;
    if (current.endsWith("\\")) {
      current = current.slice(0, -1).trim();
      continue;
    }
    const [, op, rest] = /^(\S+)\s*(.*)$/.exec(current);
    out.push({ op: op.toUpperCase(), rest });
    current = "";
  }
  return out;
}

/** The names .dockerignore leaves out of the context (top-level names and globs of one level). */
function ignored() {
  const file = join(root, ".dockerignore");
  if (!existsSync(file)) return () => false;
  const patterns = readFileSync(file, "utf8")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"))
    .map((p) => new RegExp(`^${p.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*")}(/|$)`));
  return (rel) => patterns.some((re) => re.test(rel));
}

/** Replays the Dockerfile; returns the final stage's directory, workdir, env and command. */
function replayDockerfile() {
  const skip = ignored();
  const stages = [];
  let stage = null;
  for (const { op, rest } of instructions(readFileSync(join(root, "Dockerfile"), "utf8"))) {
    if (op === "FROM") {
      const [, name] = /\bAS\s+(\S+)/i.exec(rest) ?? [];
      stage = {
        name,
        dir: join(work, `stage-${stages.length}`),
        workdir: "/",
        env: {},
        cmd: [],
        entrypoint: [],
      };
      mkdirSync(stage.dir, { recursive: true });
      stages.push(stage);
    } else if (op === "WORKDIR") {
      stage.workdir = rest;
      mkdirSync(join(stage.dir, rest), { recursive: true });
    } else if (op === "ENV") {
      for (const [, k, v] of rest.matchAll(/(\w+)=(\S+)/g)) stage.env[k] = v;
    } else if (op === "COPY") {
      const words = rest.split(/\s+/);
      const from = words.find((w) => w.startsWith("--from="))?.slice(7);
      const paths = words.filter((w) => !w.startsWith("--"));
      const dest = paths.pop();
      const target = dest.startsWith("/") ? join(stage.dir, dest) : join(stage.dir, stage.workdir, dest);
      const source = from ? stages.find((s) => s.name === from) : null;
      if (from && !source) throw new Error(`Dockerfile: COPY --from=${from}: no such stage`);
      for (const p of paths) {
        const src = source
          ? join(source.dir, p.startsWith("/") ? p : join(source.workdir, p))
          : join(root, p);
        if (!existsSync(src)) throw new Error(`Dockerfile: COPY ${p}: not in the ${from ?? "context"}`);
        const into = dest.endsWith("/") ? join(target, p.split("/").pop()) : target;
        cpSync(src, into, {
          recursive: true,
          filter: (f) => source !== null || !skip(f.slice(root.length + 1)),
        });
      }
    } else if (op === "RUN") {
      console.log(`  RUN ${rest}`);
      const r = spawnSync("bash", ["-c", rest], {
        cwd: join(stage.dir, stage.workdir),
        // A cache of its own, as in an image build: a RUN never touches this machine's npm cache.
        env: { ...process.env, ...stage.env, npm_config_cache: join(work, "npm-cache") },
        stdio: ["ignore", "inherit", "inherit"],
        timeout: 900_000,
      });
      if (r.status !== 0) throw new Error(`Dockerfile: RUN ${rest}: exit ${r.status}`);
    } else if (op === "CMD" || op === "ENTRYPOINT") {
      stage[op === "CMD" ? "cmd" : "entrypoint"] = JSON.parse(rest);
    }
  }
  ok(`Dockerfile: ${stages.length} stages replayed, every RUN exited 0`);
  return stages.at(-1);
}

/**
 * Runs a container's command in the replayed image: absolute paths that the image holds are its files, /bundle
 * is the mounted bundle, the port is swapped for a free one (the replica binds 0.0.0.0 as in the container).
 * Checks health and an app path through 127.0.0.1.
 */
async function runContainer(image, argv, what, swap = {}) {
  const port = await freePort();
  const mapped = argv.map((a, i) => {
    if (argv[i - 1] === "--port") return String(port);
    if (swap[a]) return swap[a];
    if (a.startsWith("/") && existsSync(join(image.dir, a))) return join(image.dir, a);
    return a;
  });
  const { child } = await startProcess(
    mapped[0],
    mapped.slice(1),
    (out) => out.includes("Press Ctrl+C to stop."),
    what,
    { cwd: join(image.dir, image.workdir), env: { ...process.env, ...image.env } },
  );
  try {
    const base = `http://127.0.0.1:${port}`;
    const health = await fetch(`${base}/__apptwin/health`);
    if (health.status === 200)
      ok(`${what}: GET /__apptwin/health 200 ${JSON.stringify(await health.json())}`);
    else fail(`${what}: GET /__apptwin/health ${health.status}`);
    const items = await fetch(`${base}/api/items/1`);
    if (items.status === 200) ok(`${what}: GET /api/items/1 200`);
    else fail(`${what}: GET /api/items/1 ${items.status}`);
  } finally {
    await stop(child);
  }
}

/** The manifest's objects (python3's PyYAML reads them; YAML that does not parse fails here). */
function manifest() {
  const r = spawnSync(
    "python3",
    [
      "-c",
      "import json,sys,yaml; print(json.dumps([d for d in yaml.safe_load_all(open(sys.argv[1])) if d]))",
      join(root, "docs/deploy/kubernetes.yaml"),
    ],
    { encoding: "utf8" },
  );
  if (r.status !== 0) throw new Error(`docs/deploy/kubernetes.yaml does not parse: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** The manifest's pieces agree: selectors, ports, probes, the store URL naming Redis's Service. */
function checkManifest(docs) {
  const of = (kind, name) => docs.find((d) => d.kind === kind && d.metadata.name === name);
  const twin = of("Deployment", "apptwin");
  const redis = of("Deployment", "apptwin-redis");
  const twinService = of("Service", "apptwin");
  const redisService = of("Service", "apptwin-redis");
  if (!twin || !redis || !twinService || !redisService) {
    fail("kubernetes.yaml: expected Deployments and Services apptwin and apptwin-redis");
    return null;
  }
  ok(`kubernetes.yaml parses: ${docs.map((d) => `${d.kind}/${d.metadata.name}`).join(", ")}`);
  const container = twin.spec.template.spec.containers[0];
  const args = container.args;
  const port = Number(args[args.indexOf("--port") + 1]);
  const store = new URL(args[args.indexOf("--store") + 1]);
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const checks = [
    [
      "the twin's selector matches its pods",
      same(twin.spec.selector.matchLabels, twin.spec.template.metadata.labels),
    ],
    [
      "Redis's selector matches its pods",
      same(redis.spec.selector.matchLabels, redis.spec.template.metadata.labels),
    ],
    [
      "the twin's Service selects the twin's pods",
      same(twinService.spec.selector, twin.spec.template.metadata.labels),
    ],
    [
      "Redis's Service selects Redis's pods",
      same(redisService.spec.selector, redis.spec.template.metadata.labels),
    ],
    ["containerPort is --port", container.ports[0].containerPort === port],
    ["the Service's targetPort is --port", twinService.spec.ports[0].targetPort === port],
    [
      "readiness probes health on --port",
      container.readinessProbe.httpGet.port === port &&
        container.readinessProbe.httpGet.path === "/__apptwin/health",
    ],
    [
      "--store names Redis's Service and port",
      store.hostname === redisService.metadata.name && Number(store.port) === redisService.spec.ports[0].port,
    ],
    ["more than one replica", twin.spec.replicas > 1],
    [
      "Redis never evicts keys on its own",
      redis.spec.template.spec.containers[0].args.join(" ").includes("noeviction"),
    ],
  ];
  for (const [what, holds] of checks) (holds ? ok : fail)(`kubernetes.yaml: ${what}`);
  return { args, store };
}

async function main() {
  const docs = manifest();
  const k8s = checkManifest(docs);
  const image = replayDockerfile();
  const bundle = join(work, "items-bundle");
  const built = spawnSync(
    process.execPath,
    [
      join(image.dir, "app/bin/run.js"),
      "build",
      "--evidence",
      join(root, "test/fixtures/evidence/items.capture.json"),
      "--out",
      bundle,
    ],
    { encoding: "utf8", cwd: join(image.dir, image.workdir) },
  );
  if (built.status !== 0) throw new Error(`the image's apptwin build failed: ${built.stderr}`);
  const argv = [...image.entrypoint, ...image.cmd];
  if (argv[0] === "node") argv[0] = process.execPath;
  await runContainer(image, argv, "docker run -v bundle:/bundle (the image's command)", {
    "/bundle": bundle,
  });
  if (k8s) {
    const redis = await startRedis("redis-server");
    try {
      const local = `redis://127.0.0.1:${redis.port}${k8s.store.pathname}`;
      const podArgv = [process.execPath, join(image.dir, "app/bin/run.js"), ...k8s.args];
      await runContainer(image, podArgv, "the apptwin pod's args (kubernetes.yaml)", {
        "/bundle": bundle,
        [k8s.store.href]: local,
        [k8s.store.href.replace(/\/$/, "")]: local,
      });
    } finally {
      await stop(redis.child);
    }
  }
}

try {
  await main();
} catch (err) {
  fail(err.message);
} finally {
  await stopAll();
  rmSync(work, { recursive: true, force: true });
}
console.log(failures ? `${failures} check(s) failed` : "every check passed");
process.exit(failures ? 1 : 0);
