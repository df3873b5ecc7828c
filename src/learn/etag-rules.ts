/**
 * Entity tags the app checks (issue 10 item 3): item reads that send an `ETag` header made of one entity field
 * (`"v3"` for `version: 3`), and writes refused (409, 412) when their `If-Match` names another tag than the entity
 * held. The tag's format is confirmed by every item read that sent one (two tags at least, so a constant is ruled
 * out, and exactly one field explaining them all); the refusal by every refused write with a stale `If-Match`
 * answering alike while every success sent the tag its entity held.
 */
import type { Collection, Entity, ValidationRule } from "../model/model-schema.js";
import { type FoundCollection, itemEntity } from "./collections.js";
import type { EndpointGroup, Observation } from "./endpoint-index.js";
import { canned } from "./read-model.js";
import type { RefusedWrite, WriteObservation } from "./state-walk.js";

export type EtagRule = NonNullable<Collection["etag"]>;

const CONFLICT = new Set([409, 412]);

/** The value of a header (any case) of a record's request or response, or undefined. */
function headerOf(headers: readonly { name: string; value: string }[] | undefined, name: string) {
  return headers?.find((h) => h.name.toLowerCase() === name)?.value;
}

/** Every (field, prefix, suffix) that builds `tag` from one top-level scalar field of `e`, as `field\0prefix\0suffix`. */
function formats(tag: string, e: Entity): Set<string> {
  const out = new Set<string>();
  for (const [k, v] of Object.entries(e)) {
    if (typeof v !== "string" && typeof v !== "number") continue;
    const s = String(v);
    if (s === "") continue;
    for (let at = tag.indexOf(s); at >= 0; at = tag.indexOf(s, at + 1))
      out.add(`${k}\u0000${tag.slice(0, at)}\u0000${tag.slice(at + s.length)}`);
  }
  return out;
}

/** The tag an entity has under a rule, or null when it lacks the field. */
export function etagOf(rule: EtagRule, e: Entity | null): string | null {
  const v = e?.[rule.field];
  return typeof v === "string" || typeof v === "number" ? `${rule.prefix}${v}${rule.suffix}` : null;
}

/**
 * The ETag rule of a collection: every successful item read that sent an `ETag` sent prefix + one field + suffix,
 * over two or more different tags, and exactly one such rule fits them all. Null otherwise (no header, a constant
 * tag, or two fields the recording does not tell apart).
 */
export function learnEtag(c: FoundCollection): EtagRule | null {
  if (!c.item) return null;
  let fits: Set<string> | null = null;
  const tags = new Set<string>();
  for (const o of c.item.observations) {
    if (o.status < 200 || o.status >= 300 || o.query.length > 0 || o.response.kind !== "json") continue;
    const tag = headerOf(o.record.response?.headers, "etag");
    const e = itemEntity(o.response.value, c.itemEnvelope);
    if (tag === undefined || !e) continue;
    tags.add(tag);
    const own = formats(tag, e);
    const kept: Set<string> = fits === null ? own : new Set([...fits].filter((f) => own.has(f)));
    if (kept.size === 0) return null;
    fits = kept;
  }
  if (fits === null || fits.size !== 1 || tags.size < 2) return null;
  const [field, prefix, suffix] = [...fits][0]!.split("\u0000") as [string, string, string];
  return { header: "etag", field, prefix, suffix };
}

/**
 * The rule refusing a write of `group` whose `If-Match` is stale: every refused write (409, 412) that sent one
 * named another tag than the entity it met held, all answered alike, and every success that sent one sent the tag
 * its entity held (at least one). Null otherwise.
 */
export function learnStaleIfMatch(
  group: EndpointGroup,
  rule: EtagRule,
  refused: ReadonlyMap<Observation, RefusedWrite>,
  writes: readonly WriteObservation[],
): ValidationRule | null {
  const sent = (o: Observation) => headerOf(o.record.request.headers, "if-match");
  const successes = writes.filter((w) => w.obs.endpoint === group && sent(w.obs) !== undefined);
  if (successes.length === 0 || !successes.every((w) => sent(w.obs) === etagOf(rule, w.pre))) return null;
  const stale = group.observations.filter((o) => {
    const met = refused.get(o);
    const tag = met ? etagOf(rule, met.pre) : null;
    return CONFLICT.has(o.status) && sent(o) !== undefined && tag !== null && sent(o) !== tag;
  });
  if (stale.length === 0) return null;
  const answers = stale.map(canned);
  if (new Set(answers.map((a) => JSON.stringify(a))).size > 1) return null;
  const at = stale.map((o) => `records[${o.index}]`).join(", ");
  return {
    tool_name: group.toolName,
    field: "If-Match",
    pointer: "",
    ...answers[0]!,
    kind: "stale",
    header: "if-match",
    explain: `${group.method} ${group.template} answers ${answers[0]!.status} with the recorded body when the request's If-Match names another tag than the entity's ETag (${rule.prefix}{${rule.field}}${rule.suffix}): a stale tag, where every successful request that sent one sent its entity's (recorded at ${at}).`,
  };
}
