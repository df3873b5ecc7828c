/** The file side of HAR import and export: read and parse a HAR, write evidence or a HAR, refuse clobbering. */
import { basename } from "node:path";
import { UserError } from "../errors/user-error.js";
import { assertFileDestination, writeFileAtomic } from "../util/atomic-write.js";
import { canonicalJson } from "../util/canonical-json.js";
import { readEvidence, readTextFile, writeEvidence } from "./evidence-io.js";
import { evidenceToHar } from "./har-export.js";
import { harTextToEvidence } from "./har-import.js";
import { mergeEvidence } from "./merge.js";
import { shortSecret } from "./redaction.js";

/** What an import, export or merge wrote, for the one summary line and `--json`. */
export interface WriteSummary {
  out: string;
  evidence_id: string;
  records: number;
  redactions: number;
  /** For merges: how many distinct evidence files went in. */
  sources?: number;
}

/** Reads each `--secret-env NAME` from the environment; a missing or empty variable is a UserError naming it. */
export function secretsFromEnv(
  names: readonly string[],
  env: NodeJS.ProcessEnv,
): { id: string; value: string }[] {
  return names.map((name) => {
    const value = env[name];
    if (value === undefined || value === "") {
      throw new UserError(
        "missing_secret_env",
        `--secret-env ${name}: the environment variable ${name} is not set (or empty); export it before running, or drop the flag`,
      );
    }
    const short = shortSecret(value);
    if (short !== null)
      throw new UserError("short_secret", `--secret-env ${name}: the value of ${name} ${short}`);
    return { id: name, value };
  });
}

/** Imports a HAR file into a redacted evidence file. */
export async function importHarFile(
  harPath: string,
  opts: { out: string; force: boolean; secrets: { id: string; value: string }[] },
): Promise<WriteSummary> {
  await assertFileDestination(opts.out, opts);
  const text = await readTextFile(harPath, "HAR");
  const e = harTextToEvidence(text, { file: harPath, fileName: basename(harPath), secrets: opts.secrets });
  await writeEvidence(opts.out, e);
  return summary(opts.out, e);
}

/** Exports an evidence file as HAR 1.2. */
export async function exportHarFile(
  evidencePath: string,
  opts: { out: string; force: boolean },
): Promise<WriteSummary> {
  await assertFileDestination(opts.out, { force: opts.force, example: "recording.har" });
  const e = await readEvidence(evidencePath);
  await writeFileAtomic(opts.out, canonicalJson(evidenceToHar(e)));
  return summary(opts.out, e);
}

/** Merges evidence files into one. */
export async function mergeEvidenceFiles(
  paths: readonly string[],
  opts: { out: string; force: boolean },
): Promise<WriteSummary> {
  await assertFileDestination(opts.out, opts);
  const list = [];
  for (const p of paths) list.push(await readEvidence(p));
  const merged = mergeEvidence(list);
  await writeEvidence(opts.out, merged);
  return { ...summary(opts.out, merged), sources: merged.source.merged?.length ?? list.length };
}

function summary(
  out: string,
  e: { evidence_id: string; records: unknown[]; redactions: { count: number }[] },
): WriteSummary {
  return {
    out,
    evidence_id: e.evidence_id,
    records: e.records.length,
    redactions: e.redactions.reduce((n, r) => n + r.count, 0),
  };
}
