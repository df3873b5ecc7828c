/**
 * What an update (PATCH, PUT of an entity the path names) met in the state: the other entities, as the walk of the
 * recording up to it simulated them. A uniqueness refusal of an update (a rename onto an id another entity holds, a
 * value another entity holds) is told from the endpoint's successes by it (validation-rules.ts). The walk keeps the
 * scope it met only for creates, so the state before an update is walked anew, over the recording before it, with
 * the final walk's own parameters (`until`): the same state, by the same rules.
 */
import type { Entity } from "../model/model-schema.js";
import type { Observation } from "./endpoint-index.js";
import type { WalkResult } from "./state-walk.js";
import type { WriteTarget } from "./write-targets.js";

/**
 * The entities other than the one the update `o` names, present just before it: in its scope for any field, in the
 * whole collection for its id field (an id names one entity of the collection). Null when the walk cannot tell (not
 * an update of a collection, no path id, or the walks' budget spent).
 */
export type OthersBefore = (o: Observation, field: string) => Entity[] | null;

/**
 * How many first parts of a recording are walked at most, one per update asked about: each is a walk of the
 * recording up to it, so a long recording with many refused and successful updates would cost as many walks; past
 * the budget the state is not told, and no uniqueness rule of an update is learned from it (never a guess).
 */
export const MAX_UPDATE_WALKS = 32;

/** `OthersBefore` over the time-ordered observations, walking each first part asked about once. */
export function othersBeforeUpdates(
  ordered: readonly Observation[],
  targets: ReadonlyMap<string, WriteTarget>,
  until: (prefix: Observation[]) => WalkResult,
  maxWalks = MAX_UPDATE_WALKS,
): OthersBefore {
  const walks = new Map<number, WalkResult>();
  let at: Map<Observation, number> | null = null;
  const walkBefore = (o: Observation): WalkResult | null => {
    at ??= new Map(ordered.map((x, i) => [x, i]));
    const i = at.get(o);
    if (i === undefined) return null;
    const known = walks.get(i);
    if (known) return known;
    if (walks.size >= maxWalks) return null;
    const walked = until(ordered.slice(0, i));
    walks.set(i, walked);
    return walked;
  };
  return (o, field) => {
    const target = targets.get(o.endpoint.key);
    if (!target || target.kind === "create" || target.kind === "delete" || target.idParam === null)
      return null;
    const raw = o.pathParams[target.idParam];
    if (raw === undefined) return null;
    const st = walkBefore(o)?.states.get(target.collection.name);
    if (!st) return null;
    const id = st.resolveId(raw);
    const others = (es: Iterable<Entity>) => [...es].filter((e) => st.idOf(e) !== id);
    if (field === st.col.idField) return others(st.entities.values());
    const self = st.entities.get(id);
    // Another field is unique within the entity's scope, which only the entity itself tells.
    return self ? others(st.list(st.scopeOf(self))) : null;
  };
}
