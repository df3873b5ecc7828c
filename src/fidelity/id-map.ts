/**
 * The correspondence between ids the real app assigned in the held-out run
 * and the ids the twin assigned to the same creates, so later requests that
 * name the real id are sent to the twin with its own. Integer sequences
 * usually agree (learned sequences continue after the highest id seen);
 * UUIDs never do, which is why the map exists.
 */

import { isUuid } from "../learn/value-kinds.js";

const ID_KEY = /^(id|uuid|_id)$|_id$|[a-z]Id$/;

/** Real id → twin id, kept by type so `7` and `"7"` stay apart. */
export class IdMap {
  readonly #map = new Map<string, string | number>();

  #key(value: string | number): string {
    return `${typeof value}:${value}`;
  }

  /** Records that the real `real` is the twin's `twin` (the first pairing of an id wins). */
  add(real: string | number, twin: string | number): void {
    const k = this.#key(real);
    if (!this.#map.has(k)) this.#map.set(k, twin);
  }

  /** The twin's id for a real id value, or undefined when none was paired. */
  get(real: unknown): string | number | undefined {
    if (typeof real !== "string" && typeof real !== "number") return undefined;
    return this.#map.get(this.#key(real));
  }

  /** The twin's id for a path segment or query value (a string that may spell a number). */
  translateText(text: string): string {
    const twin =
      this.#map.get(`string:${text}`) ?? (/^\d+$/.test(text) ? this.#map.get(`number:${text}`) : undefined);
    return twin === undefined ? text : String(twin);
  }

  /** A copy of a JSON value with every id-like field's real id replaced by the twin's. */
  translateJson(value: unknown, key = ""): unknown {
    if (Array.isArray(value)) return value.map((v) => this.translateJson(v, key));
    if (value !== null && typeof value === "object")
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.translateJson(v, k)]));
    if (ID_KEY.test(key)) return this.get(value) ?? value;
    return value;
  }

  /**
   * Pairs ids found at the same id-like places of the real and the twin's
   * answer. Never a value the request itself `sent` (a reference the client
   * chose is not an id the app assigned, so a wrong one stays a difference).
   * `generated`: UUIDs on both sides, paired before comparing (the twin
   * draws its own); `assigned`: any other differing id, paired after
   * comparing, so the difference is reported once and later requests by the
   * real id still reach the twin's entity.
   */
  learn(
    real: unknown,
    twin: unknown,
    pass: "generated" | "assigned",
    sent: ReadonlySet<string> = new Set(),
    key = "",
    depth = 0,
  ): void {
    if (depth > 8) return;
    if (Array.isArray(real) && Array.isArray(twin)) {
      for (let i = 0; i < real.length; i++) this.learn(real[i], twin[i], pass, sent, key, depth + 1);
      return;
    }
    if (
      real !== null &&
      typeof real === "object" &&
      twin !== null &&
      typeof twin === "object" &&
      !Array.isArray(twin)
    ) {
      for (const [k, r] of Object.entries(real))
        this.learn(r, (twin as Record<string, unknown>)[k], pass, sent, k, depth + 1);
      return;
    }
    if (!ID_KEY.test(key) || real === twin || sent.has(String(real))) return;
    if (pass === "generated" && isUuid(real) && isUuid(twin)) this.add(real, twin);
    const scalar = (v: unknown) => typeof v === "number" || typeof v === "string";
    if (pass === "assigned" && scalar(real) && typeof real === typeof twin)
      this.add(real as string | number, twin as string | number);
  }
}

/** True for a key that names an id (`id`, `uuid`, `*_id`, `*Id`). */
export function isIdKey(key: string): boolean {
  return ID_KEY.test(key);
}
