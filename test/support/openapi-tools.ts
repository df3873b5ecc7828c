/**
 * The OpenAPI tools people point at a bundle, run for real: Redocly's linter
 * (recommended rules) over openapi.json, and Prism in proxy mode in front of
 * a running twin, validating every recorded API request of the bundle's
 * evidence and the twin's answer to it against the document.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { fetch } from "undici";
import { readBundle } from "../../src/bundle/bundle-reader.js";
import type { Evidence, EvidenceRecord } from "../../src/evidence/evidence-schema.js";
import { IdMap, IdScopes } from "../../src/fidelity/id-map.js";
import { translateTarget } from "../../src/fidelity/twin-request.js";
import { createTwinServer } from "../../src/serve/http/twin-http-server.js";

const root = join(import.meta.dirname, "..", "..");
const REDOCLY = join(root, "node_modules", "@redocly", "cli", "bin", "cli.js");
const PRISM = join(root, "node_modules", "@stoplight", "prism-cli", "dist", "index.js");
/** No telemetry or update check: the tools run offline and quietly. */
const QUIET = { REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" };

/** One problem Redocly reported. */
export interface LintProblem {
  ruleId: string;
  severity: "error" | "warn";
  message: string;
  pointer: string;
}

/** `redocly lint --format=json` over a bundle's openapi.json: its totals and problems. */
export function redoclyLint(bundleDir: string): {
  errors: number;
  warnings: number;
  problems: LintProblem[];
} {
  const r = spawnSync(process.execPath, [REDOCLY, "lint", join(bundleDir, "openapi.json"), "--format=json"], {
    encoding: "utf8",
    env: { ...process.env, ...QUIET },
    maxBuffer: 64 * 1024 * 1024,
  });
  const out = JSON.parse(r.stdout) as {
    totals: { errors: number; warnings: number };
    problems: {
      ruleId: string;
      severity: "error" | "warn";
      message: string;
      location: { pointer: string }[];
    }[];
  };
  return {
    errors: out.totals.errors,
    warnings: out.totals.warnings,
    problems: out.problems.map((p) => ({
      ruleId: p.ruleId,
      severity: p.severity,
      message: p.message,
      pointer: p.location[0]?.pointer ?? "",
    })),
  };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Starts Prism as a validating proxy in front of `upstream`; resolves once it listens. */
async function startPrism(spec: string, upstream: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [PRISM, "proxy", spec, upstream, "--host", "127.0.0.1", "--port", String(port), "--errors", "false"],
    { env: { ...process.env, ...QUIET }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let log = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`prism did not start in 60 s:\n${log}`)), 60_000);
    const on = (d: Buffer) => {
      log += d;
      if (log.includes("Prism is listening")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", on);
    child.stderr!.on("data", on);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`prism exited (${code}):\n${log}`));
    });
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

/** The records the twin learned from (API transactions on the app's origin with an answer), in order. */
export function recordedApiRequests(evidence: Evidence): EvidenceRecord[] {
  return evidence.records.filter((r) => {
    const url = new URL(r.request.url);
    const method = r.request.method.toUpperCase();
    const api =
      r.resource_type === "xhr" ||
      r.resource_type === "fetch" ||
      r.initiator === "request-step" ||
      method !== "GET";
    return (
      api &&
      url.origin === evidence.app_origin &&
      r.response !== null &&
      r.failure === null &&
      r.response.status !== 304
    );
  });
}

/** Request headers worth sending again: the body's type and every credential carrier (redacted as recorded). */
const RESEND = /^(content-type|accept|authorization|cookie|x-[a-z0-9-]+)$/i;

/** One recorded request Prism found a violation in (in the request, or in the twin's answer to it). */
export interface PrismViolation {
  request: string;
  status: number;
  violations: { location: string[]; code: string | number; message: string }[];
}

/**
 * Serves the bundle, puts Prism in front of it and sends every recorded API request of its evidence through it in
 * order, on one episode; returns how many were sent and every violation Prism reported.
 */
export async function prismProxyCheck(
  bundleDir: string,
): Promise<{ requests: number; violations: PrismViolation[] }> {
  const bundle = await readBundle(bundleDir);
  const evidence = JSON.parse(readFileSync(join(bundleDir, "evidence.json"), "utf8")) as Evidence;
  const twin = createTwinServer(bundle);
  const upstream = await twin.listen(0, "127.0.0.1");
  const prism = await startPrism(join(bundleDir, "openapi.json"), upstream);
  const violations: PrismViolation[] = [];
  const records = recordedApiRequests(evidence);
  // Ids the twin assigned where the app assigned others (a replayed create gets the twin's next id), so a later
  // request naming the app's id reaches the twin's entity, as the fidelity runner does.
  const ctx = { ids: new IdMap(), scopes: new IdScopes(bundle.model), model: bundle.model };
  const ids = ctx.ids;
  const json = (text: string | undefined): unknown => {
    try {
      return text === undefined ? undefined : JSON.parse(text);
    } catch {
      return undefined;
    }
  };
  try {
    for (const r of records) {
      const url = new URL(r.request.url);
      const t = translateTarget(r.request.method, url.pathname, [...url.searchParams], ctx);
      const path = t.path;
      const query = new URLSearchParams(t.query);
      const target = `${path}${query.size > 0 ? `?${query}` : ""}`;
      const headers: Record<string, string> = {};
      for (const h of r.request.headers) if (RESEND.test(h.name)) headers[h.name.toLowerCase()] = h.value;
      let body: string | Buffer | undefined;
      if (r.request.body?.encoding === "base64") body = Buffer.from(r.request.body.text, "base64");
      else if (r.request.body) {
        const parsed = json(r.request.body.text);
        body =
          parsed === undefined
            ? r.request.body.text
            : JSON.stringify(ids.translateJson(parsed, t.collection, ctx.scopes));
      }
      const res = await fetch(prism.url + target, {
        method: r.request.method,
        headers,
        body: r.request.method === "GET" || r.request.method === "HEAD" ? undefined : body,
        redirect: "manual",
      });
      const answer = json(await res.text());
      const recorded = json(r.response?.body?.encoding === "utf8" ? r.response.body.text : undefined);
      if (r.request.method !== "GET" && recorded !== undefined && answer !== undefined) {
        ids.learn(recorded, answer, "generated", t.collection, ctx.scopes);
        ids.learn(recorded, answer, "assigned", t.collection, ctx.scopes);
      }
      const found = res.headers.get("sl-violations");
      if (found) {
        violations.push({
          request: `${r.request.method} ${target}`,
          status: res.status,
          violations: JSON.parse(found),
        });
      }
    }
  } finally {
    prism.child.kill("SIGTERM");
    await twin.close();
  }
  return { requests: records.length, violations };
}
