/**
 * Learns what a served write answers with, from every confirmed
 * observation: nothing, a view of the entity (all of it, or without what the
 * answer never shows: a create answering only `{id}`), the entity alone in an
 * array (`[row]`), the entity under one key with fixed siblings (`{deleted: true, previous: {...}}`, `{data: {...},
 * meta}`), or a template of constants and entity fields (`{deleted: true,
 * id}`). An answer field that is none of these makes the write withheld as
 * `unexplained_field`.
 */
import type { Entity, WriteResponse } from "../model/model-schema.js";
import { missingPointers } from "../util/entity-view.js";
import { readPointer } from "../util/json-pointer.js";
import { isObject, looksRandom, type TokenShape, tokenShape } from "./value-kinds.js";

/** One observation's answer and the entity it is about. */
export interface AnswerCase {
  /** The parsed answer body, or undefined when there was none. */
  body: unknown;
  entity: Entity;
  /** The request body (parsed JSON object or form), or null. */
  request?: Record<string, unknown> | null;
}

const json = (v: unknown) => JSON.stringify(v);

/** True when every key of `body` holds the entity's value there (objects compared key by key: a view of it). */
function isViewOf(body: unknown, entity: unknown): boolean {
  if (!isObject(body) || !isObject(entity)) return json(body) === json(entity);
  return Object.entries(body).every(([k, v]) => Object.hasOwn(entity, k) && isViewOf(v, entity[k]));
}

/**
 * The pointers every answer leaves out of its entity, when each answer is a view of its entity and none shows a
 * pointer another leaves out; null otherwise.
 */
function commonView(bodies: unknown[], entities: Entity[]): string[] | null {
  if (!bodies.every((b, i) => isObject(b) && isViewOf(b, entities[i]))) return null;
  const omit = [...new Set(bodies.flatMap((b, i) => missingPointers(entities[i], b)))].sort();
  return bodies.every((b) => omit.every((p) => readPointer(b, p) === undefined)) ? omit : null;
}

const withOmit = (omit: string[]) => (omit.length > 0 ? { omit } : {});

/** The answer under one key of a fixed body (`{deleted: true, previous: <entity>}`), or null. */
function keyedView(cases: AnswerCase[]): WriteResponse | null {
  const first = cases[0]!.body;
  if (!isObject(first)) return null;
  for (const key of Object.keys(first)) {
    if (!cases.every((c) => isObject(c.body) && Object.hasOwn(c.body, key))) continue;
    const omit = commonView(
      cases.map((c) => (c.body as Entity)[key]),
      cases.map((c) => c.entity),
    );
    if (omit === null) continue;
    const keys = Object.keys(first);
    const fixed = keys.every(
      (k) =>
        k === key ||
        cases.every(
          (c) =>
            isObject(c.body) &&
            Object.keys(c.body).length === keys.length &&
            json(c.body[k]) === json(first[k]) &&
            !looksRandom(first[k]),
        ),
    );
    if (!fixed) continue;
    if (keys.length === 1) return { kind: "wrapped", key, ...withOmit(omit) };
    const body = Object.fromEntries(keys.map((k) => [k, k === key ? null : first[k]]));
    return { kind: "template", body, fields: [], entity_key: key, ...withOmit(omit) };
  }
  return null;
}

/** True for a JSON scalar (a number, a string, a boolean, null). */
function isScalar(v: unknown): boolean {
  return v === null || ["number", "string", "boolean"].includes(typeof v);
}

/** True for an array holding exactly one object (the one row a write answers with). */
export function oneRow(body: unknown): body is [Entity] {
  return Array.isArray(body) && body.length === 1 && isObject(body[0]);
}

/** The response rule, or the answer field no rule explains. */
export function learnResponse(
  cases: AnswerCase[],
): { ok: true; response: WriteResponse } | { ok: false; field: string; token?: TokenShape } {
  if (cases.every((c) => c.body === undefined)) return { ok: true, response: { kind: "empty" } };
  // A database over HTTP answers the row it wrote in an array (`[row]`): a view of the entity, one element each time.
  if (cases.every((c) => oneRow(c.body))) {
    const rows = commonView(
      cases.map((c) => (c.body as unknown[])[0]),
      cases.map((c) => c.entity),
    );
    if (rows !== null) return { ok: true, response: { kind: "rows", ...withOmit(rows) } };
  }
  const omit = commonView(
    cases.map((c) => c.body),
    cases.map((c) => c.entity),
  );
  if (omit !== null) return { ok: true, response: { kind: "entity", ...withOmit(omit) } };
  const keyed = keyedView(cases);
  if (keyed) return { ok: true, response: keyed };
  // One scalar every answer gave alike (a spreadsheet API's delete answering `1`): a fixed body of its own; never
  // one a field of the entity holds (the new id a create answers is a copy of it, which one answer cannot tell).
  const first = cases[0]!.body;
  if (
    isScalar(first) &&
    !looksRandom(first) &&
    cases.every(
      (c) =>
        c.body !== undefined &&
        json(c.body) === json(first) &&
        !Object.values(c.entity).some((v) => json(v) === json(first)),
    )
  )
    return { ok: true, response: { kind: "template", body: first, fields: [] } };
  if (!cases.every((c) => isObject(c.body))) return { ok: false, field: "" };
  const keys = new Set<string>();
  for (const c of cases) for (const k of Object.keys(c.body as Entity)) keys.add(k);
  const body: Record<string, unknown> = {};
  const fields: string[] = [];
  for (const k of keys) {
    const values = cases.map((c) => (c.body as Entity)[k]);
    if (cases.every((c, i) => k in c.entity && json(values[i]) === json(c.entity[k]))) fields.push(k);
    else if (
      values.every((v) => json(v) === json(values[0])) &&
      !looksRandom(values[0]) &&
      values[0] !== undefined
    )
      body[k] = values[0];
    else return { ok: false, field: k, ...answerToken(k, values, cases) };
  }
  return { ok: true, response: { kind: "template", body, fields } };
}

/** The token shape of an answer key no read shows and no request sent (an etag), when its values are random tokens. */
function answerToken(k: string, values: unknown[], cases: AnswerCase[]): { token?: TokenShape } {
  if (cases.some((c) => k in c.entity)) return {};
  const token = tokenShape(values);
  const sent = cases.some((c, i) => JSON.stringify(c.request ?? null).includes(JSON.stringify(values[i])));
  return token && !sent ? { token } : {};
}
