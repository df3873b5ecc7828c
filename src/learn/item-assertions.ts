/**
 * Item-read query parameters that assert a field of the entity (`GET /api/contents/notes.md?type=file` answers the
 * file as the plain read does; `?type=directory` answers 400 "notes.md is not a directory"). A hypothesis per
 * parameter and field, kept only when every recorded read with the parameter fits it:
 *
 * - every accepted (2xx) read answered the entity the plain item read would (the state at that moment, a field it
 *   held null being one a listing left out; the other parameters applied as their learned projection), and the
 *   entity's field (in that answer, or in the state when the projection nulled it) equalled the value sent;
 * - every refused (4xx, not a miss) read met an entity (the last item read of it before or after, nothing written
 *   between) whose field differed from the value, and the refusals of one value answered alike once the entity's id
 *   they spell is set apart (validation-rules.ts `spellingsOf`).
 *
 * At least one accepted read must be judged against an entity the state held. Several fields may fit (they agreed on
 * every recorded read); serve explains a request on which they disagree. A parameter whose every recorded value
 * equalled the field fits "no effect" as well: both predict the plain read where the entity's field equals the
 * value, and only a recorded refusal tells what a differing value answers, so serve answers that refusal for the
 * values it was recorded for and explains any other.
 */
import type { Collection, Entity, ItemEnvelope } from "../model/model-schema.js";
import { queryKey } from "../model/query-key.js";
import { isCredentialName } from "../util/credential-name.js";
import { itemEntity } from "./collections.js";
import type { Observation } from "./endpoint-index.js";
import { canned } from "./read-model.js";
import { spellingDecided, spellingsOf, withoutTexts } from "./validation-rules.js";

type Assertion = NonNullable<Collection["item_assertions"]>[number];
type Projection = NonNullable<Collection["item_projections"]>[number];

/** Statuses that are not about the query: a miss (the entity absent) or a credential (decision). */
const NOT_A_REFUSAL = new Set([401, 403, 404, 405, 410]);
const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

const ok = (o: Observation) => o.status >= 200 && o.status < 300;
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const scalar = (v: unknown): v is string | number | boolean =>
  typeof v === "string" || typeof v === "number" || typeof v === "boolean";

/** What the learner needs of the walk: its item reads with a query and the state each met, and the read order. */
export interface AssertionInputs {
  /** Per successful item read with a query: the entity the state held at that moment (null when none). */
  held: ReadonlyMap<Observation, Entity | null>;
  /** Every observation in the order the walk took them: a write between two reads may change the entity. */
  ordered: readonly Observation[];
  /** The collection's confirmed item projections: the meaning of the other parameters of a read. */
  projections: readonly Projection[];
  /** Further statuses the collection answers a miss with (a 403 confirmed to mean not found). */
  missStatuses?: readonly number[];
}

/** The nulls of the read's other parameters: none when it has none, a projection's, else null (not understood). */
function otherNulls(
  query: [string, string][],
  param: string,
  projections: readonly Projection[],
): string[] | null {
  const rest = query.filter(([k]) => k !== param);
  if (rest.length === 0) return [];
  return projections.find((p) => queryKey(p.query) === queryKey(rest))?.nulls ?? null;
}

/**
 * True when the answer is the entity the state held, with `nulls` null: the same keys, each as held, a key held
 * null (a listing leaves it out) may hold any value.
 */
function sameEntity(answer: Entity, held: Entity, nulls: readonly string[]): boolean {
  const keys = Object.keys(answer);
  if (keys.length !== Object.keys(held).length || !keys.every((k) => k in held)) return false;
  return keys.every((k) =>
    nulls.includes(k) ? answer[k] === null : held[k] === null || same(answer[k], held[k]),
  );
}

/** The entity's field as the read shows it: in its answer, else (a field the answer nulls) in the state. */
function shown(answer: Entity, held: Entity | null, field: string): unknown {
  const v = answer[field];
  return v === null || v === undefined ? held?.[field] : v;
}

/** The fields of an entity view whose scalar value spells `value`. */
function fieldsEqual(view: Entity, value: string): string[] {
  return Object.keys(view).filter((k) => scalar(view[k]) && String(view[k]) === value);
}

/**
 * The entity a refused read met: the item read of the same id nearest to it with no write between (its answer when
 * it sent no query, the state the walk held at it otherwise); null when none.
 */
function metEntity(
  refusal: Observation,
  reads: readonly Observation[],
  inputs: AssertionInputs,
  position: ReadonlyMap<Observation, number>,
  writes: readonly number[],
  envelope: ItemEnvelope,
): Entity | null {
  const at = position.get(refusal);
  if (at === undefined) return null;
  const id = refusal.pathParams["id"];
  let best: { d: number; e: Entity } | null = null;
  for (const o of reads) {
    const p = position.get(o);
    if (p === undefined || o === refusal || !ok(o) || o.pathParams["id"] !== id) continue;
    const [lo, hi] = p < at ? [p, at] : [at, p];
    if (writes.some((w) => w > lo && w < hi)) continue;
    const e =
      o.query.length === 0
        ? itemEntity(o.response.kind === "json" ? o.response.value : undefined, envelope)
        : (inputs.held.get(o) ?? null);
    const d = Math.abs(p - at);
    if (e && (!best || d < best.d)) best = { d, e };
  }
  return best?.e ?? null;
}

/** The assertions the item reads with a query confirm, by parameter, sorted; an empty list when none. */
export function learnItemAssertions(
  item: { observations: Observation[] },
  envelope: ItemEnvelope,
  inputs: AssertionInputs,
): Assertion[] {
  const position = new Map(inputs.ordered.map((o, i) => [o, i] as const));
  const writes = inputs.ordered.flatMap((o, i) =>
    !SAFE.has(o.method) && o.status >= 200 && o.status < 400 ? [i] : [],
  );
  const misses = new Set([...NOT_A_REFUSAL, ...(inputs.missStatuses ?? [])]);
  // A parameter a projection holds has that meaning already.
  const projected = new Set(inputs.projections.flatMap((p) => p.query.map(([k]) => k)));
  // A credential (`?token=`) is never a field's value the twin would hold or compare: it asserts nothing here.
  const params = [...new Set(item.observations.flatMap((o) => o.query.map(([k]) => k)))]
    .filter((k) => !projected.has(k) && !isCredentialName(k))
    .sort();
  const out: Assertion[] = [];
  for (const param of params) {
    const withIt = item.observations.filter((o) => o.query.some(([k]) => k === param));
    if (withIt.some((o) => o.query.filter(([k]) => k === param).length > 1)) continue;
    const sentValue = (o: Observation) => o.query.find(([k]) => k === param)![1];
    const accepted = withIt.filter((o) => ok(o) && inputs.held.has(o));
    const refused = withIt.filter((o) => o.status >= 400 && o.status < 500 && !misses.has(o.status));
    // A read answered otherwise (a redirect, a 5xx, a success the walk did not take) is not explained here.
    if (
      accepted.length === 0 ||
      accepted.length + refused.length + withIt.filter((o) => misses.has(o.status)).length !== withIt.length
    )
      continue;
    let fields: string[] | null = null;
    let judged = 0;
    for (const o of accepted) {
      const nulls = otherNulls(o.query, param, inputs.projections);
      const answer = itemEntity(o.response.kind === "json" ? o.response.value : undefined, envelope);
      const held = inputs.held.get(o) ?? null;
      if (nulls === null || !answer || (held && !sameEntity(answer, held, nulls))) {
        fields = [];
        break;
      }
      if (held) judged++;
      const view = Object.fromEntries(Object.keys(answer).map((k) => [k, shown(answer, held, k)]));
      const fit = fieldsEqual(view, sentValue(o));
      fields = fields === null ? fit : fields.filter((f) => fit.includes(f));
      if (fields.length === 0) break;
    }
    if (!fields || fields.length === 0 || judged === 0) continue;
    // Each refusal met an entity whose fields all differ from the value; those of one value answered alike.
    const byValue = new Map<string, { o: Observation; spell: ReturnType<typeof spellingsOf> }[]>();
    let refutes = false;
    for (const o of refused) {
      const met =
        otherNulls(o.query, param, inputs.projections) === null
          ? null
          : metEntity(o, item.observations, inputs, position, writes, envelope);
      const value = sentValue(o);
      if (!met) {
        refutes = true;
        break;
      }
      fields = fields.filter((f) => scalar(met[f]) && String(met[f]) !== value);
      if (fields.length === 0) break;
      const own = o.pathParams["id"] ?? null;
      const body = canned(o).body;
      const list = byValue.get(value) ?? [];
      list.push({ o, spell: spellingsOf(body, "", own) });
      byValue.set(value, list);
    }
    if (refutes || fields.length === 0) continue;
    const refusals: Assertion["refusals"] = [];
    for (const [value, list] of [...byValue].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const first = list[0]!;
      const a = canned(first.o);
      const alike = list.every(({ o, spell }) => {
        const b = canned(o);
        return (
          b.status === a.status &&
          b.content_type === a.content_type &&
          same(spell, first.spell) &&
          same(withoutTexts(b.body, spell), withoutTexts(a.body, first.spell))
        );
      });
      if (!alike) {
        refutes = true;
        break;
      }
      const decided = spellingDecided(
        list.map(({ o }) => o.pathParams["id"] ?? ""),
        first.spell,
        "own_id",
      );
      refusals.push({ value, ...a, ...(first.spell.length > 0 && decided ? { spell: first.spell } : {}) });
    }
    if (refutes) continue;
    fields.sort();
    const values = [...new Set(accepted.map(sentValue))].sort();
    const names = fields.map((f) => `"${f}"`).join(" or ");
    const taught =
      refusals.length === 0
        ? "no refusal was recorded, so a value other than the entity's is an explained miss (no effect fits the recording as well)"
        : `a value other than the entity's answers the refusal recorded for it (${refusals.map((r) => `${param}=${r.value} → ${r.status}`).join(", ")}), any other value an explained miss`;
    out.push({
      param,
      fields,
      values,
      refusals,
      explain: `?${param}= asserts the entity's ${names}: ${accepted.length} recorded read${accepted.length === 1 ? "" : "s"} (${values.map((v) => `${param}=${v}`).join(", ")}) answered the entity as the item read does where it equalled the value${refused.length > 0 ? `, ${refused.length} refused where it differed` : ""}; ${taught}`,
    });
  }
  return out;
}

/** Per collection name, the parameters a walk's reads confirmed as assertions, each with the fields it asserts. */
export type AssertedParams = ReadonlyMap<string, ReadonlyMap<string, readonly string[]>>;

/** The parameters of confirmed assertions, by parameter name, with the fields each asserts. */
export function assertedParams(assertions: readonly Assertion[]): Map<string, readonly string[]> {
  return new Map(assertions.map((a) => [a.param, a.fields]));
}

/**
 * True when an item read's every parameter (each sent once) is a confirmed assertion, and each asserted field equals
 * the value sent both in the entity the state held (the assertion judged against what the recording showed before,
 * not against the answer itself) and in the answer: by the learned rule, the app answered it as the plain item read,
 * so the walk takes it in as one (a folder's children it shows are its whole list; `state-walk.ts`). Not where a
 * parameter has any other meaning (a projection, an expansion), nor where the state held no entity or held the
 * field null (a listing left it out: `?format=base64` confirmed only against its own answer may be an encoding).
 */
export function answersAsPlainRead(
  asserted: ReadonlyMap<string, readonly string[]> | undefined,
  query: readonly [string, string][],
  answer: Entity | null,
  held: Entity | null,
): boolean {
  if (!asserted || !answer || !held || query.length === 0) return false;
  if (new Set(query.map(([k]) => k)).size !== query.length) return false;
  const equals = (e: Entity, f: string, v: string) => scalar(e[f]) && String(e[f]) === v;
  return query.every(([k, v]) => {
    const fields = asserted.get(k);
    return (
      fields !== undefined &&
      fields.length > 0 &&
      fields.every((f) => equals(answer, f, v) && equals(held, f, v))
    );
  });
}
