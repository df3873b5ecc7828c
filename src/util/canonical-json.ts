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

/** Whether JSON.stringify leaves an object property out (sortKeysDeep already dropped undefined). */
function omitted(v: unknown): boolean {
  return v === undefined || typeof v === "function" || typeof v === "symbol";
}

/** The canonical text of `value` at `indent`, walking arrays and objects `depth` levels down, in pieces. */
function* pieces(value: unknown, indent: string, depth: number): Generator<string> {
  if (depth <= 0 || value === null || typeof value !== "object") {
    const text = JSON.stringify(sortKeysDeep(value), null, 2) ?? "null";
    // JSON text never holds a raw newline inside a string, so every newline starts a line to indent.
    yield indent === "" ? text : text.replace(/\n/g, `\n${indent}`);
    return;
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return yield "[]";
    yield "[";
    for (let i = 0; i < value.length; i++) {
      yield `${i === 0 ? "" : ","}\n${inner}`;
      yield* pieces(omitted(value[i]) ? null : value[i], inner, depth - 1);
    }
    return yield `\n${indent}]`;
  }
  const record = value as Record<string, unknown>;
  // The order JSON.stringify writes sortKeysDeep's object in: inserted sorted, enumerated as the engine
  // enumerates (integer-like keys first, ascending).
  const sorted = Object.keys(record).sort();
  const keys = Object.keys(Object.fromEntries(sorted.map((k) => [k, 0]))).filter((k) => !omitted(record[k]));
  if (keys.length === 0) return yield "{}";
  yield "{";
  for (let i = 0; i < keys.length; i++) {
    yield `${i === 0 ? "" : ","}\n${inner}${JSON.stringify(keys[i])}: `;
    yield* pieces(record[keys[i]!], inner, depth - 1);
  }
  yield `\n${indent}}`;
}

/**
 * `canonicalJson(value)` as UTF-8 bytes, made without the whole text or a key-sorted copy of the whole value:
 * arrays and objects are walked `depth` levels down (default 2: an evidence's records one by one) and encoded
 * piece by piece into one buffer of the exact size (a first pass measures it). For large documents.
 */
export function canonicalJsonBytes(value: unknown, depth = 2): Uint8Array {
  let size = 1;
  for (const p of pieces(value, "", depth)) size += Buffer.byteLength(p);
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (const p of pieces(value, "", depth)) at += out.write(p, at);
  out.write("\n", at);
  return out;
}
