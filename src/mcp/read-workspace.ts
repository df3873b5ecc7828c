/**
 * Turning what an agent names (capture ids, absolute evidence paths) into
 * evidence files, with a recovery hint for every mistake: an unknown id
 * lists the known ones, a relative path says to give an absolute one.
 */
import { readFile } from "node:fs/promises";
import { isAbsolute } from "node:path";
import { type Coverage, CoverageSchema } from "../coverage/coverage-schema.js";
import type { Workspace } from "./workspace.js";

/** The coverage a capture landed with, or null when it cannot be read. */
export async function readCoverage(ws: Workspace, id: string): Promise<Coverage | null> {
  const text = await readFile(ws.coveragePath(id), "utf8").catch(() => null);
  if (text === null) return null;
  try {
    const parsed = CoverageSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The evidence files to read, or the problems with what was named and how to fix each. */
export type Sources = { paths: string[]; ids: string[] } | { problems: string[]; hints: string[] };

/** Resolves capture ids (in the workspace) and absolute evidence paths, in that order. */
export async function resolveSources(
  ws: Workspace,
  captureIds: readonly string[],
  evidencePaths: readonly string[],
): Promise<Sources> {
  const problems: string[] = [];
  const hints: string[] = [];
  const paths: string[] = [];
  if (captureIds.length === 0 && evidencePaths.length === 0)
    return {
      problems: ["Name at least one source: capture_ids or evidence_paths."],
      hints: [await knownIds(ws)],
    };
  for (const [i, id] of captureIds.entries()) {
    if ((await ws.capture(id)) === null)
      problems.push(`capture_ids[${i}]: no capture "${id}" in the workspace.`);
    else paths.push(ws.evidencePath(id));
  }
  if (problems.length > 0) hints.push(await knownIds(ws));
  for (const [i, p] of evidencePaths.entries()) {
    if (!isAbsolute(p)) {
      problems.push(`evidence_paths[${i}] must be an absolute path (got ${JSON.stringify(p)}).`);
      if (!hints.some((h) => h.startsWith("Give evidence")))
        hints.push(
          "Give evidence files by absolute path, e.g. /home/me/app/evidence.json, or name a capture id.",
        );
    } else paths.push(p);
  }
  return problems.length > 0 ? { problems, hints } : { paths, ids: [...captureIds] };
}

/** The recovery hint that lists the workspace's captures. */
export async function knownIds(ws: Workspace): Promise<string> {
  const ids = (await ws.captures()).map((c) => `${c.id} (${c.verdict})`);
  return ids.length === 0
    ? `The workspace ${ws.root} holds no captures yet: call capture_browser_scenario or import_har first.`
    : `Known capture ids: ${ids.join(", ")}.`;
}
