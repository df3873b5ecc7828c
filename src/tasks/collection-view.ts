/**
 * What task generation knows of one collection: its served list tool, its
 * seed entities, its parent, and its fields classified from the seed values
 * alone (a readable key that tells entities apart, booleans, small sets of
 * values, free text, numbers, times, opaque ids). Nothing here knows an app:
 * every judgement is made from the model and the values.
 */

import { isObject, isRedactionMarker, isUuid, looksRandom } from "../learn/value-kinds.js";
import { listedEntities } from "../model/collection-query.js";
import type { Collection, Entity, Model, SeedState } from "../model/model-schema.js";
import { withoutPointers } from "../util/entity-view.js";
import { escapePointerToken, readPointer } from "../util/json-pointer.js";
import { queryForm } from "../util/query-form.js";
import { timeMs } from "./order-rank.js";
import { pluralNoun, singularNoun, words } from "./task-words.js";

/** The parts of a bundle tool (tools.json) that generation reads. */
export interface EvalTool {
  name: string;
  input_schema: Record<string, unknown>;
  annotations: { readOnlyHint: boolean };
  binding: {
    method: string;
    template: string;
    path_params: string[];
    query_params: string[];
    body: "json" | "form" | null;
  };
}

/** How a field's seed values read to a person. */
export type FieldKind = "boolean" | "choice" | "text" | "number" | "time";

/** One scalar leaf of the entities (top level, or one level down: `/status/name`). */
export interface FieldInfo {
  pointer: string;
  /** The field as words ("status", "created at"). */
  label: string;
  kind: FieldKind;
  /** Every entity's value, in seed order. */
  values: unknown[];
  /** True when no two entities share a value. */
  unique: boolean;
}

/** A collection the tasks can use: a list served from state, and the seed entities it shows. */
export interface CollectionView {
  collection: Collection;
  singular: string;
  plural: string;
  list: EvalTool;
  entities: Entity[];
  /** Where a list answer's entities sit in a tool result (`/body`, `/body/data`). */
  itemsPointer: string;
  fields: FieldInfo[];
  /** The readable field that tells entities apart, or null. */
  key: FieldInfo | null;
  parent: { view: CollectionView; field: string; param: string } | null;
  /**
   * Fields whose values are the ids of another collection's entities (a post's `author` → users), by pointer:
   * a prompt names the entity referred to by its key, never by the id.
   */
  refs: Map<string, CollectionView>;
}

/** The entities a task of a view works on: all of them, or those of one parent entity. */
export interface Scope {
  entities: Entity[];
  /** The parent entity and its key value, for nested collections. */
  parent: { entity: Entity; id: unknown; name: string } | null;
}

/** Why a collection offers no tasks. */
export interface Unusable {
  collection: string;
  reason: string;
  explain: string;
}

const MAX_KEY_LENGTH = 80;
const MAX_TEXT_LENGTH = 160;
const MAX_CHOICES = 6;
/** A value written for machines rather than people: an identifier (`hello-world`, `post_tag`), a URL or a path. */
const CODED = /^[a-z0-9]+([._-][a-z0-9]+)*$|^[A-Za-z][A-Za-z0-9+.-]*:\/\/|^\//;

function scalar(v: unknown): boolean {
  return typeof v === "string" || typeof v === "number" || typeof v === "boolean";
}

function opaque(v: unknown): boolean {
  return isUuid(v) || looksRandom(v) || isRedactionMarker(v);
}

/** Pointers of the scalar leaves every entity has, top level and one object down, in first-entity key order. */
function leafPointers(entities: Entity[]): string[] {
  const first = entities[0];
  if (!first) return [];
  const out: string[] = [];
  for (const [key, value] of Object.entries(first)) {
    const top = `/${escapePointerToken(key)}`;
    if (scalar(value)) out.push(top);
    else if (isObject(value)) {
      for (const [sub, inner] of Object.entries(value))
        if (scalar(inner)) out.push(`${top}/${escapePointerToken(sub)}`);
    }
  }
  return out.filter((p) => entities.every((e) => scalar(readPointer(e, p))));
}

function kindOf(values: unknown[]): FieldKind | null {
  if (values.some(opaque)) return null;
  if (values.every((v) => typeof v === "boolean")) return "boolean";
  if (values.every((v) => timeMs(v) !== null)) return "time";
  const distinct = new Set(values.map(queryForm)).size;
  const choice = distinct <= MAX_CHOICES && distinct < values.length;
  if (values.every((v) => typeof v === "number")) return "number";
  if (!values.every((v) => typeof v === "string")) return null;
  const strings = values as string[];
  if (strings.some((s) => s.trim() === "" || s.length > MAX_TEXT_LENGTH || /[\r\n<>]/.test(s))) return null;
  return choice ? "choice" : "text";
}

function labelOf(pointer: string, siblings: string[]): string {
  const parts = pointer.slice(1).split("/");
  if (parts.length === 1) return words(parts[0]!);
  // `/status/name` reads as "status" when it is the only readable leaf of status.
  const under = siblings.filter((p) => p.startsWith(`/${parts[0]}/`));
  return under.length === 1 ? words(parts[0]!) : `${words(parts[0]!)} ${words(parts[1]!)}`;
}

/** Classifies the readable scalar fields of the entities; ids, the parent field and opaque values are left out. */
export function fieldsOf(entities: Entity[], skip: string[]): FieldInfo[] {
  const found: Omit<FieldInfo, "label">[] = [];
  for (const pointer of leafPointers(entities)) {
    if (skip.includes(pointer.slice(1).split("/")[0]!)) continue;
    const values = entities.map((e) => readPointer(e, pointer));
    const kind = kindOf(values);
    if (kind === null) continue;
    found.push({ pointer, kind, values, unique: new Set(values.map(queryForm)).size === values.length });
  }
  const pointers = found.map((f) => f.pointer);
  return found.map((f) => ({ ...f, label: labelOf(f.pointer, pointers) }));
}

/**
 * The key: unique readable text with a letter, at most 80 characters. A person names things as they read, so a
 * field whose values look like identifiers (`hello-world`, `jsmith`) comes after one that does not (a title, a
 * name; a URL or a path is coded too), then a top-level field before a nested one, then the shortest on average.
 */
export function keyOf(fields: FieldInfo[]): FieldInfo | null {
  const strings = (f: FieldInfo) => f.values as string[];
  const mean = (f: FieldInfo) => strings(f).reduce((n, s) => n + s.length, 0) / f.values.length;
  const coded = (f: FieldInfo) => strings(f).filter((s) => CODED.test(s)).length / f.values.length;
  const candidates = fields.filter(
    (f) =>
      f.kind === "text" &&
      f.unique &&
      strings(f).every((s) => /\p{L}/u.test(s) && s.length <= MAX_KEY_LENGTH),
  );
  candidates.sort(
    (a, b) =>
      coded(a) - coded(b) ||
      a.pointer.split("/").length - b.pointer.split("/").length ||
      mean(a) - mean(b) ||
      (a.pointer < b.pointer ? -1 : a.pointer > b.pointer ? 1 : 0),
  );
  return candidates[0] ?? null;
}

/** Where the entities sit in a list tool result for this collection's envelope. */
function itemsPointerOf(c: Collection): string {
  const env = c.envelope as { kind: string; items_key?: string };
  return env.kind === "object" && typeof env.items_key === "string"
    ? `/body/${escapePointerToken(env.items_key)}`
    : "/body";
}

/** Builds the view of every collection tasks can use, and says why the others cannot be used. */
export function collectionViews(
  model: Model,
  seed: SeedState,
  tools: EvalTool[],
): { views: CollectionView[]; unusable: Unusable[] } {
  const toolByName = new Map(tools.map((t) => [t.name, t]));
  const endpointByTool = new Map(model.endpoints.map((e) => [e.tool_name, e]));
  const byName = new Map(model.collections.map((c) => [c.name, c]));
  const built = new Map<string, CollectionView | Unusable>();

  const build = (c: Collection, depth: number): CollectionView | Unusable => {
    const done = built.get(c.name);
    if (done) return done;
    const no = (reason: string, explain: string): Unusable => ({ collection: c.name, reason, explain });
    const endpoint = c.list_endpoint === null ? undefined : endpointByTool.get(c.list_endpoint);
    const list = c.list_endpoint === null ? undefined : toolByName.get(c.list_endpoint);
    let out: CollectionView | Unusable;
    if (!endpoint || !list || endpoint.serving !== "state") {
      out = no(
        "no_state_list",
        `no list of ${c.name} is served from state, so an agent cannot look its entities up`,
      );
    } else {
      // What a plain list read shows: not an entity behind the learned default filter (a draft), nor the fields
      // the list leaves out or shows as null.
      // Nor what only writes show (`hidden`: the state keeps it, reads leave it out).
      const hidden = c.hidden ?? [];
      const entities = listedEntities(c, seed.collections[c.name] ?? []).map((e) =>
        hidden.length > 0 ? withoutPointers(e, hidden) : e,
      );
      const parentInfo = c.parent;
      const extraParams = list.binding.path_params.filter((p) => p !== parentInfo?.param);
      let parent: CollectionView["parent"] = null;
      if (extraParams.length > 0) {
        out = no(
          "unknown_path_param",
          `listing ${c.name} needs the path parameter ${extraParams.join(", ")}, which no collection's entities give`,
        );
      } else if (parentInfo?.implied) {
        out = no(
          "parent_implied",
          `${c.name} is listed under {${parentInfo.param}}, but its entities name no parent, so a task could not say which one it works on`,
        );
      } else if (parentInfo && (parentInfo.collection === null || depth > 4)) {
        out = no(
          "parent_not_collection",
          `${c.name} is listed under {${parentInfo.param}}, which names no collection of the recording, so a task could not say which one`,
        );
      } else {
        const p = parentInfo ? byName.get(parentInfo.collection!) : undefined;
        const pv = p ? build(p, depth + 1) : undefined;
        if (parentInfo && (!pv || !("list" in pv) || pv.key === null)) {
          out = no(
            "parent_unnamed",
            `${c.name} is nested under ${parentInfo.collection}, whose entities have no readable field that tells them apart`,
          );
        } else {
          if (parentInfo && pv && "list" in pv)
            parent = { view: pv, field: parentInfo.field, param: parentInfo.param };
          const skip = [c.id_field, ...(parentInfo ? [parentInfo.field] : [])];
          const fields = fieldsOf(entities, skip);
          out =
            entities.length === 0
              ? no("no_entities", `the recording showed no ${c.name}`)
              : {
                  collection: c,
                  singular: singularNoun(c.name),
                  plural: pluralNoun(c.name),
                  list,
                  entities,
                  itemsPointer: itemsPointerOf(c),
                  fields,
                  key: keyOf(fields),
                  parent,
                  refs: new Map(),
                };
        }
      }
    }
    built.set(c.name, out);
    return out;
  };

  const views: CollectionView[] = [];
  const unusable: Unusable[] = [];
  for (const c of [...model.collections].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const v = build(c, 0);
    if ("list" in v) views.push(v);
    else unusable.push(v);
  }
  for (const v of views) {
    for (const f of v.fields) {
      const target = referenceOf(model, v, f, views);
      if (target) v.refs.set(f.pointer, target);
    }
  }
  return { views, unusable };
}

/** The path of a link (`http://host/api/users/2?x` → `/api/users/2`), or null when the value is none. */
function linkPath(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const m = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*(\/[^?#]*)?/.exec(value) ?? /^(\/[^?#]*)/.exec(value);
  return m ? (m[1] ?? "/") : null;
}

/** Every string leaf of a value with its pointer. */
function stringLeaves(value: unknown, pointer: string, out: [string, string][]): [string, string][] {
  if (typeof value === "string") out.push([pointer, value]);
  else if (Array.isArray(value))
    for (const [i, v] of value.entries()) stringLeaves(v, `${pointer}/${i}`, out);
  else if (isObject(value))
    for (const [k, v] of Object.entries(value)) stringLeaves(v, `${pointer}/${escapePointerToken(k)}`, out);
  return out;
}

/**
 * The collection a field refers to, when the recording confirms it: every value is the id of one of its
 * entities, and either every entity links to that entity's item path under a key named like the field
 * (HAL's `_links.author[0].href` → `/users/2`), or the field is named after the collection (`user_id`,
 * `projectId` → projects). Null when no collection, or more than one, fits.
 */
function referenceOf(
  model: Model,
  view: CollectionView,
  field: FieldInfo,
  views: CollectionView[],
): CollectionView | null {
  if (field.kind !== "number" && field.kind !== "choice") return null;
  const token = field.pointer.slice(1).split("/")[0]!;
  if (field.pointer !== `/${token}`) return null;
  const name = words(token).replace(/ id$/, "");
  const fits: CollectionView[] = [];
  for (const t of views) {
    if (t === view || t.key === null) continue;
    const ids = new Set(t.entities.map((e) => queryForm(e[t.collection.id_field])));
    if (!field.values.every((v) => ids.has(queryForm(v)))) continue;
    const named = name === t.singular || name === t.plural;
    const item = model.endpoints.find((e) => e.tool_name === t.collection.item_endpoint);
    const holes = item ? (item.template.match(/\{[^}]+\}/g) ?? []) : [];
    const linked =
      item !== undefined &&
      holes.length === 1 &&
      view.entities.every((e) => {
        const path = item.template.replace(holes[0]!, encodeURIComponent(queryForm(e[token])));
        return stringLeaves(e, "", []).some(
          ([p, s]) => p.split("/").includes(escapePointerToken(token)) && linkPath(s) === path,
        );
      });
    if (named || linked) fits.push(t);
  }
  return fits.length === 1 ? fits[0]! : null;
}

/** The id of an entity, as its collection names it. */
export function idOf(view: CollectionView, entity: Entity): unknown {
  return entity[view.collection.id_field];
}

/**
 * The entities a task works on: all of them, or, for a nested collection, the children of the parent
 * entity with the most children (the first in seed order on a tie).
 */
export function scopeOf(view: CollectionView): Scope {
  if (!view.parent) return { entities: view.entities, parent: null };
  const { view: pv, field } = view.parent;
  let best: Scope | null = null;
  for (const entity of pv.entities) {
    const id = idOf(pv, entity);
    const children = view.entities.filter((e) => queryForm(e[field]) === queryForm(id));
    if (best === null || children.length > best.entities.length) {
      best = {
        entities: children,
        parent: { entity, id, name: String(readPointer(entity, pv.key!.pointer)) },
      };
    }
  }
  return best ?? { entities: [], parent: null };
}

/** The scope an entity belongs to: the whole collection, or its parent entity's children. */
export function scopeContaining(view: CollectionView, entity: Entity): Scope {
  if (!view.parent) return { entities: view.entities, parent: null };
  const { view: pv, field } = view.parent;
  const parent = pv.entities.find((p) => queryForm(idOf(pv, p)) === queryForm(entity[field]));
  if (!parent) return { entities: [], parent: null };
  const id = idOf(pv, parent);
  return {
    entities: view.entities.filter((e) => queryForm(e[field]) === queryForm(id)),
    parent: { entity: parent, id, name: String(readPointer(parent, pv.key!.pointer)) },
  };
}

/** A field's values for the entities of a scope, in scope order. */
export function valuesIn(scope: Scope, field: FieldInfo): unknown[] {
  return scope.entities.map((e) => readPointer(e, field.pointer));
}
