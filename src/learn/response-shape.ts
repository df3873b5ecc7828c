/**
 * Learns what a served write answers with, from every confirmed
 * observation: nothing, the entity itself, the entity under one key, or a
 * template of constants and entity fields (`{deleted: true, id}`). An answer
 * field that is neither makes the write withheld as `unexplained_field`.
 */
import type { Entity, WriteResponse } from "../model/model-schema.js";
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

function isEntityAnswer(body: unknown, entity: Entity): boolean {
  if (!isObject(body)) return false;
  const keys = Object.keys(body);
  return (
    keys.length === Object.keys(entity).length &&
    keys.every((k) => k in entity && json(body[k]) === json(entity[k]))
  );
}

/** The response rule, or the answer field no rule explains. */
export function learnResponse(
  cases: AnswerCase[],
): { ok: true; response: WriteResponse } | { ok: false; field: string; token?: TokenShape } {
  if (cases.every((c) => c.body === undefined)) return { ok: true, response: { kind: "empty" } };
  if (cases.every((c) => isEntityAnswer(c.body, c.entity))) return { ok: true, response: { kind: "entity" } };
  const first = cases[0]!.body;
  if (isObject(first) && Object.keys(first).length === 1) {
    const key = Object.keys(first)[0]!;
    if (
      cases.every(
        (c) => isObject(c.body) && Object.keys(c.body).length === 1 && isEntityAnswer(c.body[key], c.entity),
      )
    )
      return { ok: true, response: { kind: "wrapped", key } };
  }
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
