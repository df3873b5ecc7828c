/**
 * Reading scenarios from disk: one file, or a directory read in name order
 * with every skipped entry listed and its reason. Messages name files by their
 * base name (`login.json: steps[3].target …`); reports carry the path as given.
 */
import { constants } from "node:fs";
import { open, readdir, realpath, stat } from "node:fs/promises";
import { basename, join, relative, sep } from "node:path";
import { DocumentError, FileError, type Issue } from "../errors/user-error.js";
import { makeIssue } from "./document-issue.js";
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

/** The most bytes a scenario file may hold: a scenario is a short script, so anything larger is refused unread. */
export const MAX_SCENARIO_BYTES = 4 * 1024 * 1024;

const GIVE = "give a scenario .json file or a directory of them";

/** Why a scenario file could not be read: an issue of the file (`text` follows "the scenario"). */
interface ReadProblem {
  code: "file_not_found" | "not_regular_file" | "file_too_big" | "file_unreadable";
  text: string;
}

function tooBig(size: number): ReadProblem {
  return {
    code: "file_too_big",
    text: `is ${size} bytes, more than a scenario file may hold (4 MiB, ${MAX_SCENARIO_BYTES} bytes); a scenario is a short script, so split it into several files`,
  };
}

function unreadable(e: unknown): ReadProblem {
  const { code, message } = e as NodeJS.ErrnoException;
  if (code === "ENOENT") return { code: "file_not_found", text: "no such file or directory" };
  const why = code ? message.match(new RegExp(`^${code}: ([^,]+)`))?.[1] : undefined;
  return { code: "file_unreadable", text: `cannot be read (${code ?? message}${why ? `: ${why}` : ""})` };
}

/**
 * Reads a scenario file with its size bounded: a path that is not a regular
 * file (a device such as /dev/zero, a FIFO) is refused before it is opened,
 * a file over {@link MAX_SCENARIO_BYTES} by its size, and a file that grows
 * while it is read stops at the limit.
 */
async function readScenarioFile(path: string): Promise<{ text: string } | { problem: ReadProblem }> {
  try {
    const before = await stat(path);
    if (!before.isFile()) return { problem: { code: "not_regular_file", text: "is not a regular file" } };
    if (before.size > MAX_SCENARIO_BYTES) return { problem: tooBig(before.size) };
    // O_NONBLOCK: if the path became a FIFO since the stat, opening it must not wait for a writer.
    const handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    try {
      const st = await handle.stat();
      if (!st.isFile()) return { problem: { code: "not_regular_file", text: "is not a regular file" } };
      const chunks: Buffer[] = [];
      let total = 0;
      for (;;) {
        const { bytesRead, buffer } = await handle.read(Buffer.alloc(64 * 1024), 0, 64 * 1024, null);
        if (bytesRead === 0) break;
        total += bytesRead;
        if (total > MAX_SCENARIO_BYTES) return { problem: tooBig(Math.max(total, st.size)) };
        chunks.push(buffer.subarray(0, bytesRead));
      }
      return { text: Buffer.concat(chunks).toString("utf8") };
    } finally {
      await handle.close();
    }
  } catch (e) {
    return { problem: unreadable(e) };
  }
}

/** Reads a scenario file given by the user; any reason it cannot be read is a `FileError` naming the path. */
async function readText(path: string): Promise<string> {
  const r = await readScenarioFile(path);
  if ("text" in r) return r.text;
  const { code, text } = r.problem;
  if (code === "file_not_found" || code === "not_regular_file") {
    throw new FileError(code, `${path}: ${text.replace(/^is /, "")}; ${GIVE}`);
  }
  throw new FileError(code, `${path}: the scenario ${text}`);
}

/** Validates one file of a list: a file that cannot be read is one issue of that file, not the end of the run. */
async function validateFile(file: string): Promise<{ scenario?: Scenario; issues: Issue[] }> {
  const r = await readScenarioFile(file);
  if ("text" in r) return validateScenarioText(r.text, basename(file));
  return { issues: [makeIssue(basename(file), r.problem.code, [], r.problem.text)] };
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
      throw new FileError("file_not_found", `${path}: no such file or directory; ${GIVE}`);
    }
    const code = (e as NodeJS.ErrnoException).code ?? String(e);
    throw new FileError("file_unreadable", `${path}: cannot be read (${code}); ${GIVE}`);
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
    const r = await validateFile(file);
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
  if (dir && files.length === 0) {
    const why = skipped.map((s) => `${s.name}: ${s.reason}`).join("; ");
    throw new FileError(
      "no_scenarios",
      `${path}: holds no .json scenario file to validate${why === "" ? "" : ` (skipped ${why})`}`,
    );
  }
  const results: FileValidation[] = [];
  for (const file of files) {
    const { issues } = dir
      ? await validateFile(file)
      : validateScenarioText(await readText(file), basename(file));
    results.push({ file, valid: issues.length === 0, issues });
  }
  return { valid: results.every((f) => f.valid), files: results, skipped };
}
