/**
 * Finds keys repeated within one JSON object. JSON.parse keeps only the last,
 * so `{"Accept": "a", "Accept": "b"}` would silently lose a header; the text
 * is scanned instead. Call it on text that already parses.
 */
import type { PathSegment } from "../errors/document-issue.js";

/** A key written twice in the object at `path`. */
export interface DuplicateKey {
  path: PathSegment[];
  key: string;
}

type Frame =
  | { kind: "object"; path: PathSegment[]; keys: Set<string>; expectKey: boolean; last: string }
  | { kind: "array"; path: PathSegment[]; index: number };

/** Every repeated key in valid JSON text, in document order. */
export function findDuplicateKeys(text: string): DuplicateKey[] {
  const found: DuplicateKey[] = [];
  const stack: Frame[] = [];
  const here = (): PathSegment[] => {
    const top = stack[stack.length - 1];
    if (!top) return [];
    return top.kind === "object" ? [...top.path, top.last] : [...top.path, top.index];
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const top = stack[stack.length - 1];
    if (c === "{") stack.push({ kind: "object", path: here(), keys: new Set(), expectKey: true, last: "" });
    else if (c === "[") stack.push({ kind: "array", path: here(), index: 0 });
    else if (c === "}" || c === "]") stack.pop();
    else if (c === ",") {
      if (top?.kind === "object") top.expectKey = true;
      else if (top?.kind === "array") top.index++;
    } else if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      if (top?.kind === "object" && top.expectKey) {
        const key = JSON.parse(text.slice(i, j + 1)) as string;
        if (top.keys.has(key)) found.push({ path: top.path, key });
        top.keys.add(key);
        top.last = key;
        top.expectKey = false;
      }
      i = j;
    }
  }
  return found;
}
