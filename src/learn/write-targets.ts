/**
 * Decides what each write endpoint acts on: a create on a collection's list
 * template, a replace/merge/delete on its item template, or an action on an
 * item (`POST /api/boards/{board_id}/archive`, learned as a merge), or a create at the item path's parent
 * where that is not the list path (`POST /flow` over `GET /flows`, `GET /flow/{id}`), or a write at the list path
 * whose query names its entities (`PATCH /articles?id=eq.3`). Writes
 * that touch no collection are `no_collection`.
 */
import type { FoundCollection } from "./collections.js";
import type { EndpointGroup } from "./endpoint-index.js";
import { isObject, singular } from "./value-kinds.js";

/** What one write endpoint does to which collection. */
export interface WriteTarget {
  kind: "create" | "replace" | "merge" | "delete";
  endpointKind: "create" | "update" | "patch" | "delete" | "other";
  collection: FoundCollection;
  /** The path param holding the entity's id (null for creates). */
  idParam: string | null;
  /** A batch update at the list path: the request keys holding the ids (an array) and the fields (an object). */
  batch?: { keys: string; data: string };
  /** A write of the whole collection at its list path: the request's array of entities becomes the collection. */
  replaceAll?: true;
  /** A write at the list path whose query names its entities (`PATCH /articles?id=eq.3`): each one it selects. */
  filter?: true;
}

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** True for methods that change state. */
export function isWriteMethod(method: string): boolean {
  return WRITE_METHODS.has(method);
}

function startsWith(a: (string | null)[], prefix: (string | null)[]): boolean {
  return prefix.length <= a.length && prefix.every((x, i) => x === a[i]);
}

/** The write target of every write endpoint that touches a collection, by endpoint key. */
export function findWriteTargets(
  groups: EndpointGroup[],
  collections: FoundCollection[],
): Map<string, WriteTarget> {
  const out = new Map<string, WriteTarget>();
  for (const g of groups) {
    if (!isWriteMethod(g.method)) continue;
    const target =
      replaceAllTarget(g, collections) ??
      directTarget(g, collections) ??
      actionTarget(g, collections) ??
      siblingCreateTarget(g, collections) ??
      batchTarget(g, collections) ??
      filterTarget(g, collections);
    if (target) out.set(g.key, target);
  }
  return out;
}

function itemLiterals(col: FoundCollection): (string | null)[] {
  return col.item?.literals ?? [...col.list.literals, null];
}

function directTarget(g: EndpointGroup, collections: FoundCollection[]): WriteTarget | null {
  for (const col of collections) {
    const list = col.list.literals;
    const item = itemLiterals(col);
    const itemParam = g.params[item.filter((l) => l === null).length - 1] ?? null;
    if (g.method === "POST" && g.literals.length === list.length && startsWith(g.literals, list))
      return { kind: "create", endpointKind: "create", collection: col, idParam: null };
    // Ids that are paths: a POST to a parent's path creates inside it (a file the app names, in a folder).
    if (g.method === "POST" && col.tree && g.literals.length === item.length && startsWith(g.literals, item))
      return { kind: "create", endpointKind: "create", collection: col, idParam: null };
    // A POST at the item path (WordPress's `POST /pages/{id}`) is a hypothesis too: an update of the entity the path
    // names, merged like a PATCH, which the walk confirms by a later read of that entity showing what it sent.
    if (
      g.method === "POST" &&
      !col.tree &&
      col.item &&
      item.at(-1) === null &&
      g.literals.length === item.length &&
      startsWith(g.literals, item)
    )
      return { kind: "merge", endpointKind: "patch", collection: col, idParam: itemParam };
    if (g.method !== "POST" && g.literals.length === item.length && startsWith(g.literals, item)) {
      const kind = g.method === "PUT" ? "replace" : g.method === "PATCH" ? "merge" : "delete";
      const endpointKind = g.method === "PUT" ? "update" : g.method === "PATCH" ? "patch" : "delete";
      return { kind, endpointKind, collection: col, idParam: itemParam };
    }
  }
  return null;
}

function actionTarget(g: EndpointGroup, collections: FoundCollection[]): WriteTarget | null {
  if (g.method === "DELETE") return null;
  for (const col of collections) {
    const item = itemLiterals(col);
    if (
      g.literals.length === item.length + 1 &&
      startsWith(g.literals, item) &&
      g.literals[item.length] !== null
    ) {
      const idParam = g.params[item.filter((l) => l === null).length - 1] ?? null;
      return { kind: "merge", endpointKind: "other", collection: col, idParam };
    }
  }
  return null;
}

/**
 * A create at its item path's parent where that differs from the list path (`POST /flow` beside `GET /flow/{id}`,
 * over `GET /flows`): a hypothesis the walk confirms like any create, by a later read showing the created entity.
 * Only when no collection lists at that path (then the POST is that collection's create).
 */
function siblingCreateTarget(g: EndpointGroup, collections: FoundCollection[]): WriteTarget | null {
  for (const col of collections) {
    for (const item of siblingItems(col)) {
      if (g.method === "POST" && item.length - 1 === g.literals.length && startsWith(item, g.literals))
        return { kind: "create", endpointKind: "create", collection: col, idParam: null };
      // Without an item read, writes at the singular sibling of the list path (`PUT /flow/{id}` over `GET /flows`).
      if (
        g.method !== "POST" &&
        !col.item &&
        g.literals.length === item.length &&
        startsWith(g.literals, item)
      ) {
        const kind = g.method === "PUT" ? "replace" : g.method === "PATCH" ? "merge" : "delete";
        const endpointKind = g.method === "PUT" ? "update" : g.method === "PATCH" ? "patch" : "delete";
        return { kind, endpointKind, collection: col, idParam: g.params[g.params.length - 1] ?? null };
      }
    }
  }
  return null;
}

/**
 * The item paths beside a collection's list path: its item read's when that is not the list path + `{id}`; without
 * an item read, the list's last segment in the singular followed by the id (`/flow/{id}` beside `/flows`), which only
 * a read-back of the list then confirms.
 */
function siblingItems(col: FoundCollection): (string | null)[][] {
  const item = col.item?.literals;
  if (item) return item.at(-1) === null ? [item] : [];
  const last = col.list.literals.at(-1);
  if (typeof last !== "string" || col.tree) return [];
  const one = singular(last);
  return one === last ? [] : [[...col.list.literals.slice(0, -1), one, null]];
}

/**
 * A batch update at a collection's list path (`PATCH /api/items {keys: [1, 2], data: {status: "done"}}`): in every
 * successful request, exactly one top-level key holds a non-empty array of ids (strings or integers) and exactly one
 * other a non-empty object. A hypothesis: the walk confirms it entity by entity (each key's read-back shows the
 * object's fields), and one read-back that disagrees withholds it.
 */
function batchTarget(g: EndpointGroup, collections: FoundCollection[]): WriteTarget | null {
  if (g.method !== "PATCH" && g.method !== "PUT" && g.method !== "POST") return null;
  const col = collections.find(
    (c) => !c.tree && c.list.literals.length === g.literals.length && startsWith(g.literals, c.list.literals),
  );
  if (!col) return null;
  const ok = g.observations.filter((o) => o.status >= 200 && o.status < 300);
  const bodies = ok.map((o) => (o.request.kind === "json" ? o.request.value : null));
  if (bodies.length === 0 || !bodies.every(isObject)) return null;
  const ids = (v: unknown) =>
    Array.isArray(v) &&
    v.length > 0 &&
    v.every((x) => typeof x === "string" || (typeof x === "number" && Number.isInteger(x)));
  const fields = (v: unknown) => isObject(v) && Object.keys(v).length > 0;
  const one = (test: (v: unknown) => boolean) => {
    const names = new Set(
      bodies.map((b) => {
        const hits = Object.keys(b as object).filter((k) => test((b as Record<string, unknown>)[k]));
        return hits.length === 1 ? hits[0]! : "";
      }),
    );
    return names.size === 1 && !names.has("") ? [...names][0]! : null;
  };
  const keys = one(ids);
  const data = one(fields);
  if (keys === null || data === null || keys === data) return null;
  return {
    kind: "merge",
    endpointKind: g.method === "PUT" ? "update" : g.method === "POST" ? "other" : "patch",
    collection: col,
    idParam: null,
    batch: { keys, data },
  };
}

/**
 * A write of the whole collection at a top-level list path (`PUT /api/folders`, `POST /flows`) whose every
 * successful JSON request is an array of entities, each holding the collection's id field: a hypothesis the next
 * full list confirms (it must show exactly the sent entities).
 */
function replaceAllTarget(g: EndpointGroup, collections: FoundCollection[]): WriteTarget | null {
  if (g.method !== "PUT" && g.method !== "POST") return null;
  const col = collections.find(
    (c) =>
      !c.tree &&
      !c.parent &&
      c.list.literals.length === g.literals.length &&
      startsWith(g.literals, c.list.literals),
  );
  if (!col) return null;
  const ok = g.observations.filter((o) => o.status >= 200 && o.status < 300);
  const whole = (v: unknown) =>
    Array.isArray(v) &&
    v.every((e) => isObject(e) && (typeof e[col.idField] === "string" || typeof e[col.idField] === "number"));
  if (ok.length === 0 || !ok.every((o) => o.request.kind === "json" && whole(o.request.value))) return null;
  return { kind: "replace", endpointKind: "update", collection: col, idParam: null, replaceAll: true };
}

/**
 * A write by query at a collection's list path (`PATCH /articles?id=eq.3`, `DELETE /articles?id=eq.6`, a database over
 * HTTP): a PATCH, PUT or DELETE whose every successful observation sent a query, and whose JSON body (none for a
 * delete) is one object of fields. A hypothesis: the entities it writes are those the query selects by the
 * collection's confirmed read rules, which the walk confirms entity by entity (a second pass, once those rules are
 * learned), and the entities it does not select must show unchanged.
 */
function filterTarget(g: EndpointGroup, collections: FoundCollection[]): WriteTarget | null {
  if (g.method !== "PATCH" && g.method !== "PUT" && g.method !== "DELETE") return null;
  const col = collections.find(
    (c) => !c.tree && c.list.literals.length === g.literals.length && startsWith(g.literals, c.list.literals),
  );
  if (!col) return null;
  const ok = g.observations.filter((o) => o.status >= 200 && o.status < 300);
  if (ok.length === 0 || !ok.every((o) => o.query.length > 0)) return null;
  if (g.method !== "DELETE" && !ok.every((o) => o.request.kind === "json" && isObject(o.request.value)))
    return null;
  const kind = g.method === "PUT" ? "replace" : g.method === "PATCH" ? "merge" : "delete";
  const endpointKind = g.method === "PUT" ? "update" : g.method === "PATCH" ? "patch" : "delete";
  return { kind, endpointKind, collection: col, idParam: null, filter: true };
}
