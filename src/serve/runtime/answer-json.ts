/**
 * An answer's JSON text, byte for byte what `JSON.stringify` gives, with the text of every deeply frozen object
 * or array kept once it is made: the state's entities are deeply frozen (seed and writes alike), so an entity read
 * again, by any episode, is not serialised again. Nothing needs invalidating: a write puts a new object in the
 * state, and an object the text was made for can never change (frozen, down to its leaves). Anything this does not
 * walk itself (a `toJSON`, a prototype other than Object's or Array's, a bigint, nesting past a bound or a cycle)
 * is left to `JSON.stringify` for the whole value, so the text (or the error) is always its own.
 */

/** Texts of deeply frozen objects and arrays (held as long as the object is). */
const texts = new WeakMap<object, string>();

/** Nesting the walk follows; deeper (or a cycle) is `JSON.stringify`'s. */
const MAX_DEPTH = 64;

/** `JSON.stringify` of a primitive in an array: what has no JSON form is `null` there. */
function inArray(x: unknown): string {
  const t = JSON.stringify(x);
  return t === undefined ? "null" : t;
}

/** The text of an object or array, or null when the walk leaves it to `JSON.stringify`. */
function write(v: object, depth: number): string | null {
  const kept = texts.get(v);
  if (kept !== undefined) return kept;
  if (depth > MAX_DEPTH || typeof (v as { toJSON?: unknown }).toJSON === "function") return null;
  // Cached only when it and everything in it is frozen: its children's texts are kept (so they are too).
  let frozen = Object.isFrozen(v);
  let text: string;
  if (Array.isArray(v)) {
    if (Object.getPrototypeOf(v) !== Array.prototype) return null;
    const parts: string[] = new Array(v.length);
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (x === null || typeof x !== "object") {
        if (typeof x === "bigint") return null;
        parts[i] = inArray(x);
        continue;
      }
      const t = write(x, depth + 1);
      if (t === null) return null;
      parts[i] = t;
      if (frozen && !texts.has(x)) frozen = false;
    }
    text = `[${parts.join(",")}]`;
  } else {
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return null;
    text = "{";
    const record = v as Record<string, unknown>;
    for (const k of Object.keys(record)) {
      const x = record[k];
      let t: string | null | undefined;
      if (x === null || typeof x !== "object") {
        if (typeof x === "bigint") return null;
        t = JSON.stringify(x);
        if (t === undefined) continue;
      } else {
        t = write(x, depth + 1);
        if (t === null) return null;
        if (frozen && !texts.has(x)) frozen = false;
      }
      text += `${text.length === 1 ? "" : ","}${JSON.stringify(k)}:${t}`;
    }
    text += "}";
  }
  if (frozen) texts.set(v, text);
  return text;
}

/** `JSON.stringify(value)`, reusing the kept text of every deeply frozen object in it. */
export function answerJson(value: unknown): string | undefined {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  return write(value, 0) ?? JSON.stringify(value);
}
