/**
 * Canonical JSON: object keys sorted by UTF-16 code unit (Array.prototype.sort, never locale-aware), two-space indent, a
 * trailing newline. Same value in, same bytes out, whatever the insertion
 * order was. Every file apptwin writes for comparison goes through this.
 */

/** Returns the value with every object's keys sorted (arrays keep their order). */
export function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value !== null && typeof value === "object") {
    // defineProperty, not assignment: an own "__proto__" key (legal JSON) would
    // otherwise set the prototype and silently vanish from the output.
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value as Record<string, unknown>).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) {
        Object.defineProperty(out, key, {
          value: sortKeysDeep(v),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
    }
    return out;
  }
  return value;
}

/** Canonical, human-readable JSON text with a trailing newline. */
export function canonicalJson(value: unknown): string {
  return `${JSON.stringify(sortKeysDeep(value), null, 2)}\n`;
}

/** Canonical compact JSON (no whitespace), for digests. */
export function canonicalJsonCompact(value: unknown): string {
  return JSON.stringify(sortKeysDeep(value));
}
