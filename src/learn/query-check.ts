/**
 * Confirms the meaning of a list read's query against the simulated state at
 * the moment it was made: `?done=true` is a filter on `done` only if the
 * answer equals the state list filtered by `done == true`; `?limit&offset` is
 * pagination only if the answer is the slice. Anything else stays unconfirmed.
 */
import type { Entity } from "../model/model-schema.js";
import { snake } from "./value-kinds.js";

/** The parameter names treated as pagination when their values are non-negative integers. */
export const LIMIT_PARAMS = ["limit", "per_page", "page_size", "pageSize"];
export const OFFSET_PARAMS = ["offset", "skip", "start"];

/** The outcome of checking one query read: confirmed filters (param → field) and pagination, or not. */
export interface QueryOutcome {
  ok: boolean;
  filters: Record<string, string>;
  pagination: { limit_param: string; offset_param: string } | null;
  /** Filter params that left out at least one entity of the state (a filter that excludes nothing proves nothing). */
  excluded: string[];
  /** True when the page left out at least one matching entity (a page holding everything proves nothing). */
  cut: boolean;
}

function fieldCandidates(param: string, sample: Entity[]): string[] {
  const keys = new Set<string>();
  for (const e of sample) for (const k of Object.keys(e)) keys.add(k);
  return [...keys].filter((k) => k === param || snake(k) === snake(param)).sort();
}

/** True when a query value equals an entity value (`"true"` ~ true, `"3"` ~ 3, strings as is). */
export function queryEquals(entityValue: unknown, queryValue: string): boolean {
  if (entityValue === null || typeof entityValue === "object") return false;
  return String(entityValue) === queryValue;
}

/** Checks one list read with a query against `state` (the scope's entities in list order). */
export function checkQuery(
  query: [string, string][],
  state: Entity[],
  answer: Entity[],
  total: number | null,
  idField: string,
): QueryOutcome {
  const fail: QueryOutcome = { ok: false, filters: {}, pagination: null, excluded: [], cut: false };
  const names = query.map(([n]) => n);
  if (new Set(names).size !== names.length) return fail;
  const limitName = names.find((n) => LIMIT_PARAMS.includes(n));
  const offsetName = names.find((n) => OFFSET_PARAMS.includes(n));
  const get = (n: string | undefined) => (n === undefined ? undefined : query.find(([k]) => k === n)?.[1]);
  const limit = get(limitName);
  const offset = get(offsetName);
  if ((limit !== undefined && !/^\d+$/.test(limit)) || (offset !== undefined && !/^\d+$/.test(offset)))
    return fail;
  const filterParams = query.filter(([n]) => n !== limitName && n !== offsetName);
  const sample = [...state.slice(0, 50), ...answer.slice(0, 50)];
  const filters: Record<string, string> = {};
  const excluded: string[] = [];
  let filtered = state;
  for (const [param, value] of filterParams) {
    const field = fieldCandidates(param, sample).find((f) => answer.every((e) => queryEquals(e[f], value)));
    if (field === undefined) return fail;
    filters[param] = field;
    if (state.some((e) => !queryEquals(e[field], value))) excluded.push(param);
    filtered = filtered.filter((e) => queryEquals(e[field], value));
  }
  const start = offset === undefined ? 0 : Number(offset);
  const end = limit === undefined ? undefined : start + Number(limit);
  const expected = filtered.slice(start, end).map((e) => String(e[idField]));
  const got = answer.map((e) => String(e[idField]));
  if (expected.length !== got.length || expected.some((id, i) => id !== got[i])) return fail;
  if (total !== null && total !== filtered.length) return fail;
  const pagination =
    limitName !== undefined || offsetName !== undefined
      ? { limit_param: limitName ?? "limit", offset_param: offsetName ?? "offset" }
      : null;
  const cut = start > 0 || (end !== undefined && end < filtered.length);
  return { ok: true, filters, pagination, excluded, cut };
}
