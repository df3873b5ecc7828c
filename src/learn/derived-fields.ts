/**
 * Fields derived from an entity's id (`src/model/id-derived.ts`), learned per collection as hypotheses every
 * entity the recording showed must confirm — in list reads, item reads, the children a folder's read embeds and
 * write answers alike, never by a field's name:
 * - `last_segment`: the field is the id after its last `/` (a file's `name` for the path id `projects/a.ipynb`),
 *   shown at least once for an id holding `/` (where it differs from the id itself);
 * - `media_type`: the field is the standard media type of the id's extension: one value per extension, the
 *   standard table's wherever the table knows the extension, and at least two such extensions seen (one match
 *   could be a coincidence: `text/plain` is also `"text" + "/plain"`). Extensions the table lacks keep the value
 *   the recording showed (`.ipynb`, a folder's none).
 * A write's rule for such a field is `from_id`, so a create, a replace or a move gives the value the id implies.
 */

import { extensionOf, ID_PATH_SEPARATOR, lastSegment, STANDARD_MEDIA_TYPES } from "../model/id-derived.js";
import type { Entity, FieldRule } from "../model/model-schema.js";
import { type FoundCollection, itemEntity, listEntities } from "./collections.js";
import type { Observation } from "./endpoint-index.js";
import { embeddedChildren } from "./tree-collection.js";
import { isObject } from "./value-kinds.js";
import type { WriteTarget } from "./write-targets.js";

/** An entity as the recording showed it, and whether in the list's view (where `list_view.nulls` are null). */
export interface Sighting {
  entity: Entity;
  listView: boolean;
}

const ok = (o: Observation) => o.status >= 200 && o.status < 300 && o.response.kind === "json";

/** Every entity of the collection the recording showed: list entities, item reads, embedded children, write answers. */
export function sightings(
  col: FoundCollection,
  observations: Observation[],
  targets: ReadonlyMap<string, WriteTarget>,
): Sighting[] {
  const out: Sighting[] = [];
  const itemsKey = col.envelope.kind === "object" ? col.envelope.items_key : null;
  for (const o of observations) {
    if (!ok(o)) continue;
    const body = o.response.kind === "json" ? o.response.value : undefined;
    if (o.method === "GET" && o.endpoint === col.list) {
      for (const e of listEntities(body, itemsKey)?.entities ?? []) out.push({ entity: e, listView: true });
    } else if (o.method === "GET" && o.endpoint === col.item && o.query.length === 0) {
      const e = itemEntity(body, col.itemEnvelope);
      if (!e) continue;
      out.push({ entity: e, listView: false });
      const kids = col.tree ? embeddedChildren(e, col.tree.childrenKey) : null;
      for (const k of kids ?? []) out.push({ entity: k, listView: true });
    } else if (o.method !== "GET" && targets.get(o.endpoint.key)?.collection === col && isObject(body)) {
      // A write's answer may be in the list's view too (a saved file answering `content: null`).
      out.push({ entity: itemEntity(body, col.itemEnvelope) ?? body, listView: true });
    }
  }
  return out;
}

/** The (id, value) pairs a field shows, without the nulls a list's view gives it; null when an id is no string. */
function pairs(field: string, seen: Sighting[], idField: string, nulls: readonly string[]) {
  const out: [string, unknown][] = [];
  for (const s of seen) {
    if (!Object.hasOwn(s.entity, field)) continue;
    const v = s.entity[field];
    if (v === null && s.listView && nulls.includes(field)) continue;
    const id = s.entity[idField];
    if (typeof id !== "string") return null;
    out.push([id, v]);
  }
  return out;
}

/** True when the field is the id's last segment everywhere, and somewhere that differs from the id. */
function isLastSegment(shown: [string, unknown][]): boolean {
  return (
    shown.some(([id]) => id.includes(ID_PATH_SEPARATOR) && lastSegment(id) !== id) &&
    shown.every(([id, v]) => v === lastSegment(id))
  );
}

/** The `known` values of a media-type rule every pair confirms (see the file comment), or null. */
function mediaTypes(shown: [string, unknown][]): Record<string, string | null> | null {
  const byExt = new Map<string, string | null>();
  for (const [id, v] of shown) {
    if (v !== null && typeof v !== "string") return null;
    const ext = extensionOf(id);
    if (byExt.has(ext) && byExt.get(ext) !== v) return null;
    byExt.set(ext, v);
  }
  let standard = 0;
  const known: Record<string, string | null> = {};
  for (const [ext, v] of [...byExt].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const table = STANDARD_MEDIA_TYPES[ext];
    if (table === undefined) known[ext] = v;
    else if (table === v) standard++;
    else return null;
  }
  return standard >= 2 ? known : null;
}

/** Per field of a collection with string ids, the `from_id` rule every sighting confirms. */
export function derivedFields(
  col: FoundCollection,
  seen: Sighting[],
): Map<string, Extract<FieldRule, { kind: "from_id" }>> {
  const out = new Map<string, Extract<FieldRule, { kind: "from_id" }>>();
  if (col.idKind !== "string") return out;
  const nulls = col.listView?.nulls ?? [];
  const fields = [...new Set(seen.flatMap((s) => Object.keys(s.entity)))].filter((f) => f !== col.idField);
  for (const f of fields) {
    const shown = pairs(f, seen, col.idField, nulls);
    if (!shown || shown.length === 0) continue;
    if (isLastSegment(shown)) {
      out.set(f, { kind: "from_id", derive: "last_segment" });
      continue;
    }
    const known = mediaTypes(shown);
    if (known) out.set(f, { kind: "from_id", derive: "media_type", known });
  }
  return out;
}
