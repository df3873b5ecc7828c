/** The twin's request for a held-out record: real ids the run paired are replaced, in a suffixed segment too. */
import { describe, expect, it } from "vitest";
import type { ApiRecord } from "../learn/api-records.js";
import { IdMap } from "./id-map.js";
import { twinRequestFor } from "./twin-request.js";

/** The parts of an API record `twinRequestFor` reads. */
const get = (url: string): ApiRecord =>
  ({
    method: "GET",
    query: [...new URL(url).searchParams],
    request: { kind: "none" },
    record: { request: { url, headers: [], body: null } },
  }) as unknown as ApiRecord;

describe("twinRequestFor", () => {
  const ids = new IdMap();
  ids.add(5, 6);

  it("translates a paired id as a whole segment, a query value, and before a file-type suffix", () => {
    expect(twinRequestFor(get("http://app/issues/5?parent=5"), ids)).toMatchObject({
      path: "/issues/6",
      query: [["parent", "6"]],
    });
    expect(twinRequestFor(get("http://app/issues/5.json"), ids).path).toBe("/issues/6.json");
  });

  it("leaves a segment alone whose id part was never paired, or that only starts with one", () => {
    expect(twinRequestFor(get("http://app/issues/7.json"), ids).path).toBe("/issues/7.json");
    expect(twinRequestFor(get("http://app/files/5.5.json"), ids).path).toBe("/files/5.5.json");
    expect(twinRequestFor(get("http://app/v5.json"), ids).path).toBe("/v5.json");
  });
});
