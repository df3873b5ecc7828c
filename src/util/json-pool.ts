/**
 * Hash-consing of parsed JSON: every array or object equal to one already
 * seen (same keys in the same order, same values) becomes that one, and
 * repeated strings share one copy. A recording answers the same entities over
 * and over (a list fetched again after each write, an item read back), so the
 * parsed bodies of a large recording hold each distinct value once instead of
 * once per answer. Shared values are frozen: nothing can change one answer's
 * value through another's.
 */

/** Strings longer than this are kept as they are (rarely repeated, costly to key). */
const MAX_POOLED_STRING = 256;

export class JsonPool {
  /** A node's structural key → the one node with that structure. */
  private readonly nodes = new Map<string, object>();
  /** Each pooled node's short id, used in its parents' keys. */
  private readonly ids = new Map<object, number>();
  /** Each pooled string → its first copy and its id (used in keys instead of the string's JSON text). */
  private readonly strings = new Map<string, { s: string; id: number }>();

  /** `value` (as JSON.parse makes it) with every repeated node and string replaced by its first copy, frozen. */
  share<T>(value: T): T {
    return this.node(value) as T;
  }

  private node(value: unknown): unknown {
    if (typeof value === "string") return this.string(value)?.s ?? value;
    if (value === null || typeof value !== "object") return value;
    // A node holding a long string (at any depth) is frozen but not pooled: its key would be as long.
    let key: string | null;
    if (Array.isArray(value)) {
      key = "[";
      for (let i = 0; i < value.length; i++) {
        const child = this.node(value[i]);
        value[i] = child;
        const part = this.keyOf(child);
        key = key === null || part === null ? null : `${key}${part},`;
      }
    } else {
      const record = value as Record<string, unknown>;
      key = "{";
      for (const k of Object.keys(record)) {
        const child = this.node(record[k]);
        // `__proto__` as an own property (JSON.parse makes one) must stay one: never assigned.
        if (child !== record[k])
          Object.defineProperty(record, k, { value: child, enumerable: true, writable: true });
        const part = this.keyOf(child);
        const name = this.string(k);
        key = key === null || part === null || name === null ? null : `${key}${name.id}:${part},`;
      }
    }
    Object.freeze(value);
    if (key === null) return value;
    const had = this.nodes.get(key);
    if (had !== undefined) return had;
    this.nodes.set(key, value);
    this.ids.set(value, this.ids.size);
    return value;
  }

  /**
   * A child's part of its parent's key (the parent's kind opens the key, every part ends with a comma): a
   * pooled node or string by id, another primitive by its JSON text; null when the child is not pooled.
   */
  private keyOf(child: unknown): string | null {
    switch (typeof child) {
      case "object": {
        if (child === null) return "z";
        const id = this.ids.get(child);
        return id === undefined ? null : `#${id}`;
      }
      case "string": {
        const pooled = this.string(child);
        return pooled === null ? null : `s${pooled.id}`;
      }
      case "number":
        return `n${child}`;
      case "boolean":
        return child ? "t" : "f";
      default:
        return "u";
    }
  }

  /** The pooled copy of a string and its id; null for a long one (kept as it is). */
  private string(s: string): { s: string; id: number } | null {
    if (s.length > MAX_POOLED_STRING) return null;
    let had = this.strings.get(s);
    if (had === undefined) {
      had = { s, id: this.strings.size };
      this.strings.set(s, had);
    }
    return had;
  }
}
