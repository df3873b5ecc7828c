/**
 * Decides what each write endpoint acts on: a create on a collection's list
 * template, a replace/merge/delete on its item template, or an action on an
 * item (`POST /api/boards/{board_id}/archive`, learned as a merge), or a create at the item path's parent
 * where that is not the list path (`POST /flow` over `GET /flows`, `GET /flow/{id}`). Writes
 * that touch no collection are `no_collection`.
 */
import type { FoundCollection } from "./collections.js";
import type { EndpointGroup } from "./endpoint-index.js";

/** What one write endpoint does to which collection. */
export interface WriteTarget {
  kind: "create" | "replace" | "merge" | "delete";
  endpointKind: "create" | "update" | "patch" | "delete" | "other";
  collection: FoundCollection;
  /** The path param holding the entity's id (null for creates). */
  idParam: string | null;
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
      directTarget(g, collections) ?? actionTarget(g, collections) ?? siblingCreateTarget(g, collections);
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
  if (g.method !== "POST") return null;
  for (const col of collections) {
    const item = col.item?.literals;
    if (!item || item.at(-1) !== null || item.length - 1 !== g.literals.length) continue;
    if (startsWith(item, g.literals))
      return { kind: "create", endpointKind: "create", collection: col, idParam: null };
  }
  return null;
}
