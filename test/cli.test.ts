/** The CLI's own behaviour: help, version, and the exit codes of user errors. */
import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
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

  it("exits 2 on an unknown command", () => {
    const r = spawnSync(process.execPath, [bin, "no-such-command"], { encoding: "utf8" });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("no-such-command");
  });
});
