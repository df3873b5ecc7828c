/**
 * Finds where JSON text nests deeper than a limit, by scanning the text, so a
 * hostile file is refused before any recursive walk (or a quadratic path
 * copy) over the parsed value can overflow the stack or the heap.
 */

/** The offset of the first `{` or `[` that opens level `max + 1`, or undefined. */
export function findTooDeep(text: string, max: number): number | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    } else if (c === "{" || c === "[") {
      depth++;
      if (depth > max) return i;
    } else if (c === "}" || c === "]") depth--;
  }
  return undefined;
}

/** ` at line L, column C` for an offset into `text` (both from 1). */
export function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return ` at line ${line}, column ${before.length - before.lastIndexOf("\n")}`;
}
