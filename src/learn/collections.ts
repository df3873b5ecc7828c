/**
 * Finds entity collections: a list read (a bare array of objects, or an
 * envelope such as `{data: [...], total}`) of one template, with a stable id
 * field confirmed by the item read of the same template family when there is
 * one. Nested lists are linked to their parent by the entity field that
 * always equals the parent's path parameter.
 */
import type { Entity, Envelope, ItemEnvelope } from "../model/model-schema.js";
import { escapePointerToken } from "../util/json-pointer.js";
import type { LearnWarning } from "./api-records.js";
import type { EndpointGroup, Observation } from "./endpoint-index.js";
import { itemOnlyCollections } from "./item-only-collections.js";
import { missStatuses } from "./not-found-status.js";
import { splitSuffix } from "./path-template.js";
import { namesItsFields } from "./projected-reads.js";
import { type CursorLeaf, learnCursorLeaf, saysMore } from "./query-cursor.js";
import { detectTree } from "./tree-collection.js";
import { isUuid, singular, snake } from "./value-kinds.js";

/** A collection found in the evidence, before its order and filters are learned. */
export interface FoundCollection {
  name: string;
  idField: string;
  idKind: "int" | "uuid" | "string";
  list: EndpointGroup;
  item: EndpointGroup | null;
  envelope: Envelope;
  itemEnvelope: ItemEnvelope;
  /**
   * `implied`: the entities name no parent; the walk keeps the scope under `field` (see `impliedScope`). `reference`:
   * they name it only inside an object (`project.id`), so the scope kept is the parent's id (`referenceScope`).
   */
  parent: {
    collection: string | null;
    param: string;
    field: string;
    implied?: boolean;
    reference?: string;
  } | null;
  /** Other fields item paths name an entity by (`identifier` beside `id`), when they use two. */
  altIdFields?: string[];
  /** Ids are paths: item reads of a parent embed its children under this key (tree-collection.ts). */
  tree?: { childrenKey: string };
  /** A cursor leaf of the list answers (query-cursor.ts), and the default page size plain lists were cut at. */
  cursor?: CursorLeaf;
  defaultLimit?: number;
  /** The item reads' statuses that mean "no such entity" (404, 410, and a 403 confirmed so: not-found-status.ts). */
  missStatuses?: number[];
  /**
   * No list route: the app reads the collection only by id (item-only-collections.ts); `list` is an empty group that
   * names no route, so the model's `list_endpoint` is null and the collection is `unlisted`.
   */
  itemOnly?: true;
  /**
   * Every list read of it was a projection (`?_fields=id,title`) and no item read was recorded: a collection still
   * (its entities known in part, from those reads and the writes' answers), never listed whole, so `unlisted`.
   */
  projectedOnly?: true;
  /** Fields item reads show that list reads leave out (`omit`) or show as null (`nulls`): the list's own view. */
  listView?: { omit: string[]; nulls: string[]; defaults?: Record<string, unknown>; item_values?: string[] };
}

const isEntity = (v: unknown): v is Entity => v !== null && typeof v === "object" && !Array.isArray(v);
const ITEMS_KEYS = ["data", "items", "results", "records", "rows"];
/** How many list and item observations shape detection looks at. */
const SAMPLE = 200;
const PREFERRED_IDS = ["id", "uuid", "_id", "key", "slug"];
const NONE: ReadonlySet<string> = new Set();

/**
 * A keyed map's entities (`{"1": {id: 1, …}, "2": {…}}`): an object of two or more entities, one field of which
 * equals each entity's own key in every one of them; else null.
 */
export function keyedEntities(body: unknown): Entity[] | null {
  if (!isEntity(body)) return null;
  const entries = Object.entries(body);
  if (entries.length < 2 || !entries.every(([, v]) => isEntity(v))) return null;
  const first = entries[0]![1] as Entity;
  const field = Object.keys(first).find((f) =>
    entries.every(([k, v]) => isIdValue((v as Entity)[f]) && String((v as Entity)[f]) === k),
  );
  return field === undefined ? null : entries.map(([, v]) => v as Entity);
}

/** The entities of a list answer and the key holding them (null for a bare array or a keyed map), or null. */
export function listEntities(
  body: unknown,
  itemsKey?: string | null,
): { entities: Entity[]; key: string | null } | null {
  if (Array.isArray(body)) return body.every(isEntity) ? { entities: body, key: null } : null;
  if (!isEntity(body)) return null;
  if (!itemsKey) {
    const keyed = keyedEntities(body);
    if (keyed) return { entities: keyed, key: null };
  }
  const keys = itemsKey ? [itemsKey] : Object.keys(body).filter((k) => Array.isArray(body[k]));
  const key = keys.length === 1 ? keys[0]! : keys.find((k) => ITEMS_KEYS.includes(k));
  const arr = key === undefined ? undefined : body[key];
  return Array.isArray(arr) && arr.every(isEntity) ? { entities: arr, key: key! } : null;
}

/** The entity of an item answer under the envelope, or null. */
export function itemEntity(body: unknown, envelope: ItemEnvelope): Entity | null {
  if (!isEntity(body)) return null;
  if (envelope.kind === "bare") return body;
  const inner = body[envelope.item_key];
  return isEntity(inner) ? inner : null;
}

const okJson = (o: Observation) => o.status >= 200 && o.status < 300 && o.response.kind === "json";
const bodyOf = (o: Observation) => (o.response.kind === "json" ? o.response.value : undefined);

const isIdValue = (v: unknown) => typeof v === "string" || (typeof v === "number" && Number.isInteger(v));

/** True when field `k`, where present, is unique in every list and equals the path id in every item answer. */
function holdsAsId(k: string, lists: Entity[][], items: Observation[], itemEnvelope: ItemEnvelope): boolean {
  return (
    lists.every((l) => {
      const having = l.filter((e) => k in e);
      return (
        having.every((e) => isIdValue(e[k])) &&
        new Set(having.map((e) => String(e[k]))).size === having.length
      );
    }) &&
    items.every((o) => {
      const e = itemEntity(bodyOf(o), itemEnvelope);
      return e !== null && String(e[k]) === o.pathParams["id"];
    })
  );
}

/**
 * The id field: a preferred name (`id`, `uuid`, `<singular>_id`, `<singular>Id`, `_id`, `key`, `slug`) held by at least
 * half the entities and unique in every list read (all of them, not only the sample), else a field every entity
 * holds, unique and confirmed by the item reads. A field unique by coincidence (a foreign key) never wins over
 * a preferred name some entity lacks: that entity is warned about instead.
 */
function pickIdField(
  word: string,
  sample: Entity[][],
  all: Entity[][],
  items: Observation[],
  itemEnvelope: ItemEnvelope,
): string | null {
  const flat = sample.flat();
  if (flat.length === 0) return null;
  const one = singular(word);
  const preferred = [...PREFERRED_IDS.slice(0, 2), `${one}_id`, `${one}Id`, ...PREFERRED_IDS.slice(2)];
  const named = preferred.find(
    (k) => flat.filter((e) => k in e).length * 2 >= flat.length && holdsAsId(k, all, items, itemEnvelope),
  );
  if (named) return named;
  const common = Object.keys(flat[0]!).filter((k) => flat.every((e) => isIdValue(e[k])));
  const pool = common.filter((k) => holdsAsId(k, all, items, itemEnvelope));
  return pool.find((k) => /(^|_)id$|Id$/.test(k)) ?? (items.length > 0 ? (pool[0] ?? null) : null);
}

/**
 * Two ids of one entity, when item paths use both (`/projects/1` and `/projects/website` for the project whose
 * `identifier` is `website`): a preferred id field held by every entity and unique, and another field unique in
 * every list that the item reads the first does not explain all equal. Null when one field explains them all, or
 * no pair does.
 */
function pickIdPair(
  word: string,
  sample: Entity[][],
  all: Entity[][],
  items: Observation[],
  itemEnvelope: ItemEnvelope,
): { idField: string; alt: string } | null {
  const flat = sample.flat();
  if (flat.length === 0 || items.length < 2) return null;
  const unique = (k: string) => holdsAsId(k, all, [], itemEnvelope) && flat.every((e) => isIdValue(e[k]));
  const one = singular(word);
  const preferred = [...PREFERRED_IDS.slice(0, 2), `${one}_id`, `${one}Id`, ...PREFERRED_IDS.slice(2)];
  const common = Object.keys(flat[0]!).filter(unique);
  const pathMatches = (k: string, o: Observation) => {
    const e = itemEntity(bodyOf(o), itemEnvelope);
    return e !== null && String(e[k]) === o.pathParams["id"];
  };
  for (const idField of [...preferred.filter((k) => common.includes(k)), ...common]) {
    const rest = items.filter((o) => !pathMatches(idField, o));
    if (rest.length === 0 || rest.length === items.length) continue;
    const alt = common.find((k) => k !== idField && rest.every((o) => pathMatches(k, o)));
    if (alt) return { idField, alt };
  }
  return null;
}

/** The item name of a list's last segment: the segment without its suffix and its singular, and the suffixes tried. */
function itemNames(list: EndpointGroup): { names: string[]; tails: string[] } {
  const last = list.literals[list.literals.length - 1]!;
  const { stem, suffix } = splitSuffix(last);
  return {
    names: [...new Set([stem, singular(stem)])].map(encodeURIComponent),
    tails: [...new Set([suffix, ""])].map(encodeURIComponent),
  };
}

/**
 * The item templates a list may have at its own path: `<list>/{id}` (`{id+}`), the sibling item path
 * (`/issues.json` and `/issues/{id}.json`, `/flows` and `/flow/{id}`), and an item beside the list itself
 * (`/wiki/index.json` and `/wiki/{id}.json`). The sibling ones are linked only when an item read showed a listed
 * entity (`itemFor`).
 */
function ownItemTemplates(list: EndpointGroup): string[] {
  const parent = list.template.slice(0, list.template.lastIndexOf("/"));
  const { names, tails } = itemNames(list);
  return [
    `${list.template}/{id}`,
    `${list.template}/{id+}`,
    ...names.flatMap((n) => tails.map((t) => `${parent}/${n}/{id}${t}`)),
    // A list beside its items (`/wiki/index.json` and `/wiki/{id}.json`).
    ...tails.map((t) => `${parent}/{id}${t}`),
  ];
}

/**
 * The flat item templates of a nested list (`/memberships/{id}.json` for `/projects/{project_id}/memberships.json`):
 * its item name under each path of literals before its first parameter, the longest first. None for a top-level list.
 */
function flatItemTemplates(list: EndpointGroup): string[] {
  const segments = list.template.split("/");
  const firstParam = segments.findIndex((s) => s.startsWith("{"));
  if (firstParam < 0) return [];
  const { names, tails } = itemNames(list);
  const out: string[] = [];
  for (let end = firstParam; end >= 1; end--) {
    const prefix = segments.slice(0, end).join("/");
    for (const n of names) for (const t of tails) out.push(`${prefix}/${n}/{id}${t}`);
  }
  return out;
}

/**
 * True when an item answer (bare, or under one key) shows an entity a list showed, by the same field: some list
 * entity holds the path's id at a field the answer holds it at too. Stricter than a value anywhere in the list, as
 * a flat item path (`/memberships/3.json`) is linked to a list at another path only by this.
 */
function showsListed(o: Observation, lists: Entity[][]): boolean {
  const id = o.pathParams["id"];
  const body = bodyOf(o);
  if (id === undefined || !isEntity(body)) return false;
  const shown = [body, ...Object.values(body).filter(isEntity)];
  return lists.some((l) =>
    l.some((e) =>
      Object.keys(e).some(
        (k) => isIdValue(e[k]) && String(e[k]) === id && shown.some((s) => String(s[k]) === id),
      ),
    ),
  );
}

/**
 * The item endpoint of a list: `<list>/{id}`, or, when the list path ends in a file-type suffix or the item path
 * names the entity in the singular (`/issues.json` and `/issues/{id}.json`, `/flows` and `/flow/{id}`), a sibling
 * item path whose answers show an entity the list showed (their ids coincide). A nested list may have its item at a
 * flat path instead (`/projects/{project_id}/memberships.json` and `/memberships/{id}.json`): taken when `flat` (the
 * one nested list that may claim it, whose entities name their scope) and an item read showed, by the same field, an
 * entity the list showed.
 */
function itemFor(
  list: EndpointGroup,
  gets: Map<string, EndpointGroup>,
  lists: Entity[][],
  flat: ReadonlySet<string>,
): EndpointGroup | null {
  const [exact, greedy, ...siblings] = ownItemTemplates(list);
  // An id holding `/` makes the item parameter greedy (`/api/contents/{id+}`).
  const own = gets.get(exact!) ?? gets.get(greedy!);
  if (own) return own;
  const listed = new Set(lists.flat().flatMap((e) => Object.values(e).filter(isIdValue).map(String)));
  for (const t of siblings) {
    const g = gets.get(t);
    if (g?.observations.some((o) => okJson(o) && listed.has(o.pathParams["id"] ?? ""))) return g;
  }
  for (const t of flatItemTemplates(list)) {
    const g = flat.has(t) ? gets.get(t) : undefined;
    if (g?.observations.some((o) => okJson(o) && showsListed(o, lists))) return g;
  }
  return null;
}

/**
 * The flat item templates each nested list may claim: read by a GET, no list's own item template, and a candidate
 * of that one nested list alone (two nested lists naming one flat path are not told apart).
 */
function flatClaims(gets: Map<string, EndpointGroup>): Map<string, Set<string>> {
  const lists = [...gets.values()].filter((g) => typeof g.literals[g.literals.length - 1] === "string");
  const own = new Set(lists.flatMap(ownItemTemplates));
  const claimants = new Map<string, string[]>();
  for (const l of lists)
    for (const t of new Set(flatItemTemplates(l)))
      if (gets.has(t) && !own.has(t)) claimants.set(t, [...(claimants.get(t) ?? []), l.key]);
  const out = new Map<string, Set<string>>();
  for (const [t, keys] of claimants)
    if (keys.length === 1) out.set(keys[0]!, new Set([...(out.get(keys[0]!) ?? []), t]));
  return out;
}

/** A warning for the first entity of a list that lacks the id field (the twin leaves such entities out). */
function missingIdWarning(
  name: string,
  idField: string,
  oks: Observation[],
  key: string | null,
): LearnWarning[] {
  for (const o of oks) {
    const entities = listEntities(bodyOf(o), key)?.entities ?? [];
    const at = entities.findIndex((e) => !isIdValue(e[idField]));
    if (at >= 0)
      return [
        {
          code: "missing_id",
          message: `an entity of ${name} has no id field "${idField}"; the twin leaves it out of the seed state`,
          pointer: `/records/${o.index}/response/body${key === null ? "" : `/${escapePointerToken(key)}`}/${at}`,
        },
      ];
  }
  return [];
}

/**
 * How item answers wrap their entity, by structure: under one key whose value is, in every answer, an object
 * shaped like the list's entities (holding most of their keys) or holding the path's id — whatever the key is
 * called (`{issue: {...}}`, `{data: {...}, meta: {...}}`) — else bare.
 */
export function detectItemEnvelope(items: Observation[], lists: Entity[][]): ItemEnvelope {
  const bodies = items.map(bodyOf);
  if (bodies.length === 0 || !bodies.every(isEntity)) return { kind: "bare" };
  const listKeys = Object.keys(lists.flat()[0] ?? {});
  const entityLike = (v: unknown, o: Observation) =>
    isEntity(v) &&
    ((listKeys.length > 0 && listKeys.filter((k) => k in v).length * 2 >= listKeys.length) ||
      Object.values(v).some((x) => isIdValue(x) && String(x) === o.pathParams["id"]));
  const looksBare = items.every(
    (o, i) => entityLike(bodies[i], o) && !Object.values(bodies[i]!).some(isEntity),
  );
  if (looksBare) return { kind: "bare" };
  const first = bodies[0] as Entity;
  const keys = Object.keys(first).filter((k) =>
    items.every((o, i) => entityLike((bodies[i] as Entity)[k], o)),
  );
  const key = keys.length === 1 ? keys[0]! : keys.find((k) => ITEMS_KEYS.includes(k));
  if (key === undefined) return { kind: "bare" };
  // The keys beside it that every item answer holds with one value (`{data: {...}, meta: {}}`) are answered alike.
  const constants: Record<string, unknown> = {};
  for (const k of Object.keys(first)) {
    if (k === key) continue;
    const v = JSON.stringify(first[k]);
    if (bodies.every((b) => Object.hasOwn(b as Entity, k) && JSON.stringify((b as Entity)[k]) === v))
      constants[k] = first[k];
  }
  return { kind: "object", item_key: key, ...(Object.keys(constants).length > 0 ? { constants } : {}) };
}

/**
 * An envelope key that repeats a query parameter (`offset`, `limit` beside `?limit=2`): in every answer it holds
 * the parameter's value when the request sent it, and one default otherwise; one request must have sent another
 * value than the default.
 */
function echoOf(
  k: string,
  obs: Observation[],
  objects: Entity[],
): { param: string; default: unknown } | null {
  const names = [...new Set(obs.flatMap((o) => o.query.map(([n]) => n)))].sort();
  for (const param of names) {
    const sent = obs.map((o) => o.query.find(([n]) => n === param)?.[1]);
    const without = objects.filter((_, i) => sent[i] === undefined).map((b) => JSON.stringify(b[k]));
    if (without.length === 0 || new Set(without).size !== 1) continue;
    const fallback = JSON.parse(without[0]!) as unknown;
    const ok = objects.every((b, i) => sent[i] === undefined || String(b[k]) === sent[i]);
    if (ok && sent.some((v) => v !== undefined && v !== String(fallback)))
      return { param, default: fallback };
  }
  return null;
}

export function detectEnvelope(
  bodies: unknown[],
  key: string | null,
  lists: Entity[][],
  obs: Observation[] = [],
): Envelope {
  if (key === null) return bodies.some((b) => !Array.isArray(b)) ? { kind: "keyed" } : { kind: "bare" };
  const objects = bodies.filter(isEntity);
  const others = Object.keys(objects[0] ?? {}).filter((k) => k !== key);
  const totalKey =
    others.find(
      (k) =>
        objects.every((b) => Number.isInteger(b[k])) && /^(total|count|total_?count|totalCount)$/i.test(k),
    ) ??
    others.find((k) => objects.every((b, i) => b[k] === lists[i]?.length)) ??
    null;
  const constants: Record<string, unknown> = {};
  const echoes: Record<string, { param: string; default: unknown }> = {};
  for (const k of others) {
    if (k === totalKey) continue;
    const first = JSON.stringify(objects[0]![k]);
    if (objects.every((b) => JSON.stringify(b[k]) === first)) constants[k] = objects[0]![k];
    else if (obs.length === objects.length) {
      const echo = echoOf(k, obs, objects);
      if (echo) echoes[k] = echo;
    }
  }
  return {
    kind: "object",
    items_key: key,
    total_key: totalKey,
    constants,
    ...(Object.keys(echoes).length > 0 ? { echoes } : {}),
  };
}

/**
 * The fields a list shows differently from an item read of the same collection: those every item answer holds
 * and no list entity does (`omit`: Redmine's project `homepage`), and those item answers give a value and every
 * list entity gives null (`nulls`: a Jupyter folder's `content`). Null when lists show entities as items do.
 */
function detectListView(
  all: Entity[][],
  items: Observation[],
  itemEnvelope: ItemEnvelope,
): FoundCollection["listView"] {
  const listed = all.flat();
  const itemEntities = items
    .map((o) => itemEntity(bodyOf(o), itemEnvelope))
    .filter((e): e is Entity => e !== null);
  if (listed.length === 0 || itemEntities.length === 0) return undefined;
  const itemKeys = Object.keys(itemEntities[0]!).filter((k) => itemEntities.every((e) => k in e));
  const omit = itemKeys.filter((k) => listed.every((e) => !(k in e))).sort();
  const nulls = [...new Set(itemEntities.flatMap((e) => Object.keys(e)))]
    .filter((k) => itemEntities.some((e) => e[k] !== null && e[k] !== undefined))
    .filter((k) => listed.every((e) => k in e && e[k] === null))
    .sort();
  if (omit.length + nulls.length === 0) return undefined;
  // A hidden field every item read of two or more entities gave one value has that value for the others too.
  const defaults: Record<string, unknown> = {};
  const byId = new Map(items.map((o, i) => [o.pathParams["id"], itemEntities[i]]));
  for (const k of omit) {
    const values = [...byId.values()]
      .filter((e): e is Entity => e !== undefined && k in e)
      .map((e) => JSON.stringify(e[k]));
    if (values.length >= 2 && new Set(values).size === 1) defaults[k] = JSON.parse(values[0]!);
  }
  // The nulls every plain item read gave a value (a projection, `?content=0`, nulls them on purpose).
  const plain = items
    .filter((o) => o.query.length === 0)
    .map((o) => itemEntity(bodyOf(o), itemEnvelope))
    .filter((e): e is Entity => e !== null);
  const valued = nulls.filter(
    (k) => plain.length > 0 && plain.every((e) => e[k] !== null && e[k] !== undefined),
  );
  return {
    omit,
    nulls,
    ...(Object.keys(defaults).length > 0 ? { defaults } : {}),
    ...(valued.length > 0 ? { item_values: valued } : {}),
  };
}

/** Finds every collection among the endpoint groups; `warnings` receives entities that lack their id field. */
export function findCollections(groups: EndpointGroup[], warnings: LearnWarning[] = []): FoundCollection[] {
  const gets = new Map(groups.filter((g) => g.method === "GET").map((g) => [g.template, g]));
  const found: FoundCollection[] = [];
  const names = new Set<string>();
  const claims = flatClaims(gets);
  for (const list of [...gets.values()].sort((a, b) => (a.template < b.template ? -1 : 1))) {
    const last = list.literals[list.literals.length - 1];
    if (last === null || last === undefined) continue;
    // Shapes are judged on the first observations (evidence order): deterministic, and linear at 100k records.
    const oks = list.observations.filter(okJson).slice(0, SAMPLE);
    const parsed = oks.map((o) => listEntities(bodyOf(o)));
    if (parsed.length === 0 || parsed.some((p) => p === null)) continue;
    const key = parsed[0]!.key;
    if (parsed.some((p) => p!.key !== key)) continue;
    const lists = parsed.map((p) => p!.entities);
    let parent: FoundCollection["parent"] = null;
    const lastParam = list.params[list.params.length - 1];
    if (lastParam !== undefined) {
      const pairs = oks.map((o, i) => [o, lists[i]!] as const).filter(([, l]) => l.length > 0);
      const field = Object.keys(lists.flat()[0] ?? {}).find((f) =>
        pairs.every(([o, l]) => l.every((e) => String(e[f]) === o.pathParams[lastParam])),
      );
      const prefix = list.literals.slice(0, list.literals.lastIndexOf(null) + 1);
      const parentCol = found.find((c) => c.item && sameShape(c.item.literals, prefix));
      const reference =
        field === undefined && parentCol ? referenceScope(lastParam, pairs, parentIds(parentCol)) : null;
      const implied =
        field === undefined ? (reference !== null ? lastParam : impliedScope(lastParam, pairs)) : null;
      if (field === undefined && implied === null) continue;
      parent =
        field !== undefined
          ? { collection: parentCol?.name ?? null, param: lastParam, field }
          : {
              collection: parentCol?.name ?? null,
              param: lastParam,
              field: implied!,
              implied: true,
              ...(reference !== null ? { reference } : {}),
            };
    }
    // A flat item path is linked only where the entities name their scope (a field, or a reference inside one):
    // its reads name no parent, so the entity must.
    const namesScope = parent !== null && (!parent.implied || parent.reference !== undefined);
    const item = itemFor(list, gets, lists, (namesScope && claims.get(list.key)) || NONE);
    // A list never read without a query (a search) is not a collection: its answers are replayed. Unless every read
    // of it is a projection (below): the entities are then known in part, from those reads and the writes' answers.
    const plainRead = list.observations.some((o) => o.query.length === 0 && okJson(o));
    const projectedOnly = !item && !plainRead && oks.every((o, i) => namesItsFields(o.query, lists[i]!));
    if (!item && !plainRead && !projectedOnly) continue;
    // An item read with a query (a projection, an expansion) may show another shape of the entity: shapes are
    // judged on the plain item reads when there are any.
    const itemAll = item ? item.observations.filter(okJson) : [];
    const plain = itemAll.filter((o) => o.query.length === 0);
    const itemOks = (plain.length > 0 ? plain : itemAll).slice(0, SAMPLE);
    const itemEnvelope = detectItemEnvelope(itemOks, lists);
    const allOks = list.observations.filter(okJson);
    const all = allOks.map((o) => listEntities(bodyOf(o), key)?.entities ?? []);
    const word = splitSuffix(last).stem;
    const single = pickIdField(word, lists, all, itemOks, itemEnvelope);
    const pair = single === null ? pickIdPair(word, lists, all, itemOks, itemEnvelope) : null;
    const idField = pair?.idField ?? single;
    if (idField === null) continue;
    const ids = lists
      .flat()
      .map((e) => e[idField])
      .filter(isIdValue);
    const idKind = ids.every((v) => typeof v === "number") ? "int" : ids.every(isUuid) ? "uuid" : "string";
    let name = snake(word);
    if (names.has(name))
      name = snake(list.literals.filter((l): l is string => l !== null && l !== "api").join("_"));
    const base = name;
    for (let n = 2; names.has(name); n++) name = `${base}_${n}`;
    names.add(name);
    warnings.push(...missingIdWarning(name, idField, allOks, key));
    const childrenKey = parent === null ? detectTree(idField, all, itemOks, itemEnvelope) : null;
    const paging = key === null ? null : cursorPaging(allOks, all, key, idField);
    found.push({
      name,
      idField,
      idKind,
      list,
      item,
      envelope: detectEnvelope(oks.map(bodyOf), key, lists, oks),
      itemEnvelope,
      parent,
      ...(pair ? { altIdFields: [pair.alt] } : {}),
      ...(projectedOnly ? { projectedOnly: true as const } : {}),
      ...((miss) => (miss.includes(403) ? { missStatuses: miss } : {}))(
        item ? missStatuses(item, groups, idField) : [],
      ),
      ...(childrenKey !== null ? { tree: { childrenKey } } : {}),
      ...(paging ?? {}),
      ...((view) => (view ? { listView: view } : {}))(detectListView(all, itemOks, itemEnvelope)),
    });
  }
  const claimed = new Set(found.flatMap((c) => (c.item ? [c.item] : [])));
  for (const c of itemOnlyCollections(groups, claimed, names))
    found.push({
      ...c,
      envelope: { kind: "bare" },
      itemEnvelope: { kind: "bare" },
      parent: null,
      itemOnly: true,
      ...((miss) => (miss.includes(403) ? { missStatuses: miss } : {}))(
        missStatuses(c.item, groups, c.idField),
      ),
    });
  return found;
}

/**
 * The key a nested list's scope is kept under when its entities name no parent (`/files/{file_id}/versions`
 * answering `[{id, saved}]`): the parameter's own name, when no entity holds that key nor the parameter's value
 * anywhere at its top level (an entity holding it under another name is one the field test above missed, not one
 * naming no parent). Null otherwise.
 */
function impliedScope(param: string, pairs: readonly (readonly [Observation, Entity[]])[]): string | null {
  if (pairs.length === 0) return null;
  const names = pairs.every(([o, l]) =>
    l.every(
      (e) => !Object.hasOwn(e, param) && Object.values(e).every((v) => String(v) !== o.pathParams[param]),
    ),
  );
  return names ? param : null;
}

/**
 * Every spelling a path may name a parent entity by (its id, and its other ids: `website` for `identifier`) → its id,
 * over the entities the parent's list and item reads showed.
 */
function parentIds(parent: FoundCollection): Map<string, string> {
  const key = parent.envelope.kind === "object" ? parent.envelope.items_key : null;
  const entities = [
    ...parent.list.observations.filter(okJson).flatMap((o) => listEntities(bodyOf(o), key)?.entities ?? []),
    ...(parent.item?.observations ?? [])
      .filter(okJson)
      .map((o) => itemEntity(bodyOf(o), parent.itemEnvelope))
      .filter((e): e is Entity => e !== null),
  ];
  const out = new Map<string, string>();
  for (const e of entities) {
    const id = e[parent.idField];
    if (isIdValue(id)) out.set(String(id), String(id));
  }
  for (const e of entities) {
    const id = e[parent.idField];
    if (!isIdValue(id)) continue;
    for (const f of parent.altIdFields ?? [])
      if (isIdValue(e[f]) && !out.has(String(e[f]))) out.set(String(e[f]), String(id));
  }
  return out;
}

/**
 * The reference inside an object field (`project.id` of `project: {id, name}`) that, in every entity of every nested
 * list, is the id of the parent entity the path names — by that id or by another of its ids
 * (`/projects/website/versions` listing `project: {id: 1}`): entities that name their parent only so. The scope is
 * then kept, as for entities naming none, under the parameter's name (no entity may hold that key), holding the
 * parent's id. Null otherwise.
 */
function referenceScope(
  param: string,
  pairs: readonly (readonly [Observation, Entity[]])[],
  ids: ReadonlyMap<string, string>,
): string | null {
  const first = pairs[0]?.[1][0];
  if (!first || pairs.some(([, l]) => l.some((e) => Object.hasOwn(e, param)))) return null;
  for (const [k, v] of Object.entries(first)) {
    if (!isEntity(v)) continue;
    for (const sub of Object.keys(v))
      if (
        pairs.every(([o, l]) => {
          const want = ids.get(o.pathParams[param] ?? "");
          return want !== undefined && l.every((e) => isEntity(e[k]) && String(e[k][sub]) === want);
        })
      )
        return `${k}.${sub}`;
  }
  return null;
}

/**
 * The cursor leaf of the list answers, and the default page size: the size of every plain list answer (no query)
 * that says more follows, when all of them showed one size and no plain answer more.
 */
function cursorPaging(
  oks: Observation[],
  lists: Entity[][],
  key: string,
  idField: string,
): { cursor: CursorLeaf; defaultLimit?: number } | null {
  const cursor = learnCursorLeaf(
    oks.map((o, i) => ({ body: bodyOf(o), entities: lists[i] ?? [] })),
    key,
    idField,
  );
  if (!cursor) return null;
  const plain = oks.map((o, i) => [o, lists[i] ?? []] as const).filter(([o]) => o.query.length === 0);
  const cut = plain.filter(([o]) => saysMore(cursor, bodyOf(o))).map(([, l]) => l.length);
  const size = cut[0];
  const one = size !== undefined && cut.every((n) => n === size) && plain.every(([, l]) => l.length <= size);
  return { cursor, ...(one ? { defaultLimit: size } : {}) };
}

function sameShape(a: (string | null)[], b: (string | null)[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
