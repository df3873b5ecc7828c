/**
 * What the twin's state knows of an entity's item answer (`list_view`): an entity only lists showed lacks the
 * fields item reads show and lists leave out (with no default to give), and holds null where every plain item read
 * gave a value (`item_values`). Serve answers its item read with an explained miss; tasks pick another entity.
 */
import type { Collection, Entity } from "./model-schema.js";

/** The fields an item read of `e` shows that the state does not know for it (none when it knows them all). */
export function unknownItemFields(c: Collection, e: Entity): string[] {
  const v = c.list_view;
  if (!v) return [];
  const nulled = (v.item_values ?? []).filter((k) => e[k] === null);
  const missing = v.omit.filter((k) => !(k in e) && !(v.defaults && k in v.defaults));
  return [...nulled, ...missing];
}
