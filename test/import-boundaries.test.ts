/**
 * The house rules, checked by reading imports:
 * - the pure core (learn, coverage, tasks, bundle, scenario, serve/runtime, eval) reaches
 *   for no Playwright, socket, file system, clock or randomness; only
 *   src/capture imports Playwright;
 * - the pipeline runs one way (like Playwright's DEPS.list): a stage imports
 *   the stages before it, the contracts and the base, never a stage after it;
 * - inside serve, the runtime imports no adapter and MCP never imports HTTP;
 * - product code never imports test or bench code.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");

function sourceFiles(dir: string): string[] {
  const abs = join(root, dir);
  let entries: string[] = [];
  try {
    entries = readdirSync(abs);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const p = join(abs, name);
    if (statSync(p).isDirectory()) return sourceFiles(relative(root, p));
    return name.endsWith(".ts") && !name.endsWith(".test.ts") ? [relative(root, p)] : [];
  });
}

const PURE = [
  "src/scenario",
  "src/learn",
  "src/coverage",
  "src/tasks",
  "src/bundle",
  "src/serve/runtime",
  "src/eval",
];
const IMPURE_IMPORT =
  /from\s+["'](?:playwright|playwright-core|node:fs|fs|node:fs\/promises|fs\/promises|node:http|http|node:https|node:net|net|undici|node:child_process)["']/;
const CLOCK_OR_RANDOM = /Date\.now\(|new Date\(\)|Math\.random\(|performance\.now\(|crypto\.random/;

/** Below every stage: errors, small utilities, the version. */
const BASE = ["errors", "util", "version.ts"];
/** The contracts between stages: the Evidence capture writes and learn reads, the Model learn writes and the rest read. */
const CONTRACTS = ["evidence", "model"];
/** The stages in pipeline order: each may import the ones before it, never one after it. */
const PIPELINE = [
  "scenario",
  "capture",
  "learn",
  "coverage",
  "tasks",
  "bundle",
  "serve",
  "fidelity",
  "eval",
  "mcp",
];

/** What each part of src/ may import, besides itself and packages. */
const DEPS: Record<string, readonly string[]> = {
  errors: [],
  util: ["errors"],
  "version.ts": [],
  evidence: BASE,
  model: [],
  ...Object.fromEntries(
    PIPELINE.map((stage, i) => [stage, [...BASE, ...CONTRACTS, ...PIPELINE.slice(0, i)]]),
  ),
  // The CLI's base command knows errors only; command files wire every stage to a flag.
  cli: BASE,
  commands: [...BASE, ...CONTRACTS, ...PIPELINE, "cli"],
};

/**
 * Inside serve: the pure runtime, the shared modules below both adapters (the episode store interface among
 * them), the shared episode stores (Redis), the MCP and the HTTP adapters, and start-twin.ts over all.
 */
const SERVE_DEPS: Record<string, readonly string[]> = {
  runtime: [],
  shared: ["runtime"],
  store: ["runtime", "shared"],
  mcp: ["runtime", "shared"],
  http: ["runtime", "shared", "mcp"],
  "start-twin.ts": ["runtime", "shared", "store", "mcp", "http"],
};

/** Every relative import of a file (static, side-effect and dynamic), resolved to a path from the repository root. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), "utf8");
  const specs = [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)["'](\.[^"']+)["']/gm)].map(
    (m) => m[1]!,
  );
  return specs.map((s) => relative(root, resolve(dirname(join(root, file)), s)).replace(/\.js$/, ".ts"));
}

/** The part of src/ a path belongs to: its top folder, or the file itself at the top. */
function partOf(path: string): string | null {
  if (!path.startsWith("src/")) return null;
  return path.slice("src/".length).split("/")[0]!;
}

/** The part of src/serve/ a path belongs to (null outside serve). */
function servePartOf(path: string): string | null {
  if (!path.startsWith("src/serve/")) return null;
  const rest = path.slice("src/serve/".length);
  if (rest.includes("/")) return rest.split("/")[0]!;
  return rest === "start-twin.ts" ? rest : "shared";
}

describe("import boundaries", () => {
  for (const dir of PURE) {
    it(`${dir} is pure: no I/O, clock or randomness`, () => {
      const offenders = sourceFiles(dir)
        .filter((f) => !/\/io[-/.]|-io\.ts$/.test(f))
        .filter((f) => {
          const text = readFileSync(join(root, f), "utf8");
          return IMPURE_IMPORT.test(text) || CLOCK_OR_RANDOM.test(text);
        });
      expect(offenders).toEqual([]);
    });
  }

  it("only src/capture imports Playwright", () => {
    const offenders = sourceFiles("src")
      .filter((f) => !f.startsWith("src/capture/"))
      .filter((f) => /from\s+["']playwright(-core)?["']/.test(readFileSync(join(root, f), "utf8")));
    expect(offenders).toEqual([]);
  });

  it("every part of src/ has its place in the pipeline", () => {
    const unplaced = readdirSync(join(root, "src"))
      .filter((name) => !(name in DEPS))
      .map((name) => `src/${name} has no entry in DEPS (test/import-boundaries.test.ts): give it its place`);
    expect(unplaced).toEqual([]);
  });

  it("the pipeline runs one way: no stage imports a stage after it", () => {
    const offenders = sourceFiles("src").flatMap((file) => {
      const from = partOf(file)!;
      const allowed = DEPS[from] ?? [];
      return importsOf(file).flatMap((target) => {
        const to = partOf(target);
        if (to === null) return [`${file} imports ${target}: product code never imports outside src/`];
        if (to === from || allowed.includes(to)) return [];
        return [
          `${file} imports ${target}: ${from} may import only ${allowed.join(", ") || "nothing of src/"}`,
        ];
      });
    });
    expect(offenders).toEqual([]);
  });

  it("inside serve, the runtime imports no adapter and MCP never imports HTTP", () => {
    const offenders = sourceFiles("src/serve").flatMap((file) => {
      const from = servePartOf(file)!;
      const allowed = SERVE_DEPS[from] ?? [];
      return importsOf(file).flatMap((target) => {
        const to = servePartOf(target);
        if (to === null || to === from || allowed.includes(to)) return [];
        return [
          `${file} imports ${target}: serve/${from} may import only ${allowed.join(", ") || "nothing of serve"}`,
        ];
      });
    });
    expect(offenders).toEqual([]);
  });
});
