/**
 * Views of one entity: an app's write answer may show more of it than its reads (WordPress answers `title.raw`
 * and `password` to the writer only), or less (an answer without the heavy `content`). The twin keeps the
 * union and answers each view by leaving out what that view never shows. Shared by learn (which finds the
 * views) and serve (which answers them).
 */
import { escapePointerToken, pathOfPointer } from "./json-pointer.js";

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** `primary` with what only `extra` holds added, object by object (primary's values win, its key order first). */
export function unionView(
  primary: Record<string, unknown>,
  extra: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...primary };
  for (const [k, v] of Object.entries(extra)) {
    if (!Object.hasOwn(out, k)) out[k] = v;
    else if (isObject(out[k]) && isObject(v)) out[k] = unionView(out[k] as Record<string, unknown>, v);
  }
  return out;
}

/** The pointers of `full` that `view` lacks, each at the highest level it is missing (objects only, not arrays). */
export function missingPointers(full: unknown, view: unknown, at = ""): string[] {
  if (!isObject(full) || !isObject(view)) return [];
  const out: string[] = [];
  for (const [k, v] of Object.entries(full)) {
    const p = `${at}/${escapePointerToken(k)}`;
    if (!Object.hasOwn(view, k)) out.push(p);
    else out.push(...missingPointers(v, view[k], p));
  }
  return out;
}

/** A copy of `value` without the object keys at `pointers` (a pointer through an array is ignored). */
export function withoutPointers<T>(value: T, pointers: readonly string[]): T {
  const copy = structuredClone(value);
  for (const pointer of pointers) {
    const path = pathOfPointer(pointer);
    let cur: unknown = copy;
    for (const key of path.slice(0, -1)) cur = isObject(cur) ? cur[key] : undefined;
    if (isObject(cur)) delete cur[path[path.length - 1]!];
  }
  return copy;
}
