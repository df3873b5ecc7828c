/**
 * RFC 6901 pointer tokens, the one spelling learn, coverage and serve share
 * for a body key in a pointer: `~` is `~0`, `/` is `~1`, nothing else is
 * escaped (a pointer is never URI-decoded); and reading a value at a pointer.
 */

/** Escapes one key into a pointer token: `a/b~c` → `a~1b~0c`. */
export function escapePointerToken(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Unescapes one pointer token back into its key: `a~1b~0c` → `a/b~c`. */
export function unescapePointerToken(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** The pointer to one top-level key: `title` → `/title`. */
export function pointerOf(key: string): string {
  return `/${escapePointerToken(key)}`;
}

/** The top-level key a one-token pointer names: `/a~1b` → `a/b`. */
export function keyOfPointer(pointer: string): string {
  return unescapePointerToken(pointer.slice(1));
}

/** Reads an RFC 6901 pointer (`/a/0/b`) from a value; undefined when absent. */
export function readPointer(value: unknown, pointer: string): unknown {
  if (pointer === "") return value;
  if (!pointer.startsWith("/")) return undefined;
  let cur: unknown = value;
  for (const raw of pointer.slice(1).split("/")) {
    const key = unescapePointerToken(raw);
    if (cur === null || typeof cur !== "object") return undefined;
    if (Array.isArray(cur)) {
      if (!/^(0|[1-9]\d*)$/.test(key)) return undefined;
      cur = cur[Number(key)];
    } else {
      if (!Object.hasOwn(cur, key)) return undefined;
      cur = (cur as Record<string, unknown>)[key];
    }
  }
  return cur;
}

/** The pointer to a path of keys and array indices: `["title", "raw"]` → `/title/raw`. */
export function pointerOfPath(path: readonly (string | number)[]): string {
  return path.map((k) => `/${escapePointerToken(String(k))}`).join("");
}

/** The keys of a pointer: `/a~1b/0` → `["a/b", "0"]` (the empty pointer has none). */
export function pathOfPointer(pointer: string): string[] {
  return pointer === "" ? [] : pointer.slice(1).split("/").map(unescapePointerToken);
}

/**
 * Every value inside `value` with its pointer, parents before children, to `maxDepth` levels (objects and
 * arrays included, the root excluded): what a rule can take from a request body or copy from an entity.
 */
export function pointerEntries(value: unknown, maxDepth = 6): [string, unknown][] {
  const out: [string, unknown][] = [];
  const walk = (v: unknown, at: string, depth: number) => {
    if (depth >= maxDepth || v === null || typeof v !== "object") return;
    const entries = Array.isArray(v) ? v.map((x, i) => [String(i), x] as const) : Object.entries(v);
    for (const [k, x] of entries) {
      const p = `${at}/${escapePointerToken(k)}`;
      out.push([p, x]);
      walk(x, p, depth + 1);
    }
  };
  walk(value, "", 0);
  return out;
}
