/**
 * What the twin's state knows of an entity's item answer (`list_view`): an entity only lists showed lacks the
 * fields item reads show and lists leave out (with no default to give), and holds null where every plain item read
 * gave a value (`item_values`), and one only a projection or an item read with a query showed lacks what they did not
 * show (`unknown_fields`). Serve answers its item read with an explained miss; tasks pick another entity.
 */
import type { Collection, Entity } from "./model-schema.js";

/** The fields an item read of `e` shows that the state does not know for it (none when it knows them all). */
export function unknownItemFields(c: Collection, e: Entity): string[] {
  const partial = c.unknown_fields?.[String(e[c.id_field])] ?? [];
  const v = c.list_view;
  if (!v) return partial;
  const nulled = (v.item_values ?? []).filter((k) => e[k] === null);
  const missing = v.omit.filter((k) => !(k in e) && !(v.defaults && k in v.defaults));
  return [...new Set([...partial, ...nulled, ...missing])];
}
