/**
 * Which query parameters of a request a collection's state-backed reads
 * cannot answer: with a learned query language (`query`), those with a leaf
 * no confirmed rule fits; in older models, any parameter that is not a
 * confirmed filter or the pagination. Serve answers such a read from the
 * recording (the exact request) or with an `unlearned_query` miss, and
 * coverage lists the parameters; both use this one definition.
 */
import type { Collection, Entity } from "./model-schema.js";
import { queryLeaves } from "./query-language.js";
import { planQuery, shownByDefault } from "./query-plan.js";

/** The query parameter names a list read of a model without `query` is answered from state with. */
export function understoodQueryParams(c: Collection): Set<string> {
  const names = new Set(c.filters.map((f) => f.param));
  if (c.pagination) names.add(c.pagination.limit_param).add(c.pagination.offset_param);
  return names;
}

/** The names of the request's query parameters a list read of the collection cannot answer from state. */
export function unlearnedQueryParams(c: Collection, query: [string, string][], sample: Entity[]): string[] {
  if (!c.query) {
    const known = understoodQueryParams(c);
    return [...new Set(query.map(([k]) => k).filter((k) => !known.has(k)))];
  }
  const planned = planQuery(c.query, queryLeaves(query), sample);
  return "unlearned" in planned ? [...new Set(planned.unlearned.map((l) => query[l.pair]![0]))] : [];
}

/**
 * An entity as the collection's list answers show it (`list_view`): the fields lists leave out are left out and
 * those they give as null are null. The entity itself when lists show entities as item reads do.
 */
export function listedView(c: Collection, e: Entity): Entity {
  const view = c.list_view;
  if (!view || view.omit.length + view.nulls.length === 0) return e;
  const out: Entity = {};
  for (const [k, v] of Object.entries(e))
    if (!view.omit.includes(k)) out[k] = view.nulls.includes(k) ? null : v;
  return out;
}

/** The entities a plain list read of the collection shows, as it shows them: under its default filter, in its view. */
export function listedEntities(c: Collection, entities: Entity[]): Entity[] {
  // Ids that are paths: a list shows the top level.
  const sep = c.tree?.separator;
  const top = sep === undefined ? entities : entities.filter((e) => !String(e[c.id_field]).includes(sep));
  return shownByDefault(c.query?.default_filter ?? [], top).map((e) => listedView(c, e));
}
