#!/usr/bin/env node
// Writes oclif.manifest.json after the build so the CLI starts by reading one
// small JSON file instead of importing every command (and with them
// Playwright and the MCP SDK) just to find the one being run.
import { rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Config } from "@oclif/core";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
// oclif does not pass ignoreManifest on to the root plugin: with a manifest
// present it would read that one back, and a rebuild would keep stale flags,
// summaries and examples. Remove it first so the commands are read from dist.
rmSync(join(root, "oclif.manifest.json"), { force: true });
const config = await Config.load({ root, ignoreManifest: true });
const plugin = config.plugins.get(config.pjson.name);
if (!plugin) throw new Error(`gen-manifest: no plugin ${config.pjson.name} at ${root}`);
const manifest = plugin.manifest;
const ids = Object.keys(manifest.commands).sort();
const commands = Object.fromEntries(ids.map((id) => [id, manifest.commands[id]]));
writeFileSync(join(root, "oclif.manifest.json"), `${JSON.stringify({ ...manifest, commands }, null, 2)}\n`);
console.error(`gen-manifest: ${ids.length} commands (${ids.join(", ")})`);
