/**
 * The house rules, checked by reading imports: the pure core (learn, coverage,
 * bundle, scenario, serve/runtime) reaches for no Playwright, socket, file
 * system, clock or randomness; only src/capture imports Playwright.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
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

const PURE = ["src/scenario", "src/learn", "src/coverage", "src/bundle", "src/serve/runtime"];
const IMPURE_IMPORT =
  /from\s+["'](?:playwright|playwright-core|node:fs|fs|node:fs\/promises|fs\/promises|node:http|http|node:https|node:net|net|undici|node:child_process)["']/;
const CLOCK_OR_RANDOM = /Date\.now\(|new Date\(\)|Math\.random\(|performance\.now\(|crypto\.random/;

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
});
