/**
 * Reading scenarios from disk: one file, or a directory read in name order
 * with every skipped entry listed and its reason. Messages name files by their
 * base name (`login.json: steps[3].target …`); reports carry the path as given.
 */
import { readdir, readFile, realpath, stat } from "node:fs/promises";
import { basename, join, relative, sep } from "node:path";
import { DocumentError, FileError, type Issue } from "../errors/user-error.js";
import { parseScenario, validateScenarioText } from "./parse-scenario.js";
import type { Scenario } from "./scenario-schema.js";

/** An entry of a directory that was not read, and why. */
export interface SkippedEntry {
  name: string;
  reason: string;
}

/** The validation of one file. */
export interface FileValidation {
  file: string;
  valid: boolean;
  issues: Issue[];
}

/** What `apptwin validate` reports: every file with its issues, every skipped entry. */
export interface ValidationReport {
  valid: boolean;
  files: FileValidation[];
  skipped: SkippedEntry[];
}

async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") {
      throw new FileError(
        "file_not_found",
        `${path}: no such file or directory; give a scenario .json file or a directory of them`,
      );
    }
    throw new FileError("file_unreadable", `${path}: cannot be read (${code ?? (e as Error).message})`);
  }
}

/** Reads and validates one scenario file; throws `DocumentError` with every issue, or `FileError`. */
export async function loadScenario(path: string): Promise<Scenario> {
  return parseScenario(await readText(path), basename(path));
}

/** The `.json` files of a directory in name order, and every other entry with the reason it was skipped. */
export async function listScenarioDir(dir: string): Promise<{ files: string[]; skipped: SkippedEntry[] }> {
  const real = await realpath(dir);
  const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  const files: string[] = [];
  const skipped: SkippedEntry[] = [];
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isSymbolicLink()) {
      const target = await realpath(path).catch(() => undefined);
      if (target === undefined) {
        skipped.push({ name: e.name, reason: "a broken symbolic link" });
        continue;
      }
      const rel = relative(real, target);
      if (rel.startsWith(`..${sep}`) || rel === ".." || rel === "" || rel.startsWith(sep)) {
        skipped.push({
          name: e.name,
          reason: `a symbolic link leading outside the directory (to ${target})`,
        });
        continue;
      }
      const st = await stat(path);
      if (st.isDirectory()) {
        skipped.push({ name: e.name, reason: "a link to a directory (subdirectories are not read)" });
        continue;
      }
      // A FIFO or device behind a link would block the read forever.
      if (!st.isFile()) {
        skipped.push({ name: e.name, reason: "a link to something that is not a regular file" });
        continue;
      }
    } else if (e.isDirectory()) {
      skipped.push({ name: e.name, reason: "a directory (subdirectories are not read)" });
      continue;
    } else if (!e.isFile()) {
      skipped.push({ name: e.name, reason: "not a regular file" });
      continue;
    }
    if (!e.name.endsWith(".json")) skipped.push({ name: e.name, reason: "not a .json file" });
    else files.push(path);
  }
  return { files, skipped };
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") {
      throw new FileError(
        "file_not_found",
        `${path}: no such file or directory; give a scenario .json file or a directory of them`,
      );
    }
    throw e;
  }
}

/** Reads every scenario of a directory; throws `DocumentError` listing every issue of every invalid file. */
export async function loadScenarioDir(
  dir: string,
): Promise<{ scenarios: { file: string; scenario: Scenario }[]; skipped: SkippedEntry[] }> {
  const { files, skipped } = await listScenarioDir(dir);
  const scenarios: { file: string; scenario: Scenario }[] = [];
  const issues: Issue[] = [];
  for (const file of files) {
    const r = validateScenarioText(await readText(file), basename(file));
    if (r.scenario) scenarios.push({ file, scenario: r.scenario });
    else for (const issue of r.issues) issues.push(issue);
  }
  if (issues.length > 0) throw new DocumentError(dir, issues);
  return { scenarios, skipped };
}

/** Validates a file or a directory of scenario files; a missing path is a `FileError`. */
export async function validateScenarioPath(path: string): Promise<ValidationReport> {
  const dir = await isDirectory(path);
  const { files, skipped } = dir ? await listScenarioDir(path) : { files: [path], skipped: [] };
  const results: FileValidation[] = [];
  for (const file of files) {
    const { issues } = validateScenarioText(await readText(file), basename(file));
    results.push({ file, valid: issues.length === 0, issues });
  }
  return { valid: results.every((f) => f.valid), files: results, skipped };
}
