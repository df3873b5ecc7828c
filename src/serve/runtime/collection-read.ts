/**
 * State-backed reads: a list read applies the collection's confirmed
 * filters, parent scope, order, pagination and envelope; an item read finds
 * one entity by id and wraps it, or answers the recorded not-found.
 */
import type { Collection, Entity } from "../../model/model-schema.js";
import { findEntityIndex } from "./entity-index.js";
import { nonNegativeInt, queryForm } from "./json-text.js";
import { recordedAnswer } from "./recorded-answer.js";
import type { TwinResponse } from "./twin-types.js";

const JSON_HEADERS = { "content-type": "application/json" };

/** The first value of a query parameter, or undefined. */
export function queryValue(query: [string, string][], name: string): string | undefined {
  return query.find(([k]) => k === name)?.[1];
}

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === undefined || a === null) return 1;
  if (b === undefined || b === null) return -1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  const sa = queryForm(a);
  const sb = queryForm(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/** Entities of the collection a request may see: those under the parent named by the path. */
function scoped(list: Entity[], c: Collection, params: Record<string, string>): Entity[] {
  if (!c.parent) return list;
  const want = params[c.parent.param];
  return want === undefined ? list : list.filter((e) => queryForm(e[c.parent!.field]) === want);
}

/** Answers a list read from the collection's entities. */
export function listRead(
  c: Collection,
  list: Entity[],
  params: Record<string, string>,
  query: [string, string][],
  rule: string,
): TwinResponse {
  let rows = scoped(list, c, params);
  for (const f of c.filters) {
    const want = queryValue(query, f.param);
    if (want !== undefined) rows = rows.filter((e) => queryForm(e[f.field]) === want);
  }
  if (c.list_order.kind === "field") {
    const { field, direction } = c.list_order;
    const sign = direction === "asc" ? 1 : -1;
    rows = [...rows].sort((a, b) => sign * compare(a[field], b[field]));
  }
  const total = rows.length;
  if (c.pagination) {
    const offset = nonNegativeInt(queryValue(query, c.pagination.offset_param)) ?? 0;
    const limit = nonNegativeInt(queryValue(query, c.pagination.limit_param));
    rows = rows.slice(offset, limit === undefined ? undefined : offset + limit);
  } else if (rows === list) {
    rows = rows.slice();
  }
  const items = structuredClone(rows);
  let value: unknown = items;
  if (c.envelope.kind === "object") {
    const env: Record<string, unknown> = { ...structuredClone(c.envelope.constants) };
    env[c.envelope.items_key] = items;
    if (c.envelope.total_key !== null) env[c.envelope.total_key] = total;
    value = env;
  }
  return {
    status: 200,
    headers: { ...JSON_HEADERS },
    body: { kind: "json", value },
    served_by: "state",
    rule,
  };
}

/** The collection's recorded answer to an unknown id, or a generic `404 {"error":"not_found"}`. */
export function notFound(c: Collection, rule: string): TwinResponse {
  const nf = c.not_found;
  if (!nf) {
    return {
      status: 404,
      headers: { ...JSON_HEADERS },
      body: { kind: "json", value: { error: "not_found" } },
      served_by: "state",
      rule,
    };
  }
  return recordedAnswer(nf, "state", rule);
}

/** Position of the entity a path names (by id, inside its parent for nested collections), or -1. */
export function locate(
  c: Collection,
  list: Entity[],
  params: Record<string, string>,
  idParam: string,
): number {
  const id = params[idParam];
  if (id === undefined) return -1;
  const at = findEntityIndex(list, c.id_field, id);
  if (at < 0 || !c.parent) return at;
  const parentValue = params[c.parent.param];
  return parentValue === undefined || queryForm(list[at]![c.parent.field]) === parentValue ? at : -1;
}

/** Wraps an entity the way the collection's item answers do. */
export function wrapItem(c: Collection, entity: Entity): unknown {
  const copy = structuredClone(entity);
  return c.item_envelope.kind === "object" ? { [c.item_envelope.item_key]: copy } : copy;
}

/** Answers an item read: the wrapped entity, or the not-found answer. */
export function itemRead(
  c: Collection,
  list: Entity[],
  params: Record<string, string>,
  idParam: string,
  rule: string,
): TwinResponse {
  const at = locate(c, list, params, idParam);
  if (at < 0) return notFound(c, rule);
  return {
    status: 200,
    headers: { ...JSON_HEADERS },
    body: { kind: "json", value: wrapItem(c, list[at]!) },
    served_by: "state",
    rule,
  };
}
