import { describe, expect, it } from "vitest";
import { buildEvidence } from "../../test/fixtures/evidence/build-evidence.js";
import { evidenceName } from "./evidence-name.js";
import type { Evidence } from "./evidence-schema.js";
import { mergeEvidence } from "./merge.js";

function capture(name: string, time: number): Evidence {
  const e = buildEvidence([{ path: `/api/${name}`, status: 200, res: [], time }]);
  return {
    ...e,
    evidence_id: `ev_${name}`,
    source: { ...e.source, scenario: { name, digest: "0".repeat(64) } },
  };
}

function har(fileName: string): Evidence {
  const e = buildEvidence([{ path: "/api/x", status: 200, res: [] }]);
  return {
    ...e,
    source: { kind: "har", scenario: null, har: { file_name: fileName, creator: "x" }, merged: null },
  };
}

describe("evidenceName", () => {
  it("is the scenario's name for a capture and the file's base name for a HAR import", () => {
    expect(evidenceName(capture("items-full", 1))).toBe("items-full");
    expect(evidenceName(har("recording.har"))).toBe("recording");
    expect(evidenceName(har("shop.evidence.json"))).toBe("shop");
  });

  it("is what the merged sources' names share, cut at a word, else the first source's", () => {
    const named = (a: string, b: string) => evidenceName(mergeEvidence([capture(a, 1), capture(b, 2)]));
    expect(named("items-full", "items-heldout")).toBe("items");
    expect(named("jupyter.train", "jupyter.heldout")).toBe("jupyter");
    expect(named("boards", "boards")).toBe("boards");
    // "item" is a half word of both: no shared name, so the first source (by time) names it.
    expect(named("itemsA", "itemsB")).toBe("itemsA");
    expect(named("shop", "blog")).toBe("shop");
  });

  it("keeps the names through a merge of merges", () => {
    const inner = mergeEvidence([capture("crm-a", 1), capture("crm-b", 2)]);
    expect(inner.source.names).toEqual(["crm-a", "crm-b"]);
    expect(evidenceName(mergeEvidence([inner, capture("crm-c", 3)]))).toBe("crm");
  });
});
