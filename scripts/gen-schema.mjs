#!/usr/bin/env node
// Writes schemas/scenario.schema.json from the zod scenario schema (zod 4's own
// z.toJSONSchema, see src/scenario/scenario-json-schema.ts), so editors
// autocomplete a scenario that sets "$schema". `--check` exits 1 when the
// checked-in file differs. Reads the compiled dist/ (npm test builds first).
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "schemas", "scenario.schema.json");
const rel = "schemas/scenario.schema.json";

let text;
try {
  const mod = await import(pathToFileURL(join(root, "dist", "scenario", "scenario-json-schema.js")).href);
  text = mod.scenarioJsonSchemaText();
} catch (e) {
  console.error(
    `gen-schema: cannot load the compiled scenario schema (${e.message}); run npm run build first`,
  );
  process.exit(1);
}

if (process.argv.includes("--check")) {
  let current = "";
  try {
    current = readFileSync(out, "utf8");
  } catch {
    console.error(`schema:check: ${rel} is missing; run npm run schema:gen and commit it`);
    process.exit(1);
  }
  if (current !== text) {
    console.error(
      `schema:check: ${rel} is out of date with src/scenario/scenario-schema.ts; run npm run schema:gen and commit it`,
    );
    process.exit(1);
  }
  console.error(`schema:check: ${rel} is current`);
} else {
  const tmp = `${out}.tmp-${process.pid}`;
  writeFileSync(tmp, text);
  renameSync(tmp, out);
  console.error(`gen-schema: wrote ${rel}`);
}
