/** A not-found answer inferred for an item route that never missed, from siblings that all answer a miss alike. */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { buildEvidence } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, twinRequest } from "../../test/support/learn-specs.js";
import { learnModel } from "../bundle/learn-model.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const missing = { code: "invalid_id", message: "Invalid ID." };
/** A list and an item read of `/api/<name>`, and a miss of its item route answering `miss` (none when null). */
const reads = (name: string, miss: unknown): RecordSpec[] => [
  { path: `/api/${name}`, status: 200, res: [{ id: 1, title: `${name} one` }] },
  { path: `/api/${name}/1`, status: 200, res: { id: 1, title: `${name} one` } },
  ...(miss === null ? [] : [{ path: `/api/${name}/99`, status: 404, res: miss }]),
];

describe("a not-found answer inferred from sibling collections", () => {
  it("answers the miss every sibling recorded alike, labelled inferred", () => {
    const { model, seed } = learnSpecs([
      ...reads("pages", null),
      ...reads("notes", missing),
      ...reads("links", missing),
    ]);
    const pages = model.collections.find((c) => c.name === "pages")!;
    expect(pages.not_found).toMatchObject({ status: 404, body: missing });
    expect(pages.not_found_inferred).toEqual({ from: "links, notes" });
    expect(pages.explain).toContain(
      "Its not-found answer (404) is inferred, not recorded: links and notes answer an unknown id alike (apptwin build --no-infer leaves it out).",
    );
    const ep = createEpisode(model, seed, { episodeId: "nf" });
    const got = handleRequest(model, ep, twinRequest("GET", "/api/pages/7"));
    expect([got.status, got.body]).toEqual([404, { kind: "json", value: missing }]);
  });

  it("rightly infers none when the siblings answer differently, or with --no-infer", () => {
    const { model } = learnSpecs([
      ...reads("pages", null),
      ...reads("notes", missing),
      ...reads("links", { code: "no_link", message: "Invalid ID." }),
    ]);
    expect(model.collections.find((c) => c.name === "pages")!.not_found).toBeNull();
    const off = learnModel(
      buildEvidence([...reads("pages", null), ...reads("notes", missing), ...reads("links", missing)]),
      { infer: false },
    );
    expect(off.model.collections.find((c) => c.name === "pages")!.not_found).toBeNull();
  });
});
