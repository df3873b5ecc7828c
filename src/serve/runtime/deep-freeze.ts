/**
 * Deep freezing: every entity the twin's state holds is frozen, all the way
 * down, so an answer can carry the state's own objects (serialised once, never
 * cloned first) and still nothing that receives an answer can change the state
 * through it.
 */

/** Freezes a JSON-like value and everything inside it (a part frozen only at its top is walked too); returns it. */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== "object") return value;
  Object.freeze(value);
  if (Array.isArray(value)) {
    for (const v of value) deepFreeze(v);
  } else {
    for (const k in value) deepFreeze((value as Record<string, unknown>)[k]);
  }
  return value;
}
