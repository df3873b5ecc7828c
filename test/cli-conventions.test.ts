/**
 * The oclif conventions people expect of a CLI, checked by running the built
 * bin: `help <command>`, shell autocomplete, "did you mean" for a misspelt
 * command (and its JSON error under --json), `--out` defaults, and bundle
 * names that follow the evidence through import and merge.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");
const bin = join(root, "bin", "run.js");
const ITEMS = join(root, "test/fixtures/evidence/items.capture.json");
const HAR = join(root, "test/fixtures/har/login-bearer-cookies.har");

function apptwin(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}) {
  return spawnSync(process.execPath, [bin, ...args], {
    encoding: "utf8",
    cwd: opts.cwd ?? root,
    env: { ...process.env, ...opts.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

describe("apptwin help", () => {
  it("help build prints build's usage, flags and examples", () => {
    const r = apptwin(["help", "build"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("$ apptwin build --evidence <value>... --out <value>");
    expect(r.stdout).toMatch(/--evidence=<value>\.\.\.\s+\(required\) evidence file to learn from/);
    expect(r.stdout).toContain("EXAMPLES");
  });

  it("help lists every command, help and autocomplete included", () => {
    const r = apptwin(["help"]);
    expect(r.status).toBe(0);
    for (const c of ["autocomplete", "build", "capture", "help", "import", "merge", "serve"])
      expect(r.stdout).toMatch(new RegExp(`^ {2}${c} `, "m"));
  });
});

describe("apptwin autocomplete", () => {
  it("writes a bash completion that completes commands and their flags", () => {
    const home = mkdtempSync(join(tmpdir(), "apptwin-ac-"));
    const env = { HOME: home, XDG_CACHE_HOME: join(home, "cache") };
    const r = apptwin(["autocomplete", "bash"], { env });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("apptwin autocomplete script bash");
    const fn = join(home, "cache", "apptwin", "autocomplete", "functions", "bash", "apptwin.bash");
    expect(existsSync(fn)).toBe(true);
    // Ask bash itself what <TAB> offers, as a shell would.
    const complete = (words: string[]) =>
      spawnSync(
        "bash",
        [
          "-c",
          `source "$1"; COMP_WORDS=(${words.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${words.length - 1}; _apptwin_autocomplete; printf '%s\\n' "\${COMPREPLY[@]}"`,
          "bash",
          fn,
        ],
        { encoding: "utf8" },
      ).stdout.trim();
    expect(complete(["apptwin", "bu"])).toBe("build");
    expect(complete(["apptwin", "build", "--ev"])).toBe("--evidence");
    expect(complete(["apptwin", "serve", "--la"])).toBe("--latency");
  });
});

describe("a misspelt command", () => {
  it("is answered with the nearest command and exit 2", () => {
    const r = apptwin(["buld"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      'Error: apptwin has no command "buld"; did you mean "build"?\n  hint: Did you mean "apptwin build"?\n  hint: Run "apptwin help" for the list of commands.\n',
    );
  });

  it("is a JSON error on stdout under --json", () => {
    const r = apptwin(["serv", "bundle", "--json"]);
    expect(r.status).toBe(2);
    expect(JSON.parse(r.stdout)).toEqual({
      error: {
        code: "unknown_command",
        message: 'apptwin has no command "serv"; did you mean "serve"?',
        suggestions: ['Did you mean "apptwin serve"?', 'Run "apptwin help" for the list of commands.'],
      },
    });
  });

  it("suggests nothing for a word far from every command", () => {
    const r = apptwin(["zzzzzzzzzz", "--json"]);
    expect(JSON.parse(r.stdout).error.suggestions).toEqual(['Run "apptwin help" for the list of commands.']);
  });
});

describe("--out defaults", () => {
  it("import, merge and export-har write beside the user without --out, and name bundles after the sources", () => {
    const cwd = mkdtempSync(join(tmpdir(), "apptwin-out-"));
    const imported = apptwin(["import", HAR, "--json"], { cwd });
    expect(imported.status).toBe(0);
    expect(JSON.parse(imported.stdout).out).toBe("evidence.json");
    const har = apptwin(["export-har", "evidence.json", "--json"], { cwd });
    expect(har.status).toBe(0);
    expect(existsSync(join(cwd, "recording.har"))).toBe(true);
    const merged = apptwin(["merge", ITEMS, ITEMS, "--json"], { cwd });
    expect(merged.status).toBe(0);
    expect(existsSync(join(cwd, "merged.evidence.json"))).toBe(true);
    // An existing default destination is refused like any other, never overwritten.
    expect(apptwin(["import", HAR], { cwd }).status).toBe(2);

    const name = (evidence: string[]) => {
      const out = join(cwd, `bundle-${Math.random().toString(36).slice(2)}`);
      const r = apptwin(["build", ...evidence.flatMap((e) => ["--evidence", e]), "--out", out, "--json"], {
        cwd,
      });
      expect(r.status).toBe(0);
      return JSON.parse(readFileSync(join(out, "manifest.json"), "utf8")).name;
    };
    expect(name(["evidence.json"])).toBe("login-bearer-cookies");
    expect(name(["merged.evidence.json"])).toBe("items-full");
  });
});
