/**
 * Finds where JSON text nests deeper than a limit, by scanning the text, so a
 * hostile file is refused before any recursive walk (or a quadratic path
 * copy) over the parsed value can overflow the stack or the heap.
 */

/**
 * How deep JSON from outside may nest (objects and arrays) before apptwin
 * refuses it (a document: scenario, evidence, HAR, faults, bundle) or keeps it
 * as opaque text, never parsed (a body the app or a client sent). The one
 * limit every reader applies, so no recursive walk over such a value can
 * overflow the stack.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * The limit of a file or message that carries such bodies inside it, parsed
 * (a bundle's model holds recorded answers, an MCP call a tool's body
 * argument): room for a body at the limit plus its wrapping.
 */
export const MAX_WRAPPED_DEPTH = 2 * MAX_JSON_DEPTH;

/** What {@link parseJsonWithin} made of a text: its value, or why it has none. */
export type BoundedJson = { ok: true; value: unknown } | { ok: false; why: "too_deep" | "invalid" };

/** Parses JSON text that nests at most `max` levels; deeper text is never parsed. */
export function parseJsonWithin(text: string, max = MAX_JSON_DEPTH): BoundedJson {
  if (findTooDeep(text, max) !== undefined) return { ok: false, why: "too_deep" };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, why: "invalid" };
  }
}

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
