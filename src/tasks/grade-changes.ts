/**
 * Judging an episode's final state: its changes from the seed (as the
 * control plane's diff gives them) against the changes a task expects. The
 * expected change must be there with the asked values, and nothing else may
 * have changed: any other change is collateral damage, named in the reason.
 */
import type { Entity, SeedState } from "../model/model-schema.js";
import { readPointer } from "../util/json-pointer.js";
import { queryForm } from "../util/query-form.js";
import type { CollectionLabel, ExpectedChange, ExpectedField } from "./task-schema.js";
import { article, shown } from "./task-words.js";

/** One difference between the seed and an episode's state, as the control plane's `GET /__apptwin/episodes/:id/diff` lists it. */
export interface EpisodeChange {
  collection: string;
  id: string;
  kind: "created" | "updated" | "deleted";
  before?: Entity;
  after?: Entity;
  /** For updates: the fields whose values differ. */
  fields?: string[];
}

/** True when two values are the same JSON, or the same text once a scalar is spelt as a query would (form bodies). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (JSON.stringify(a) === JSON.stringify(b)) return true;
  const scalar = (v: unknown) => typeof v === "string" || typeof v === "number" || typeof v === "boolean";
  return scalar(a) && scalar(b) && queryForm(a) === queryForm(b);
}

/** Names entities in reasons: `item 4 (“Water the plants”)`. */
export class EntityNames {
  private readonly byName: Map<string, CollectionLabel>;

  constructor(
    labels: CollectionLabel[],
    private readonly seed?: SeedState,
  ) {
    this.byName = new Map(labels.map((l) => [l.name, l]));
  }

  /** The singular noun of a collection. */
  noun(collection: string): string {
    return this.byName.get(collection)?.singular ?? collection;
  }

  /** An entity by collection and id, with its key value when the entity is known. */
  name(collection: string, id: string, entity?: Entity): string {
    const label = this.byName.get(collection);
    const known =
      entity ?? this.seed?.collections[collection]?.find((e) => label && queryForm(e[label.id_field]) === id);
    const value = label?.key && known ? readPointer(known, label.key) : undefined;
    return `${this.noun(collection)} ${id}${value === undefined ? "" : ` (${shown(value)})`}`;
  }
}

function fieldList(change: EpisodeChange, only?: string[]): string {
  return (only ?? change.fields ?? [])
    .map((f) => `${f}: ${shown(change.before?.[f])} → ${shown(change.after?.[f])}`)
    .join(", ");
}

function describe(change: EpisodeChange, names: EntityNames): string {
  const entity = change.after ?? change.before;
  if (change.kind === "created") {
    const noun = names.noun(change.collection);
    return `${article(noun)} ${noun} was created (${names.name(change.collection, change.id, entity)})`;
  }
  const who = names.name(change.collection, change.id, entity);
  return change.kind === "deleted" ? `${who} was deleted` : `${who} was changed (${fieldList(change)})`;
}

function wanted(fields: ExpectedField[]): string {
  return fields.map((f) => `${f.pointer.slice(1)} ${shown(f.value)}`).join(", ");
}

function becomes(fields: ExpectedField[]): string {
  return fields.map((f) => `its ${f.pointer.slice(1)} to become ${shown(f.value)}`).join(" and ");
}

function mismatches(entity: Entity | undefined, fields: ExpectedField[]): string[] {
  return fields
    .filter((f) => !sameValue(readPointer(entity, f.pointer), f.value))
    .map(
      (f) => `${f.pointer.slice(1)} is ${shown(readPointer(entity, f.pointer))}; expected ${shown(f.value)}`,
    );
}

function take(pool: EpisodeChange[], pick: (c: EpisodeChange) => boolean): EpisodeChange | undefined {
  const at = pool.findIndex(pick);
  return at < 0 ? undefined : pool.splice(at, 1)[0];
}

function gradeOne(e: ExpectedChange, pool: EpisodeChange[], names: EntityNames): string[] {
  if (e.kind === "created") {
    const noun = names.noun(e.collection);
    const exact = take(
      pool,
      (c) =>
        c.kind === "created" && c.collection === e.collection && mismatches(c.after, e.fields).length === 0,
    );
    if (exact) return [];
    const near = take(pool, (c) => c.kind === "created" && c.collection === e.collection);
    if (!near) return [`no ${noun} was created; expected one with ${wanted(e.fields)}`];
    return mismatches(near.after, e.fields).map((m) => `the new ${noun} (${near.id}): ${m}`);
  }
  const who = names.name(e.collection, e.id);
  const found = take(pool, (c) => c.collection === e.collection && c.id === e.id);
  if (e.kind === "deleted") {
    if (!found) return [`${who} was not deleted`];
    return found.kind === "deleted"
      ? []
      : [`${who} was not deleted (it was changed instead: ${fieldList(found)})`];
  }
  if (!found) return [`${who} was not changed; expected ${becomes(e.fields)}`];
  if (found.kind === "deleted") return [`${who} was deleted; expected ${becomes(e.fields)}`];
  const reasons = mismatches(found.after, e.fields).map((m) => `${who}: ${m}`);
  const allowed = new Set([...e.fields.map((f) => f.pointer.slice(1).split("/")[0]!), ...e.may_change]);
  const extra = (found.fields ?? []).filter((f) => !allowed.has(f));
  if (extra.length > 0)
    reasons.push(
      `collateral damage: ${who} also changed ${fieldList(found, extra)}, which the task did not ask for`,
    );
  return reasons;
}

/** Why the changes do not match the expected ones (empty when they do): missing, wrong or collateral changes. */
export function gradeChanges(
  expected: ExpectedChange[],
  changes: EpisodeChange[],
  labels: CollectionLabel[],
  seed?: SeedState,
): string[] {
  const names = new EntityNames(labels, seed);
  const pool = [...changes];
  const reasons = expected.flatMap((e) => gradeOne(e, pool, names));
  for (const c of pool) {
    const why = expected.length === 0 ? "the task only asks a question" : "the task did not ask for it";
    reasons.push(`collateral damage: ${describe(c, names)}, and ${why}`);
  }
  return reasons;
}
