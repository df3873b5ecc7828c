/**
 * Where each coding agent reads skills and MCP servers, and how its config
 * file gains an `apptwin` server while keeping everything else in it:
 *
 * | client | scope | skill folder | MCP config |
 * |---|---|---|---|
 * | claude-code | user | ~/.claude/skills/apptwin | ~/.claude.json `mcpServers` |
 * | claude-code | project | DIR/.claude/skills/apptwin | DIR/.mcp.json `mcpServers` |
 * | codex | user | ~/.agents/skills/apptwin | $CODEX_HOME/config.toml (~/.codex) `[mcp_servers.apptwin]` |
 * | codex | project | DIR/.agents/skills/apptwin | DIR/.codex/config.toml (trusted projects) |
 * | cursor | user | ~/.cursor/skills/apptwin | ~/.cursor/mcp.json `mcpServers` |
 * | cursor | project | DIR/.cursor/skills/apptwin | DIR/.cursor/mcp.json `mcpServers` |
 *
 * Secrets are forwarded by variable name only, in each client's own syntax.
 */
import { join } from "node:path";
import { parse as parseToml } from "smol-toml";
import { DocumentError } from "../errors/user-error.js";

/** The clients `apptwin setup` knows. */
export const CLIENTS = ["claude-code", "codex", "cursor"] as const;
export type ClientName = (typeof CLIENTS)[number];

/** The MCP server entry to register: how to start `apptwin mcp`. */
export interface ServerEntry {
  command: string;
  args: string[];
  /** Fixed variables (the workspace of a project). */
  env: Record<string, string>;
  /** Variables forwarded by name from the client's environment (secrets). */
  forward: string[];
}

/** Where one client reads the skill and the MCP config, for a scope. */
export interface ClientPaths {
  skillDir: string;
  configFile: string;
  format: "json" | "toml";
}

/** The paths of `client` for a project folder, or for the user when `project` is undefined. */
export function clientPaths(
  client: ClientName,
  home: string,
  project: string | undefined,
  env: Record<string, string | undefined>,
): ClientPaths {
  const base = project ?? home;
  switch (client) {
    case "claude-code":
      return {
        skillDir: join(base, ".claude", "skills", "apptwin"),
        configFile: project === undefined ? join(home, ".claude.json") : join(project, ".mcp.json"),
        format: "json",
      };
    case "codex": {
      const codexHome =
        env["CODEX_HOME"] !== undefined && env["CODEX_HOME"] !== ""
          ? env["CODEX_HOME"]
          : join(home, ".codex");
      return {
        skillDir: join(base, ".agents", "skills", "apptwin"),
        configFile:
          project === undefined ? join(codexHome, "config.toml") : join(project, ".codex", "config.toml"),
        format: "toml",
      };
    }
    case "cursor":
      return {
        skillDir: join(base, ".cursor", "skills", "apptwin"),
        configFile: join(base, ".cursor", "mcp.json"),
        format: "json",
      };
  }
}

/** The JSON entry of `mcpServers.apptwin` in the client's own syntax for forwarded variables. */
function jsonEntry(client: ClientName, e: ServerEntry): Record<string, unknown> {
  const ref = (name: string) => (client === "cursor" ? `\${env:${name}}` : `\${${name}}`);
  const env = { ...e.env, ...Object.fromEntries(e.forward.map((n) => [n, ref(n)])) };
  return {
    ...(client === "claude-code" ? { type: "stdio" } : {}),
    command: e.command,
    args: e.args,
    ...(Object.keys(env).length > 0 ? { env } : {}),
  };
}

/** A JSON config with `mcpServers.apptwin` set and everything else kept; `text` is the file now (or null). */
export function withJsonServer(
  client: ClientName,
  file: string,
  text: string | null,
  e: ServerEntry,
): string {
  let doc: Record<string, unknown> = {};
  if (text !== null && text.trim() !== "") {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (error) {
      throw new DocumentError(file, [
        {
          code: "invalid_json",
          path: "",
          message: `${file}: is not valid JSON (${(error as Error).message}); fix it or move it aside, then run apptwin setup again (nothing was written)`,
        },
      ]);
    }
    if (raw === null || typeof raw !== "object" || Array.isArray(raw))
      throw new DocumentError(file, [
        { code: "invalid_type", path: "", message: `${file}: must hold a JSON object (nothing was written)` },
      ]);
    doc = raw as Record<string, unknown>;
  }
  const servers = doc.mcpServers;
  if (servers !== undefined && (servers === null || typeof servers !== "object" || Array.isArray(servers)))
    throw new DocumentError(file, [
      {
        code: "invalid_type",
        path: "mcpServers",
        message: `${file}: mcpServers must be an object (nothing was written)`,
      },
    ]);
  const next = {
    ...doc,
    mcpServers: { ...(servers as Record<string, unknown> | undefined), apptwin: jsonEntry(client, e) },
  };
  return `${JSON.stringify(next, null, 2)}\n`;
}

function tomlString(s: string): string {
  return JSON.stringify(s);
}

/** The `[mcp_servers.apptwin]` table of a Codex config. */
function tomlBlock(e: ServerEntry): string {
  const lines = [
    "[mcp_servers.apptwin]",
    `command = ${tomlString(e.command)}`,
    `args = [${e.args.map(tomlString).join(", ")}]`,
  ];
  const env = Object.entries(e.env);
  if (env.length > 0)
    lines.push(`env = { ${env.map(([k, v]) => `${tomlString(k)} = ${tomlString(v)}`).join(", ")} }`);
  if (e.forward.length > 0) lines.push(`env_vars = [${e.forward.map(tomlString).join(", ")}]`);
  return `${lines.join("\n")}\n`;
}

const APPTWIN_HEADER =
  /^\s*\[\s*mcp_servers\s*\.\s*(?:apptwin|"apptwin"|'apptwin')\s*(?:\.[^\]]*)?\]\s*(?:#.*)?$/;
const ANY_HEADER = /^\s*\[/;

function parseOrThrow(file: string, text: string, what: string): Record<string, unknown> {
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch (error) {
    throw new DocumentError(file, [
      {
        code: "invalid_toml",
        path: "",
        message: `${file}: ${what} (${(error as Error).message.split("\n")[0]}); nothing was written`,
      },
    ]);
  }
}

/**
 * A Codex config with the `[mcp_servers.apptwin]` table replaced (or
 * appended) and every other line kept as it was, comments included. The
 * result is parsed again: it must hold the same other settings and exactly
 * the entry asked for, or nothing is written.
 */
export function withTomlServer(file: string, text: string | null, e: ServerEntry): string {
  const before = text === null ? {} : parseOrThrow(file, text, "is not valid TOML; fix it or move it aside");
  const kept: string[] = [];
  let inApptwin = false;
  for (const line of (text ?? "").split("\n")) {
    if (APPTWIN_HEADER.test(line)) inApptwin = true;
    else if (ANY_HEADER.test(line)) inApptwin = false;
    if (!inApptwin) kept.push(line);
  }
  const head = kept.join("\n").replace(/\s+$/, "");
  const out = `${head === "" ? "" : `${head}\n\n`}${tomlBlock(e)}`;
  const after = parseOrThrow(
    file,
    out,
    "defines mcp_servers.apptwin in a form apptwin setup cannot replace (dotted keys or an inline table); remove that entry and run apptwin setup again",
  );
  const strip = (doc: Record<string, unknown>) => {
    const { mcp_servers, ...rest } = doc;
    const { apptwin: _, ...others } = (mcp_servers ?? {}) as Record<string, unknown>;
    return JSON.stringify({ rest, others });
  };
  if (strip(before) !== strip(after))
    throw new DocumentError(file, [
      {
        code: "unsafe_edit",
        path: "mcp_servers.apptwin",
        message: `${file}: replacing [mcp_servers.apptwin] would change other settings; edit it by hand (nothing was written)`,
      },
    ]);
  return out;
}
