/** The CLI's own behaviour: help, version, and the exit codes of user errors. */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { APPTWIN_VERSION } from "../src/version.js";

const root = join(import.meta.dirname, "..");
const bin = join(root, "bin", "run.js");

describe("apptwin CLI", () => {
  it("keeps the version in step with package.json", () => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
    expect(APPTWIN_VERSION).toBe(pkg.version);
  });

  it("prints help and exits 0", () => {
    const out = execFileSync(process.execPath, [bin, "--help"], { encoding: "utf8" });
    expect(out).toContain("apptwin [COMMAND]");
  });

  it("answers version --json with the version", () => {
    const out = execFileSync(process.execPath, [bin, "version", "--json"], { encoding: "utf8" });
    expect(JSON.parse(out)).toEqual({ version: APPTWIN_VERSION });
  });

  it("ships a command manifest listing exactly the commands in src/commands (fast start)", () => {
    const manifest = JSON.parse(readFileSync(join(root, "oclif.manifest.json"), "utf8"));
    const files = readdirSync(join(root, "src", "commands"))
      .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
      .map((f) => f.replace(/\.ts$/, ""))
      .sort();
    expect(Object.keys(manifest.commands).sort()).toEqual(files);
    expect(manifest.version).toBe(APPTWIN_VERSION);
  });

  it("reports a bug (not a user mistake) with its stack, says so, and exits 70", () => {
    // A preload makes reading one environment variable throw, so `import --secret-env` hits a real TypeError.
    const preload =
      'data:text/javascript,process.env=new Proxy(process.env,{get(t,k){if(k==="APPTWIN_TEST_BUG")throw new TypeError("simulated bug");return Reflect.get(t,k)}})';
    const har = join(root, "test/fixtures/har/login-bearer-cookies.har");
    const out = join(tmpdir(), `apptwin-cli-bug-${process.pid}.json`);
    const r = spawnSync(
      process.execPath,
      ["--import", preload, bin, "import", har, "--out", out, "--secret-env", "APPTWIN_TEST_BUG"],
      { encoding: "utf8" },
    );
    expect(r.status).toBe(70);
    expect(r.stderr).toMatch(
      /^apptwin hit a bug \(this is not your mistake\):\nTypeError: simulated bug\n {4}at [^\n]+\n[\s\S]*Please report it with the command you ran\.\n$/,
    );
    expect(existsSync(out)).toBe(false);
  });

  it("answers a flag mistake under --json with a JSON error on stdout (exit 2)", () => {
    for (const argv of [
      ["coverage", "--bogus", "--json"],
      ["build", "--json"],
      ["serve", "bundle", "--port", "99999", "--json"],
    ]) {
      const r = spawnSync(process.execPath, [bin, ...argv], { encoding: "utf8" });
      expect(r.status).toBe(2);
      const { error } = JSON.parse(r.stdout);
      expect(error.code).toBe("invalid_arguments");
      expect(error.suggestions).toEqual([`Run apptwin ${argv[0]} --help for its flags and arguments.`]);
    }
    const r = spawnSync(process.execPath, [bin, "coverage", "--bogus", "--json"], { encoding: "utf8" });
    expect(JSON.parse(r.stdout).error.message).toBe("Nonexistent flag: --bogus");
    const missing = spawnSync(process.execPath, [bin, "build", "--json"], { encoding: "utf8" });
    expect(JSON.parse(missing.stdout).error.message).toBe(
      "The following errors occurred:\n  Missing required flag evidence\n  Missing required flag out",
    );
  });

  it("shows each command's own name in its help examples (export is build's alias)", () => {
    const help = execFileSync(process.execPath, [bin, "export", "--help"], { encoding: "utf8" });
    const examples = help.slice(help.indexOf("EXAMPLES"));
    expect(examples).toContain("$ apptwin export --evidence items.evidence.json --out items-env");
    expect(examples).not.toContain("apptwin build");
  });

  it("ships a manifest in step with the built commands (a rebuild regenerates it, never reuses the old one)", async () => {
    const manifest = JSON.parse(readFileSync(join(root, "oclif.manifest.json"), "utf8"));
    for (const [id, cached] of Object.entries(manifest.commands) as [string, Record<string, unknown>][]) {
      const { default: cmd } = await import(join(root, "dist", "commands", `${id}.js`));
      expect({
        id,
        summary: cached.summary,
        examples: cached.examples,
        flags: Object.keys(cached.flags as object),
      }).toEqual({
        id,
        summary: cmd.summary,
        examples: cmd.examples,
        flags: expect.arrayContaining(Object.keys(cmd.flags ?? {})),
      });
    }
  });

  it("exits 2 on an unknown command", () => {
    const r = spawnSync(process.execPath, [bin, "no-such-command"], { encoding: "utf8" });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("no-such-command");
  });
});
