/**
 * `apptwin setup --client …`: installs the skill where the client reads
 * skills and registers `apptwin mcp` in its MCP config, keeping every other
 * server. Each file is written only when its bytes would change, so a second
 * run changes nothing; a dry run reports the same plan and writes nothing.
 */
import { mkdir, readFile, stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { FileError, UserError } from "../errors/user-error.js";
import { writeFileAtomic } from "../util/atomic-write.js";
import {
  type ClientName,
  clientPaths,
  type ServerEntry,
  withJsonServer,
  withTomlServer,
} from "./client-config.js";

/** The skill's files, relative to docs/skill/. */
export const SKILL_FILES = [
  "SKILL.md",
  "references/environments.md",
  "examples/items.scenario.json",
  "examples/loopback-todo.scenario.json",
] as const;

const PACKAGE_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** What happened (or, in a dry run, would happen) to one file. */
export interface FileChange {
  path: string;
  action: "create" | "update" | "unchanged";
}

/** The setup report: `--json` prints it. */
export interface SetupResult {
  client: ClientName;
  scope: "user" | "project";
  dry_run: boolean;
  skill: FileChange[];
  config: FileChange;
  server: ServerEntry;
  next: string;
}

/** Options of {@link setupClient}. */
export interface SetupOptions {
  client: ClientName;
  project?: string | undefined;
  home: string;
  env: Record<string, string | undefined>;
  dryRun: boolean;
  /** Environment variables (secrets) the client should pass to apptwin mcp, by name. */
  secretEnv: string[];
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

async function current(path: string): Promise<string | null> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new FileError(
      "file_unreadable",
      `${path}: cannot be read (${(error as NodeJS.ErrnoException).code})`,
    );
  }
}

function change(path: string, before: string | null, after: string): FileChange {
  return { path, action: before === null ? "create" : before === after ? "unchanged" : "update" };
}

/** Installs the skill and registers the server for one client. */
export async function setupClient(opts: SetupOptions): Promise<SetupResult> {
  const bad = opts.secretEnv.filter((n) => !ENV_NAME.test(n));
  if (bad.length > 0)
    throw new UserError(
      "invalid_env_name",
      `--secret-env ${bad.map((n) => JSON.stringify(n)).join(", ")}: not an environment variable name (letters, digits and _, not starting with a digit); give the variable's NAME, never its value`,
    );
  const project = opts.project === undefined ? undefined : resolve(opts.project);
  if (project !== undefined && !(await stat(project).catch(() => null))?.isDirectory())
    throw new FileError("project_missing", `--project ${project}: no such folder; create it first`);
  const paths = clientPaths(opts.client, opts.home, project, opts.env);
  const server: ServerEntry = {
    command: process.execPath,
    args: [join(PACKAGE_ROOT, "bin", "run.js"), "mcp"],
    env: project === undefined ? {} : { APPTWIN_WORKSPACE: join(project, ".apptwin") },
    forward: [...new Set(opts.secretEnv)],
  };
  const writes: { path: string; text: string }[] = [];
  const skill: FileChange[] = [];
  for (const f of SKILL_FILES) {
    const text = await readFile(join(PACKAGE_ROOT, "docs", "skill", f), "utf8");
    const dest = join(paths.skillDir, f);
    const c = change(dest, await current(dest), text);
    skill.push(c);
    if (c.action !== "unchanged") writes.push({ path: dest, text });
  }
  const before = await current(paths.configFile);
  const after =
    paths.format === "json"
      ? withJsonServer(opts.client, paths.configFile, before, server)
      : withTomlServer(paths.configFile, before, server);
  const config = change(paths.configFile, before, after);
  if (config.action !== "unchanged") writes.push({ path: paths.configFile, text: after });
  if (!opts.dryRun)
    for (const w of writes) {
      await mkdir(dirname(w.path), { recursive: true });
      await writeFileAtomic(w.path, w.text);
    }
  const restart = { "claude-code": "Claude Code", codex: "Codex", cursor: "Cursor" }[opts.client];
  return {
    client: opts.client,
    scope: project === undefined ? "user" : "project",
    dry_run: opts.dryRun,
    skill,
    config,
    server,
    next:
      writes.length === 0
        ? `Nothing to change: ${restart} already has the apptwin skill and server.`
        : opts.dryRun
          ? "Dry run: nothing was written. Run it again without --dry-run to apply."
          : `Restart ${restart} (or reload its MCP servers), then ask it to build an environment of your app: it follows the apptwin skill and calls apptwin mcp.`,
  };
}

/** The human lines of a setup report. */
export function formatSetup(r: SetupResult): string[] {
  const verb = (a: FileChange["action"]) =>
    r.dry_run
      ? { create: "would create", update: "would update", unchanged: "unchanged" }[a]
      : { create: "created", update: "updated", unchanged: "unchanged" }[a];
  return [
    `apptwin setup for ${r.client} (${r.scope} scope)${r.dry_run ? ", dry run" : ""}:`,
    ...r.skill.map((f) => `  skill   ${verb(f.action)}  ${f.path}`),
    `  server  ${verb(r.config.action)}  ${r.config.path} (apptwin: ${r.server.command} ${r.server.args.join(" ")})`,
    ...(r.server.forward.length > 0
      ? [`  forwards ${r.server.forward.join(", ")} by name (never the value)`]
      : []),
    r.next,
  ];
}
