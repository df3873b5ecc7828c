/**
 * Renames in collections whose ids are hierarchical (a greedy path id `{id+}`: `drafts/idea.md` under `drafts`):
 * whether the entities under a renamed one move with it is a hypothesis the recording must confirm, never assumed.
 * The walk moves them in its state when the rename happens (so the reads after it agree instead of seeming to show
 * new entities), and the first read after it of each one judges that: shown at the new id as moved confirms it;
 * shown still at its old id, missing at the new one, or shown there otherwise contradicts it. The write rule then
 * says what serve does (`descendants` in model-schema.ts).
 */
import { isUnder, movedEntity } from "../model/descendant-move.js";
import type { Entity, WriteRule } from "../model/model-schema.js";
import type { CollectionState } from "./collection-state.js";
import type { EndpointGroup, Observation } from "./endpoint-index.js";
import type { WriteObservation } from "./state-walk.js";
import type { WriteTarget } from "./write-targets.js";

/** What the recording showed of the entities under one a write renamed (on its `WriteObservation`). */
export interface DescendantMove {
  from: string;
  to: string;
  /** The old ids of the entities the walk held under it, in the walk's order. */
  ids: string[];
  /** The first read that showed one moved (record index). */
  confirmedAt?: number;
  /** The first read that contradicted the move (record index). */
  refutedAt?: number;
}

/**
 * The separator of a write's ids when its path names them by a greedy parameter (`{id+}`, a value spanning path
 * segments, so `/` separates its parts), else null: the ids are then no hierarchy.
 */
export function greedySeparator(group: EndpointGroup, idParam: string | null): string | null {
  const at = idParam === null ? -1 : group.params.indexOf(idParam);
  return at >= 0 && group.multi[at] === true ? "/" : null;
}

/** A read the walk waits for: of a descendant's new id (with the entity it should show) or of its old id (null). */
interface Watch {
  move: DescendantMove;
  write: Observation;
  expected: Entity | null;
}

/** The walk's side of descendant moves: moves the walk's state on a rename, judges the reads after it. */
export class DescendantWatch {
  private readonly watching = new Map<string, Watch>();

  constructor(private readonly readsAfter: (write: Observation, read: Observation) => boolean) {}

  /**
   * A write renamed entity `from` to `to`: the entities the walk holds under `from` move under `to` in its state, and
   * their next reads are watched. Noted on the write (`descendants`) only when it had any.
   */
  rename(st: CollectionState, w: WriteObservation, from: string, to: string, separator: string): void {
    const ids = [...st.entities.keys()].filter((id) => isUnder(id, from, separator));
    if (ids.length === 0) return;
    const move: DescendantMove = { from, to, ids };
    w.descendants = move;
    for (const id of ids) {
      const moved = movedEntity(st.entities.get(id)!, from, to, separator, id);
      st.remove(id);
      st.upsert(moved);
      const key = `${st.col.name}\u0000`;
      this.watching.set(key + id, { move, write: w.obs, expected: null });
      this.watching.set(key + st.idOf(moved), { move, write: w.obs, expected: moved });
    }
  }

  /** A later write of entity `id`: its next read shows that write, so it judges no move. */
  written(st: CollectionState, id: string): void {
    this.watching.delete(`${st.col.name}\u0000${id}`);
  }

  /**
   * A read showed entity `id` (null: showed it gone); `unshown` are the fields this read's view says nothing of (a
   * list's nulls). The first read after the rename judges: the old id gone, or the new one shown as moved, agree.
   */
  sighting(st: CollectionState, id: string, e: Entity | null, read: Observation, unshown: string[]): void {
    const key = `${st.col.name}\u0000${id}`;
    const watch = this.watching.get(key);
    if (!watch || !this.readsAfter(watch.write, read)) return;
    this.watching.delete(key);
    const { move, expected } = watch;
    const agrees =
      expected === null
        ? e === null
        : e !== null &&
          Object.keys(e).every(
            (k) =>
              unshown.includes(k) ||
              !Object.hasOwn(expected, k) ||
              JSON.stringify(e[k]) === JSON.stringify(expected[k]),
          );
    // The old id gone says only that nothing stayed; the moved entity shown confirms.
    if (!agrees) move.refutedAt ??= read.index;
    else if (expected !== null) move.confirmedAt ??= read.index;
  }
}

/**
 * What the rule of an update on a greedy id says of descendants (see `descendants` in model-schema.ts): learned from
 * every recorded write of it whose entity had some when renamed. Nothing for other writes, and where no recorded
 * path of the write or of the collection's item read named an id holding the separator (no hierarchy shown).
 */
export function descendantsRule(
  group: EndpointGroup,
  target: WriteTarget,
  walked: WriteObservation[],
): Pick<WriteRule, "descendants"> {
  if (target.kind !== "merge" && target.kind !== "replace") return {};
  const separator = greedySeparator(group, target.idParam);
  if (separator === null) return {};
  const moves = walked.flatMap((w) => (w.descendants ? [w.descendants] : []));
  const named = [group, target.collection.item].flatMap((g) => g?.observations ?? []);
  const split =
    moves.length > 0 || named.some((o) => Object.values(o.pathParams).some((v) => v.includes(separator)));
  if (!split) return {};
  const refuted = moves.find((m) => m.refutedAt !== undefined);
  if (refuted) return { descendants: { separator, moves: false, shown_at: refuted.refutedAt! } };
  const confirmed = moves.find((m) => m.confirmedAt !== undefined);
  if (confirmed) return { descendants: { separator, moves: true, shown_at: confirmed.confirmedAt! } };
  return { descendants: { separator } };
}
