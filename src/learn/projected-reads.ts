/**
 * Tells a projected read (`?_fields=id,title,tags`) from one showing whole entities, by its answer's structure: a
 * parameter names every field the answer's entities show. Shared by collection finding (a list read only so is still
 * a collection's), the state walk (such a read shows entities in part) and hidden fields (what it leaves out is the
 * projection's doing, not the reads'). Pure.
 */
import type { Entity } from "../model/model-schema.js";
import { leafValues } from "../model/query-language.js";

/**
 * True when a parameter of the read names every field its answer's entities show (`_fields=id,title,tags`): the
 * answer is a projection, no entity's whole shape.
 */
export function namesItsFields(query: [string, string][], entities: Entity[]): boolean {
  if (entities.length === 0) return false;
  const keys = new Set(entities.flatMap((e) => Object.keys(e)));
  return query.some(([, v]) => {
    const named = new Set(leafValues(v, ",").map(String));
    return [...keys].every((k) => named.has(k));
  });
}
