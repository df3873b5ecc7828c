/**
 * An item read whose query holds parameters learned as assertions on a field of the entity (src/learn/
 * item-assertions.ts, `?type=file`): where the entity's field equals the value, the item read without them (its other
 * parameters a learned projection); where it differs, the refusal recorded for that value, its texts spelling the
 * entity's id where the recorded one spelled its own. What the recording never showed (no refusal for the value, a
 * field the state does not hold, fields that fit alike in the recording but disagree here) is undecided: the caller
 * answers the exact recorded request or explains.
 */
import type { Collection } from "../../model/model-schema.js";
import { queryKey } from "../../model/query-key.js";
import { itemRead, locate } from "./collection-read.js";
import type { CollectionState } from "./collection-state.js";
import { recordedAnswer } from "./recorded-answer.js";
import type { TwinResponse } from "./twin-types.js";
import { spell } from "./validate-request.js";

type Assertion = NonNullable<Collection["item_assertions"]>[number];

/** The answer, or the parameter the state cannot decide and why; null when the query holds no assertion. */
export type AssertedRead = { answer: TwinResponse } | { undecided: string; why: string } | null;

const scalar = (v: unknown): v is string | number | boolean =>
  typeof v === "string" || typeof v === "number" || typeof v === "boolean";

/** Whether the entity's fields equal the value: true, false, or why the state cannot tell. */
function holds(a: Assertion, entity: Record<string, unknown>, value: string): boolean | string {
  const unknown = a.fields.filter((f) => !scalar(entity[f]));
  if (unknown.length > 0)
    return `the twin holds no value of ${unknown.map((f) => `"${f}"`).join(", ")} for this entity (null, or never shown), which "${a.param}" asserts`;
  const eq = a.fields.map((f) => String(entity[f]) === value);
  if (eq.every(Boolean)) return true;
  if (!eq.some(Boolean)) return false;
  return `"${a.param}" asserted ${a.fields.map((f) => `"${f}"`).join(" or ")} alike in every recorded read, and they disagree on this entity`;
}

/** The item read of a query with assertion parameters, from the state (see the module doc). */
export function assertedRead(
  c: Collection,
  list: CollectionState,
  params: Record<string, string>,
  idParam: string,
  query: [string, string][],
  tool: string,
): AssertedRead {
  const byParam = new Map((c.item_assertions ?? []).map((a) => [a.param, a]));
  const asserted = query.filter(([k]) => byParam.has(k));
  if (asserted.length === 0 || new Set(asserted.map(([k]) => k)).size < asserted.length) return null;
  const rest = query.filter(([k]) => !byParam.has(k));
  const nulls =
    rest.length === 0 ? [] : c.item_projections?.find((p) => queryKey(p.query) === queryKey(rest))?.nulls;
  if (!nulls) return null;
  const found = locate(c, list, params, idParam);
  // An id the state does not hold: the item read's own answer (the not-found, or why it is unknown).
  if (!found) return { answer: itemRead(c, list, params, idParam, tool) };
  const failed: { a: Assertion; value: string }[] = [];
  for (const [k, value] of [...asserted].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const a = byParam.get(k)!;
    const h = holds(a, found, value);
    if (typeof h === "string") return { undecided: k, why: h };
    if (!h) failed.push({ a, value });
  }
  if (failed.length === 0) return { answer: itemRead(c, list, params, idParam, tool, nulls) };
  if (failed.length > 1)
    return {
      undecided: failed[0]!.a.param,
      why: `the entity differs from ${failed.map((f) => `"${f.a.param}"`).join(" and ")}, and the recording never showed which refusal the app answers then`,
    };
  const { a, value } = failed[0]!;
  const refusal = a.refusals.find((r) => r.value === value);
  if (!refusal)
    return {
      undecided: a.param,
      why: `the entity's ${a.fields.map((f) => `"${f}"`).join(" or ")} differs from ${JSON.stringify(value)}, and the recording never showed what the app answers to "${a.param}" then${a.refusals.length > 0 ? ` (only to ${a.refusals.map((r) => JSON.stringify(r.value)).join(", ")})` : ""}`,
    };
  const res = recordedAnswer(refusal, "validation", tool);
  if (refusal.spell?.length) spell(res, refusal.spell, value, params[idParam]);
  return { answer: res };
}
