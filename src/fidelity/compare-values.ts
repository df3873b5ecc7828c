/**
 * How a twin's answer is compared with the real one: equal JSON, except that
 * a time compares by its format only (both ISO in the same layout, both epoch ms, both epoch s),
 * a redaction marker in the recording matches anything, and an id the real
 * app assigned matches the id the twin assigned to the same create (of the
 * collection the id's place names; a string id anywhere it is unambiguous, a UUID inside a text too).
 */
import { isObject, isRedactionMarker, readTime, sameTimeShape } from "../learn/value-kinds.js";
import type { IdMap } from "./id-map.js";

/** The ids a comparison may pair: the map, and the collection of each id-like place of the expected answer by display path. */
export interface IdPairing {
  ids: IdMap;
  scopes: ReadonlyMap<string, string>;
}

/** One place where the twin's answer differs from the recorded one. */
export interface FieldDifference {
  /** Display path: `status`, `body`, `body.data[0].title`. */
  field: string;
  expected: unknown;
  got: unknown;
}

function child(path: string, key: string | number): string {
  return typeof key === "number" ? `${path}[${key}]` : `${path}.${key}`;
}

/** Compares a recorded JSON value with the twin's, appending each difference (at most `limit`) to `out`. */
export function compareValues(
  expected: unknown,
  got: unknown,
  path: string,
  ids: IdPairing,
  out: FieldDifference[],
  limit = 20,
): void {
  if (out.length >= limit) return;
  if (isRedactionMarker(expected)) return;
  if (Object.is(expected, got)) return;
  const mapped = ids.ids.get(ids.scopes.get(path) ?? null, expected);
  if (mapped !== undefined && mapped === got) return;
  // A text naming an id both sides drew (`Session not found: session_id='…'`): the twin's own id in its place.
  if (typeof expected === "string" && typeof got === "string" && ids.ids.translateUuidsIn(expected) === got)
    return;
  const te = readTime(expected);
  if (te !== null) {
    const tg = readTime(got);
    if (tg !== null && sameTimeShape(te, tg)) return;
    out.push({ field: path, expected, got });
    return;
  }
  if (Array.isArray(expected) && Array.isArray(got)) {
    if (expected.length !== got.length) {
      out.push({ field: `${path}.length`, expected: expected.length, got: got.length });
    }
    const n = Math.min(expected.length, got.length);
    for (let i = 0; i < n; i++) compareValues(expected[i], got[i], child(path, i), ids, out, limit);
    return;
  }
  if (isObject(expected) && isObject(got)) {
    const keys = [...new Set([...Object.keys(expected), ...Object.keys(got)])].sort();
    for (const k of keys) {
      const inE = Object.hasOwn(expected, k);
      const inG = Object.hasOwn(got, k);
      if (inE && inG) compareValues(expected[k], got[k], child(path, k), ids, out, limit);
      else if (out.length < limit)
        out.push({
          field: child(path, k),
          expected: inE ? expected[k] : "(absent)",
          got: inG ? got[k] : "(absent)",
        });
    }
    return;
  }
  out.push({ field: path, expected, got });
}
