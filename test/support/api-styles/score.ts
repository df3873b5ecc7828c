/**
 * Scores one API style end to end: its app on a real loopback socket, the training and held-out scenarios sent
 * over real HTTP and recorded, a model learned from the training recording, the held-out one run against a fresh
 * episode of it (`runFidelity`: status and body), and the style's state-bearing headers compared besides.
 */
import { learnModel } from "../../../src/bundle/learn-model.js";
import type { Evidence } from "../../../src/evidence/evidence-schema.js";
import { IdMap, IdScopes } from "../../../src/fidelity/id-map.js";
import { type FidelityReport, runFidelity } from "../../../src/fidelity/run-fidelity.js";
import { twinRequestFor } from "../../../src/fidelity/twin-request.js";
import { selectApiRecords } from "../../../src/learn/api-records.js";
import { createEpisode } from "../../../src/serve/runtime/create-episode.js";
import { handleRequest } from "../../../src/serve/runtime/handle-request.js";
import { recordScenario, serveApp } from "./kit.js";
import type { ApiStyle } from "./styles-a.js";

/**
 * Held-out requests answered like the app, of all, and each one answered otherwise (`<request> <- <served_by>
 * <status>`, a cache-buster's clock value written `<ms>`).
 */
export interface StyleResult {
  matched: number;
  requests: number;
  misses: string[];
  report: FidelityReport;
  learned: ReturnType<typeof learnModel>;
  train: Evidence;
  heldout: Evidence;
}

/**
 * The held-out records whose named response headers the twin answers otherwise than the app (the app's origin
 * taken out of both, as the twin answers on its own). A fresh episode; ids need no translation, as the apps
 * number in turn and the twin continues their sequences.
 */
function headerMisses(
  style: ApiStyle,
  heldout: Evidence,
  learned: ReturnType<typeof learnModel>,
): Set<number> {
  const out = new Set<number>();
  if (!style.headers) return out;
  const episode = createEpisode(learned.model, learned.seed, { episodeId: "headers" });
  const ids = { ids: new IdMap(), scopes: new IdScopes(learned.model), model: learned.model };
  const norm = (v: string | null) => v?.replaceAll(heldout.app_origin, "") ?? null;
  for (const rec of selectApiRecords(heldout).api) {
    const res = handleRequest(learned.model, episode, twinRequestFor(rec, ids));
    for (const name of style.headers) {
      const app = rec.record.response?.headers.find((h) => h.name.toLowerCase() === name)?.value ?? null;
      const twin = Object.entries(res.headers).find(([k]) => k.toLowerCase() === name)?.[1] ?? null;
      if (norm(app) !== norm(twin)) out.add(rec.index);
    }
  }
  return out;
}

/** Runs one style from its app to its score. */
export async function scoreStyle(style: ApiStyle): Promise<StyleResult> {
  const app = await serveApp(style.app());
  try {
    const train = await recordScenario(app.origin, `${style.name}.train`, style.train);
    const heldout = await recordScenario(app.origin, `${style.name}.heldout`, style.heldout);
    for (const ev of [train, heldout])
      for (const r of ev.records)
        if ((r.response?.status ?? 500) >= 500)
          throw new Error(`${style.name}: ${r.request.url} failed on the app`);
    const learned = learnModel(train);
    const report = runFidelity({ model: learned.model, seed: learned.seed, heldout });
    const badHeaders = headerMisses(style, heldout, learned);
    const misses: string[] = [];
    let matched = 0;
    for (const r of report.results) {
      if (r.matched && !badHeaders.has(r.index)) matched++;
      else
        misses.push(
          `${r.request.replace(app.origin, "").replace(/_=\d+/g, "_=<ms>")} <- ${r.served_by} ${r.status.got}${r.matched ? " (headers)" : ""}`,
        );
    }
    return { matched, requests: report.requests, misses, report, learned, train, heldout };
  } finally {
    await app.close();
  }
}
