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
  parent: { collection: string | null; param: string; field: string } | null;
}

const isEntity = (v: unknown): v is Entity => v !== null && typeof v === "object" && !Array.isArray(v);
const ITEMS_KEYS = ["data", "items", "results", "records", "rows"];
/** How many list and item observations shape detection looks at. */
const SAMPLE = 200;
const PREFERRED_IDS = ["id", "uuid", "_id", "key", "slug"];

/** The entities of a list answer and the key holding them (null for a bare array), or null. */
export function listEntities(
  body: unknown,
  itemsKey?: string | null,
): { entities: Entity[]; key: string | null } | null {
  if (Array.isArray(body)) return body.every(isEntity) ? { entities: body, key: null } : null;
  if (!isEntity(body)) return null;
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

function detectItemEnvelope(items: Observation[]): ItemEnvelope {
  const first = items.map(bodyOf).find(isEntity);
  if (!first) return { kind: "bare" };
  const keys = Object.keys(first);
  if (keys.length === 1 && isEntity(first[keys[0]!]) && ITEMS_KEYS.includes(keys[0]!))
    return { kind: "object", item_key: keys[0]! };
  return { kind: "bare" };
}

function detectEnvelope(bodies: unknown[], key: string | null, lists: Entity[][]): Envelope {
  if (key === null) return { kind: "bare" };
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
  for (const k of others) {
    if (k === totalKey) continue;
    const first = JSON.stringify(objects[0]![k]);
    if (objects.every((b) => JSON.stringify(b[k]) === first)) constants[k] = objects[0]![k];
  }
  return { kind: "object", items_key: key, total_key: totalKey, constants };
}

/** Finds every collection among the endpoint groups; `warnings` receives entities that lack their id field. */
export function findCollections(groups: EndpointGroup[], warnings: LearnWarning[] = []): FoundCollection[] {
  const gets = new Map(groups.filter((g) => g.method === "GET").map((g) => [g.template, g]));
  const found: FoundCollection[] = [];
  const names = new Set<string>();
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
    const item = gets.get(`${list.template}/{id}`) ?? null;
    // A list never read without a query (a search) is not a collection: its answers are replayed.
    if (!item && !list.observations.some((o) => o.query.length === 0 && okJson(o))) continue;
    const itemOks = item ? item.observations.filter(okJson).slice(0, SAMPLE) : [];
    const itemEnvelope = detectItemEnvelope(itemOks);
    const allOks = list.observations.filter(okJson);
    const all = allOks.map((o) => listEntities(bodyOf(o), key)?.entities ?? []);
    const idField = pickIdField(last, lists, all, itemOks, itemEnvelope);
    if (idField === null) continue;
    const ids = lists
      .flat()
      .map((e) => e[idField])
      .filter(isIdValue);
    const idKind = ids.every((v) => typeof v === "number") ? "int" : ids.every(isUuid) ? "uuid" : "string";
    let parent: FoundCollection["parent"] = null;
    const lastParam = list.params[list.params.length - 1];
    if (lastParam !== undefined) {
      const pairs = oks.map((o, i) => [o, lists[i]!] as const).filter(([, l]) => l.length > 0);
      const field = Object.keys(lists.flat()[0] ?? {}).find((f) =>
        pairs.every(([o, l]) => l.every((e) => String(e[f]) === o.pathParams[lastParam])),
      );
      if (field === undefined) continue;
      const prefix = list.literals.slice(0, list.literals.lastIndexOf(null) + 1);
      const parentCol = found.find((c) => c.item && sameShape(c.item.literals, prefix));
      parent = { collection: parentCol?.name ?? null, param: lastParam, field };
    }
    let name = snake(last);
    if (names.has(name))
      name = snake(list.literals.filter((l): l is string => l !== null && l !== "api").join("_"));
    const base = name;
    for (let n = 2; names.has(name); n++) name = `${base}_${n}`;
    names.add(name);
    warnings.push(...missingIdWarning(name, idField, allOks, key));
    found.push({
      name,
      idField,
      idKind,
      list,
      item,
      envelope: detectEnvelope(oks.map(bodyOf), key, lists),
      itemEnvelope,
      parent,
    });
  }
  return found;
}

function sameShape(a: (string | null)[], b: (string | null)[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
