/**
 * A served rename in a collection whose ids are hierarchical (`descendants` on the write rule): the entities under
 * the renamed one move with it where the recording confirmed that, else the rename is an explained miss. Separate
 * from apply-write.ts because it is the one write that changes more entities than the one its path names.
 */
import { isUnder, movedEntity } from "../../model/descendant-move.js";
import type { Collection, Entity, WriteRule } from "../../model/model-schema.js";
import type { CollectionState } from "./collection-state.js";
import { explainIdTaken, explainMoveIntoItself, explainUnmovedDescendants } from "./explain-miss.js";
import { queryForm } from "./json-text.js";
import type { TwinResponse } from "./twin-types.js";

/** The descendants' moves a rename makes, to apply once every check passed, or the miss that refuses it. */
export type DescendantPlan = { moves: { from: string; entity: Entity }[] } | { refused: TwinResponse };

/**
 * Plans the rename of `from` to `to`: every entity the state holds under `from` (any depth) with its id and fields
 * given the new prefix. None under it: nothing to move. Refused when the rule never saw them move, or when a moved
 * id is one another entity holds (`id_taken`: the recording never showed the app's answer then).
 */
export function planDescendants(
  c: Collection,
  list: CollectionState,
  rule: WriteRule,
  from: string,
  to: string,
): DescendantPlan {
  // `to` itself the caller checked (`id_taken`), as for any rename.
  const d = rule.descendants;
  if (!d || from === to) return { moves: [] };
  // A scan, as a folder's children are found (collection-read.ts): paid only by a rename in a hierarchy.
  const under: Entity[] = [];
  for (const e of list.values()) if (isUnder(queryForm(e[c.id_field]), from, d.separator)) under.push(e);
  if (under.length === 0) return { moves: [] };
  // Into itself (`projects` to `projects/sub`): no recording showed what the app answers, so nothing moves.
  if (isUnder(to, from, d.separator))
    return { refused: explainMoveIntoItself(c.name, rule.tool_name, from, to, under.length) };
  if (d.moves !== true)
    return {
      refused: explainUnmovedDescendants(
        c.name,
        rule.tool_name,
        from,
        under.length,
        d.moves === false ? d.shown_at : undefined,
      ),
    };
  const moves = under.map((e) => ({
    from: queryForm(e[c.id_field]),
    entity: movedEntity(e, from, to, d.separator, queryForm(e[c.id_field])),
  }));
  const leaving = new Set([from, ...moves.map((m) => m.from)]);
  const taken = moves.find((m) => {
    const id = queryForm(m.entity[c.id_field]);
    return list.has(id) && !leaving.has(id);
  });
  if (taken) return { refused: explainIdTaken(c.name, rule.tool_name, queryForm(taken.entity[c.id_field])) };
  return { moves };
}

/** Applies a plan's moves (each entity keeps its place in list order; the id index follows the new ids). */
export function applyDescendants(
  list: CollectionState,
  plan: { moves: { from: string; entity: Entity }[] },
): void {
  for (const m of plan.moves) list.put(m.from, m.entity);
}
