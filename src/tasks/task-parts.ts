/**
 * Pieces every task generator shares: how a prompt names an entity and its
 * parent, the discovery calls an oracle makes to find an entity (list the
 * parent, then the collection), and the id of a task.
 */
import type { Entity } from "../model/model-schema.js";
import { readPointer } from "../util/json-pointer.js";
import { type CollectionView, type FieldInfo, idOf, type Scope, scopeContaining } from "./collection-view.js";
import type { NotGenerated, OracleCall, Selector, Task } from "./task-schema.js";
import { quoted } from "./task-words.js";

/** " in the board “Launch Plan”" for a nested scope, "" otherwise (`to`, `from` for other verbs). */
export function scopePhrase(view: CollectionView, scope: Scope, preposition = "in"): string {
  if (!view.parent || !scope.parent) return "";
  return ` ${preposition} the ${view.parent.view.singular} ${quoted(scope.parent.name)}`;
}

/** `the card in the board “Launch Plan” whose title is “Fix login redirect”`: an entity named by its key. */
export function entityPhrase(view: CollectionView, scope: Scope, entity: Entity): string {
  return `the ${view.singular}${scopePhrase(view, scope)} whose ${view.key!.label} is ${quoted(readPointer(entity, view.key!.pointer))}`;
}

/** The key value of an entity. */
export function keyValue(view: CollectionView, entity: Entity): unknown {
  return readPointer(entity, view.key!.pointer);
}

/** The path arguments that place a call inside the scope's parent (`{board_id: "…"}`), or none. */
export function parentArgs(view: CollectionView, scope: Scope): Record<string, unknown> {
  return view.parent && scope.parent ? { [view.parent.param]: scope.parent.id } : {};
}

/** The calls that show a scope's entities: list the parent collection (to find its id), then the collection. */
export function discoveryCalls(
  view: CollectionView,
  scope: Scope,
  query: Record<string, unknown> = {},
): OracleCall[] {
  const calls: OracleCall[] = [];
  if (view.parent && scope.parent) {
    const pv = view.parent.view;
    calls.push(...discoveryCalls(pv, scopeContaining(pv, scope.parent.entity)));
  }
  calls.push({ tool: view.list.name, arguments: { ...parentArgs(view, scope), ...query } });
  return calls;
}

/** Selects `take` of the entity whose key is the given entity's key, from a list result. */
export function findByKey(view: CollectionView, entity: Entity, take: string): Selector {
  return {
    kind: "find",
    items: view.itemsPointer,
    where: { pointer: view.key!.pointer, value: keyValue(view, entity) },
    take,
  };
}

/** The path arguments of a write or item tool on one entity: its id and its parent's id; null when the tool needs another. */
export function entityArgs(
  view: CollectionView,
  scope: Scope,
  params: string[],
  idParam: string | null,
  entity: Entity | null,
): Record<string, unknown> | null {
  const args: Record<string, unknown> = {};
  for (const p of params) {
    if (entity && p === idParam) args[p] = idOf(view, entity);
    else if (view.parent && scope.parent && p === view.parent.param) args[p] = scope.parent.id;
    else return null;
  }
  return args;
}

/** The id part a field gives a task id: `/status/name` → `status.name`. */
export function fieldIdPart(field: FieldInfo | string): string {
  const pointer = typeof field === "string" ? field : field.pointer;
  return pointer
    .slice(1)
    .replace(/\//g, ".")
    .replace(/[^A-Za-z0-9._-]+/g, "-");
}

/** A task id from its parts: `update.items.done`. */
export function taskId(...parts: string[]): string {
  return parts
    .map((p) => p.replace(/[^A-Za-z0-9._-]+/g, "-"))
    .join(".")
    .slice(0, 96);
}

/** Tasks made for a collection, and the shapes left out with their reasons. */
export interface Generated {
  tasks: Task[];
  skipped: NotGenerated[];
}

/** A task shape not generated for a collection, with the reason. */
export function skip(
  view: CollectionView,
  kind: Task["kind"],
  reason: string,
  explain: string,
): NotGenerated {
  return { subject: view.collection.name, kind, reason, explain };
}

/** Nothing generated, for one reason. */
export function none(view: CollectionView, kind: Task["kind"], reason: string, explain: string): Generated {
  return { tasks: [], skipped: [skip(view, kind, reason, explain)] };
}

/** Nothing generated: no readable field tells the collection's entities apart. */
export function noKey(view: CollectionView, kind: Task["kind"]): Generated {
  return none(
    view,
    kind,
    "no_key_field",
    `no readable field of ${view.collection.name} tells its entities apart`,
  );
}
