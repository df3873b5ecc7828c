/**
 * Item reads whose query re-encodes a field (`?format=base64`): confirmed on an entity whose plain value the state
 * held, they teach the plain value of an entity the recording only listed; rejected when the encoded value is no
 * exact base64 of the held text.
 */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, twinRequest as send } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const b64 = (text: string) => `${Buffer.from(text).toString("base64")}\n`;
const listed = (id: string, size: number) => ({ id, content: null, format: null, size });
const file = (id: string, content: string, format: string) => ({ id, content, format, size: 4 });

function recording(aEncoded = b64("abcd")): RecordSpec[] {
  return [
    { path: "/api/files", status: 200, res: [listed("a.txt", 4), listed("b.csv", 4)] },
    { path: "/api/files/a.txt", status: 200, res: file("a.txt", "abcd", "text") },
    { path: "/api/files/a.txt?format=base64", status: 200, res: file("a.txt", aEncoded, "base64") },
    { path: "/api/files/b.csv?format=base64", status: 200, res: file("b.csv", b64("x,y\n"), "base64") },
  ];
}

const body = (a: ReturnType<typeof handleRequest>) => (a.body?.kind === "json" ? a.body.value : null);

describe("item reads that re-encode a field", () => {
  it("teaches the plain value of an entity only lists showed, once a read of a known one confirms the encoding", () => {
    const { model, seed } = learnSpecs(recording());
    expect(seed.collections["files"]).toContainEqual(file("b.csv", "x,y\n", "text"));
    const ep = createEpisode(model, seed, { episodeId: "encoded" });
    const a = handleRequest(model, ep, send("GET", "/api/files/b.csv"));
    expect([a.status, body(a)]).toEqual([200, file("b.csv", "x,y\n", "text")]);
  });

  it("rejects an encoding the confirming read does not show exactly: the listed entity stays unknown", () => {
    const { model, seed } = learnSpecs(recording(b64("abce")));
    expect(seed.collections["files"]).toContainEqual(listed("b.csv", 4));
    const ep = createEpisode(model, seed, { episodeId: "not-encoded" });
    const a = handleRequest(model, ep, send("GET", "/api/files/b.csv"));
    expect([a.status, (body(a) as { error: string }).error]).toEqual([501, "unknown_fields"]);
  });

  it("learns nothing from encoded reads alone: no read shows the plain value they encode", () => {
    const [list, , , b] = recording();
    const { seed } = learnSpecs([
      list!,
      { path: "/api/files/a.txt", status: 200, res: file("a.txt", "abcd", "text") },
      b!,
    ]);
    expect(seed.collections["files"]).toContainEqual(listed("b.csv", 4));
  });
});
