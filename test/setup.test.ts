/**
 * `apptwin setup` as a user runs it: the built CLI with a temporary HOME
 * and project folder, for each client. It installs the skill where the
 * client reads skills and registers `apptwin mcp` in the client's MCP
 * config, keeps the servers already there, changes nothing when run again,
 * writes nothing on a dry run, and refuses a config it cannot read.
 */
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse as parseToml } from "smol-toml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bin, buildCli, root } from "./support/mcp-clients.js";

type Toml = { mcp_servers: Record<string, Record<string, unknown>>; profiles?: unknown };

let dir: string;
beforeAll(async () => {
  buildCli();
  dir = await mkdtemp(join(tmpdir(), "apptwin-setup-"));
}, 180_000);
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

function setup(home: string, args: string[], extra: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [bin, "setup", ...args, "--json"], {
    cwd: root,
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", HOME: home, ...extra },
  });
  return { status: r.status, json: r.stdout.trim() === "" ? null : JSON.parse(r.stdout), stderr: r.stderr };
}

async function fresh(name: string): Promise<{ home: string; project: string }> {
  const home = join(dir, name, "home");
  const project = join(dir, name, "project");
  await mkdir(home, { recursive: true });
  await mkdir(project, { recursive: true });
  return { home, project };
}

const skill = await readFile(join(root, "docs", "skill", "SKILL.md"), "utf8");
const expectedServer = (env: Record<string, string>) => ({
  command: process.execPath,
  args: [join(root, "bin", "run.js"), "mcp"],
  env,
});

describe("apptwin setup --client claude-code", () => {
  it("project scope: .claude/skills/apptwin and .mcp.json, keeping other servers; idempotent", async () => {
    const { home, project } = await fresh("claude-project");
    const other = { mcpServers: { github: { command: "gh-mcp", args: ["serve"] } }, keep: true };
    await writeFile(join(project, ".mcp.json"), JSON.stringify(other, null, 2));
    const first = setup(home, [
      "--client",
      "claude-code",
      "--project",
      project,
      "--secret-env",
      "ITEMS_PASSWORD",
    ]);
    expect(first.status, first.stderr).toBe(0);
    expect(first.json.config).toEqual({ path: join(project, ".mcp.json"), action: "update" });
    expect(first.json.skill.map((f: { action: string }) => f.action)).toEqual([
      "create",
      "create",
      "create",
      "create",
    ]);
    expect(await readFile(join(project, ".claude", "skills", "apptwin", "SKILL.md"), "utf8")).toBe(skill);
    await stat(join(project, ".claude", "skills", "apptwin", "references", "environments.md"));
    const config = JSON.parse(await readFile(join(project, ".mcp.json"), "utf8"));
    expect(config.keep).toBe(true);
    expect(config.mcpServers.github).toEqual(other.mcpServers.github);
    expect(config.mcpServers.apptwin).toEqual({
      type: "stdio",
      ...expectedServer({
        APPTWIN_WORKSPACE: join(project, ".apptwin"),
        ITEMS_PASSWORD: `\${ITEMS_PASSWORD}`,
      }),
    });
    const bytes = await readFile(join(project, ".mcp.json"));
    const second = setup(home, [
      "--client",
      "claude-code",
      "--project",
      project,
      "--secret-env",
      "ITEMS_PASSWORD",
    ]);
    expect(second.status).toBe(0);
    expect([
      second.json.config.action,
      ...second.json.skill.map((f: { action: string }) => f.action),
    ]).toEqual(["unchanged", "unchanged", "unchanged", "unchanged", "unchanged"]);
    expect(second.json.next).toBe("Nothing to change: Claude Code already has the apptwin skill and server.");
    expect((await readFile(join(project, ".mcp.json"))).equals(bytes)).toBe(true);
  });

  it("user scope: ~/.claude/skills/apptwin and ~/.claude.json, keeping the rest of the file", async () => {
    const { home } = await fresh("claude-user");
    await writeFile(
      join(home, ".claude.json"),
      JSON.stringify({ numStartups: 3, mcpServers: { a: { command: "a" } } }),
    );
    const r = setup(home, ["--client", "claude-code"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.json.scope).toBe("user");
    const config = JSON.parse(await readFile(join(home, ".claude.json"), "utf8"));
    expect(config.numStartups).toBe(3);
    expect(Object.keys(config.mcpServers)).toEqual(["a", "apptwin"]);
    expect(config.mcpServers.apptwin).toEqual({
      type: "stdio",
      command: process.execPath,
      args: expectedServer({}).args,
    });
    expect(await readFile(join(home, ".claude", "skills", "apptwin", "SKILL.md"), "utf8")).toBe(skill);
  });
});

describe("apptwin setup --client codex", () => {
  it("user scope: ~/.agents/skills/apptwin and [mcp_servers.apptwin] in ~/.codex/config.toml, keeping comments and servers", async () => {
    const { home } = await fresh("codex-user");
    await mkdir(join(home, ".codex"));
    const before = [
      "# my settings",
      'model = "o4"',
      "",
      "[mcp_servers.docs]",
      'command = "docs-mcp" # keep me',
      "",
      "[mcp_servers.apptwin]",
      'command = "old-apptwin"',
      "",
      "[mcp_servers.apptwin.env]",
      'OLD = "1"',
      "",
      "[profiles.fast]",
      'model = "mini"',
      "",
    ].join("\n");
    await writeFile(join(home, ".codex", "config.toml"), before);
    const r = setup(home, ["--client", "codex", "--secret-env", "APP_PASSWORD"]);
    expect(r.status, r.stderr).toBe(0);
    const text = await readFile(join(home, ".codex", "config.toml"), "utf8");
    expect(text).toContain('# my settings\nmodel = "o4"');
    expect(text).toContain('command = "docs-mcp" # keep me');
    expect(text).not.toContain("old-apptwin");
    const parsed = parseToml(text) as Toml;
    expect(parsed.profiles).toEqual({ fast: { model: "mini" } });
    expect(parsed.mcp_servers.docs).toEqual({ command: "docs-mcp" });
    expect(parsed.mcp_servers.apptwin).toEqual({
      command: process.execPath,
      args: expectedServer({}).args,
      env_vars: ["APP_PASSWORD"],
    });
    expect(await readFile(join(home, ".agents", "skills", "apptwin", "SKILL.md"), "utf8")).toBe(skill);
    const again = setup(home, ["--client", "codex", "--secret-env", "APP_PASSWORD"]);
    expect(again.json.config.action).toBe("unchanged");
    expect(await readFile(join(home, ".codex", "config.toml"), "utf8")).toBe(text);
  });

  it("project scope writes .codex/config.toml and .agents/skills; CODEX_HOME is honoured for the user scope", async () => {
    const { home, project } = await fresh("codex-project");
    const r = setup(home, ["--client", "codex", "--project", project]);
    expect(r.status, r.stderr).toBe(0);
    const parsed = parseToml(await readFile(join(project, ".codex", "config.toml"), "utf8")) as Toml;
    expect(parsed.mcp_servers.apptwin?.env).toEqual({ APPTWIN_WORKSPACE: join(project, ".apptwin") });
    await stat(join(project, ".agents", "skills", "apptwin", "SKILL.md"));
    const codexHome = join(dir, "codex-project", "codex-home");
    const u = setup(home, ["--client", "codex"], { CODEX_HOME: codexHome });
    expect(u.json.config.path).toBe(join(codexHome, "config.toml"));
  });

  it("refuses a config.toml that is not TOML, writing nothing (exit 2)", async () => {
    const { home } = await fresh("codex-bad");
    await mkdir(join(home, ".codex"));
    await writeFile(join(home, ".codex", "config.toml"), "this is = = not toml\n");
    const r = setup(home, ["--client", "codex"]);
    expect(r.status).toBe(2);
    expect(r.json.error.message).toMatch(
      /config\.toml: is not valid TOML; fix it or move it aside .*; nothing was written$/,
    );
    await expect(stat(join(home, ".agents"))).rejects.toThrow();
  });
});

describe("apptwin setup --client cursor", () => {
  it("project scope: .cursor/skills/apptwin and .cursor/mcp.json with $env references; a dry run writes nothing", async () => {
    const { home, project } = await fresh("cursor-project");
    const dry = setup(home, [
      "--client",
      "cursor",
      "--project",
      project,
      "--dry-run",
      "--secret-env",
      "APP_TOKEN",
    ]);
    expect(dry.status, dry.stderr).toBe(0);
    expect(dry.json).toMatchObject({ dry_run: true, config: { action: "create" } });
    await expect(stat(join(project, ".cursor"))).rejects.toThrow();
    const r = setup(home, ["--client", "cursor", "--project", project, "--secret-env", "APP_TOKEN"]);
    expect(r.status).toBe(0);
    const config = JSON.parse(await readFile(join(project, ".cursor", "mcp.json"), "utf8"));
    expect(config.mcpServers.apptwin).toEqual(
      expectedServer({ APPTWIN_WORKSPACE: join(project, ".apptwin"), APP_TOKEN: `\${env:APP_TOKEN}` }),
    );
    await stat(join(project, ".cursor", "skills", "apptwin", "examples", "items.scenario.json"));
  });

  it("user scope keeps the servers of ~/.cursor/mcp.json; a value instead of a name is refused", async () => {
    const { home } = await fresh("cursor-user");
    await mkdir(join(home, ".cursor"));
    await writeFile(
      join(home, ".cursor", "mcp.json"),
      JSON.stringify({ mcpServers: { x: { url: "http://127.0.0.1:1/mcp" } } }),
    );
    const r = setup(home, ["--client", "cursor"]);
    expect(r.status).toBe(0);
    const config = JSON.parse(await readFile(join(home, ".cursor", "mcp.json"), "utf8"));
    expect(Object.keys(config.mcpServers)).toEqual(["x", "apptwin"]);
    const bad = setup(home, ["--client", "cursor", "--secret-env", "hunter2 secret"]);
    expect(bad.status).toBe(2);
    expect(bad.json.error.message).toContain("give the variable's NAME, never its value");
  });
});
