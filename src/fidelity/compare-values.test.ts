/** Texts that name an id both sides drew: the twin's own UUID in the real one's place matches; nothing else does. */
import { describe, expect, it } from "vitest";
import { compareValues, type FieldDifference } from "./compare-values.js";
import { IdMap } from "./id-map.js";

const real = "ea725123-05e5-49ca-bc5d-5d67f1fd6c5b";
const twin = "796f0f5f-d8c1-42b6-a510-caa66292f643";
const other = "0b6f2c1e-9a43-4f55-8d2e-1c3b5a7d9e01";

function diff(expected: unknown, got: unknown): FieldDifference[] {
  const ids = new IdMap();
  ids.add("sessions", real, twin);
  const out: FieldDifference[] = [];
  compareValues(expected, got, "body", { ids, scopes: new Map() }, out);
  return out;
}

describe("a UUID inside a text", () => {
  it("matches the twin's id where the app's paired one stood", () => {
    expect(
      diff(
        { message: `Session not found: session_id='${real}'` },
        { message: `Session not found: session_id='${twin}'` },
      ),
    ).toEqual([]);
  });

  it("still differs for an unpaired UUID, or other words around the paired one", () => {
    expect(diff(`Session not found: '${other}'`, `Session not found: '${twin}'`)).toHaveLength(1);
    expect(diff(`Session not found: '${real}'`, `Kernel not found: '${twin}'`)).toHaveLength(1);
  });
});
