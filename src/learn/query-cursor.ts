/**
 * Cursor pagination by hypothesis (issue 17 item 1): a list answer's string leaf (`next_cursor`,
 * `pageInfo.endCursor`) that, in every answer holding it, is a text naming the page's last entity's id (as is, or
 * in base64/base64url: `{"id":3}`, `article:3`), in one template. Its style is told by the answers: `next` when a
 * page with entities answered it null (there was nothing after it), `end` when a page answered it beside a
 * boolean leaf that said false (the end cursor of a last page, `hasNextPage: false`). A plain list answer that
 * says more follows (a next cursor, or the boolean true) was cut at the app's default page size: it is no full
 * list, and that size is the collection's `default_limit` when every such answer showed it.
 */

import type { Entity } from "../model/model-schema.js";
import { type CursorCodec, codecsFor, idText } from "../model/query-cursor.js";

/** A confirmed cursor leaf of the list answers. */
export interface CursorLeaf {
  pointer: string;
  codec: CursorCodec;
  style: "next" | "end";
  /** The boolean leaf saying whether a page follows (`/pageInfo/hasNextPage`), or null. */
  hasNext: string | null;
}

const esc = (k: string) => k.replace(/~/g, "~0").replace(/\//g, "~1");

/** The scalar leaves of an answer object (not under `skip`), by pointer, at most 3 deep. */
function scalarLeaves(
  value: unknown,
  pointer: string,
  depth: number,
  skip: string,
  out: Map<string, unknown>,
): void {
  if (value === null || typeof value !== "object") {
    out.set(pointer, value);
    return;
  }
  if (Array.isArray(value) || depth >= 3) return;
  for (const [k, v] of Object.entries(value)) {
    const p = `${pointer}/${esc(k)}`;
    if (p !== skip) scalarLeaves(v, p, depth + 1, skip, out);
  }
}

const codecKey = (c: CursorCodec) => `${c.codec}|${c.template}`;

/** The cursor leaf every list answer confirms, or null. `answers`: each list answer's body and its entities. */
export function learnCursorLeaf(
  answers: { body: unknown; entities: Entity[] }[],
  itemsKey: string,
  idField: string,
): CursorLeaf | null {
  const leaves = answers.map((a) => {
    const m = new Map<string, unknown>();
    scalarLeaves(a.body, "", 0, `/${esc(itemsKey)}`, m);
    return m;
  });
  const pointers = [...new Set(leaves.flatMap((m) => [...m.keys()]))].sort();
  for (const pointer of pointers) {
    let codecs = null as Map<string, CursorCodec> | null;
    const values = new Set<string>();
    let ok = true;
    for (const [i, a] of answers.entries()) {
      const v = leaves[i]!.get(pointer);
      if (v === null || v === undefined) continue;
      const last = a.entities.at(-1);
      const id = last ? idText(last, idField) : null;
      if (typeof v !== "string" || id === null) {
        ok = false;
        break;
      }
      values.add(v);
      const fits = new Map(codecsFor(v, id).map((c) => [codecKey(c), c]));
      const prev: Map<string, CursorCodec> | null = codecs;
      codecs = prev === null ? fits : new Map([...prev].filter(([k]) => fits.has(k)));
      if (codecs.size === 0) break;
    }
    if (!ok || codecs === null || codecs.size === 0 || values.size < 2) continue;
    const codec = [...codecs.values()][0]!;
    // The boolean leaf beside it (same object) that some answer set false and another true.
    const parent = pointer.slice(0, pointer.lastIndexOf("/"));
    const booleans = pointers.filter(
      (p) =>
        p.slice(0, p.lastIndexOf("/")) === parent &&
        leaves.every((m) => typeof m.get(p) === "boolean") &&
        new Set(leaves.map((m) => m.get(p))).size === 2,
    );
    const hasNext = booleans.length === 1 ? booleans[0]! : null;
    const nullOnAPage = answers.some((a, i) => a.entities.length > 0 && leaves[i]!.get(pointer) === null);
    const endOnLast =
      hasNext !== null &&
      answers.some(
        (_, i) => leaves[i]!.get(hasNext) === false && typeof leaves[i]!.get(pointer) === "string",
      );
    if (nullOnAPage === endOnLast) continue;
    return { pointer, codec, style: nullOnAPage ? "next" : "end", hasNext };
  }
  return null;
}

/** True when a list answer says more entities follow it (a next cursor, or its has-next leaf true). */
export function saysMore(leaf: CursorLeaf, body: unknown): boolean {
  const m = new Map<string, unknown>();
  scalarLeaves(body, "", 0, "", m);
  if (leaf.hasNext !== null) return m.get(leaf.hasNext) === true;
  return leaf.style === "next" && typeof m.get(leaf.pointer) === "string";
}

/** The cursor a list answer gives (its cursor leaf's text), or null when it gives none. */
export function cursorValue(leaf: CursorLeaf, body: unknown): string | null {
  const m = new Map<string, unknown>();
  scalarLeaves(body, "", 0, "", m);
  const v = m.get(leaf.pointer);
  return typeof v === "string" ? v : null;
}
