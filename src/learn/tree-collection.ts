/**
 * Collections whose ids are paths (`projects/analysis.ipynb`): an entity's
 * parent is the entity whose id is its own up to the last `/`, and an item read
 * of a parent (a folder) embeds its children under one key. Learned as a
 * hypothesis the recording must confirm in every read, never by a field name:
 * every list read shows only ids without `/` (the top level), and every item
 * read holding an array of entities under that key shows exactly entities whose
 * ids are the item's id plus one more segment.
 */
import type { Entity, ItemEnvelope } from "../model/model-schema.js";
import { itemEntity } from "./collections.js";
import type { Observation } from "./endpoint-index.js";

/** The separator of path ids. */
export const PATH_SEPARATOR = "/";

/** The parent of a path id: the id up to its last `/`, or "" at the top level. */
export function parentPath(id: string): string {
  const at = id.lastIndexOf(PATH_SEPARATOR);
  return at < 0 ? "" : id.slice(0, at);
}

const isEntity = (v: unknown): v is Entity => v !== null && typeof v === "object" && !Array.isArray(v);

/** The children an item answer embeds under `key`, when it holds an array of entities there; else null. */
export function embeddedChildren(e: Entity, key: string): Entity[] | null {
  const v = e[key];
  return Array.isArray(v) && v.every(isEntity) ? v : null;
}

/**
 * The key under which item reads embed their children, when the recording confirms the hypothesis (see the file
 * comment): at least one item read embeds a child, no list or embedded entity breaks the rule, and the children
 * look like the list's entities (they hold the id field). Null otherwise.
 */
export function detectTree(
  idField: string,
  lists: Entity[][],
  items: Observation[],
  itemEnvelope: ItemEnvelope,
): string | null {
  const listed = lists.flat();
  const idOf = (e: Entity) => (typeof e[idField] === "string" ? (e[idField] as string) : null);
  if (listed.length === 0 || !listed.every((e) => idOf(e) !== null && !idOf(e)!.includes(PATH_SEPARATOR)))
    return null;
  const entities = items
    .map((o) => itemEntity(o.response.kind === "json" ? o.response.value : undefined, itemEnvelope))
    .filter((e): e is Entity => e !== null);
  const keys = [...new Set(entities.flatMap((e) => Object.keys(e)))].filter((k) => k !== idField).sort();
  for (const key of keys) {
    let children = 0;
    const holds = entities.every((e) => {
      const kids = embeddedChildren(e, key);
      if (kids === null) return true;
      const id = idOf(e);
      children += kids.length;
      return (
        id !== null &&
        kids.every((k) => {
          const kid = idOf(k);
          return kid !== null && parentPath(kid) === id && kid.length > id.length + 1;
        })
      );
    });
    if (holds && children > 0) return key;
  }
  return null;
}
