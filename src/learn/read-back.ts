/**
 * Judges writes by a later read of their entity: confirmed when the read
 * shows the fields they set (or the entity gone, for a delete), disagrees
 * when it contradicts them. Apart from the walk because these rules change
 * on their own as more kinds of read-back are understood.
 */
import type { Entity, ItemEnvelope } from "../model/model-schema.js";
import type { Observation } from "./endpoint-index.js";
import type { WriteObservation } from "./state-walk.js";
import { isObject, readTime, sameTimeShape } from "./value-kinds.js";

/**
 * What a write should leave in its entity: the answer's fields, then the request body's where the answer is silent
 * (form values compared loosely). The answer says what the app stored: a request value it shows otherwise was
 * ignored or transformed by the app (a `done` a create forces to false), which the read-back then confirms or not.
 */
export function writeExpectations(
  o: Observation,
  answered: Entity | null,
  envelope: ItemEnvelope = { kind: "bare" },
  listNulls: readonly string[] = [],
): Map<string, { value: unknown; loose: boolean }> {
  const out = new Map<string, { value: unknown; loose: boolean }>();
  // An answer in the list's view gives null where lists do (`content` of a saved file): that null claims nothing.
  if (answered)
    for (const [k, v] of Object.entries(answered))
      if (!(v === null && listNulls.includes(k))) out.set(k, { value: v, loose: false });
  const sent = (k: string, value: unknown, loose: boolean) => {
    if (!out.has(k)) out.set(k, { value, loose });
  };
  if (o.request.kind === "form") for (const [k, v] of Object.entries(o.request.value)) sent(k, v, true);
  if (o.request.kind === "json" && isObject(o.request.value))
    for (const [k, v] of Object.entries(sentFields(o.request.value, envelope))) sent(k, v, false);
  return out;
}

/**
 * The fields a JSON request sends: its body, or, when the body is one object under the key the collection's item
 * answers wrap their entity in (`{"issue": {...}}` beside answers `{"issue": {...}}`), that object. The read-back
 * then confirms (or refutes) the unwrapped fields like any others.
 */
export function sentFields(body: Record<string, unknown>, envelope: ItemEnvelope): Record<string, unknown> {
  if (envelope.kind !== "object") return body;
  const keys = Object.keys(body);
  const inner = body[envelope.item_key];
  return keys.length === 1 && keys[0] === envelope.item_key && isObject(inner) ? inner : body;
}

function same(a: unknown, b: unknown, loose: boolean): boolean {
  if (loose && (typeof a !== "object" || a === null)) return String(a) === String(b);
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * True when a read's value agrees with what the write implied: equal, or, for objects, a view of it (every key the
 * read shows holds the implied value there: a read leaving out `guid.raw` the write answered still agrees).
 */
function agrees(read: unknown, implied: unknown, loose: boolean): boolean {
  if (isObject(read) && isObject(implied))
    return Object.entries(read).every(([k, v]) => Object.hasOwn(implied, k) && agrees(v, implied[k], loose));
  return same(read, implied, loose);
}

/**
 * The items of a sent array of scalars as text; null for anything else. A single id (`status_id: 5`) is left out on
 * purpose: setting one reference may change more than the object it names (an issue's `closed_on`), which no rule of
 * the twin follows, so such a write stays confirmed only by a field it set under its own name.
 */
function scalars(v: unknown): string[] | null {
  const one = (x: unknown) => typeof x === "string" || typeof x === "number";
  return Array.isArray(v) && v.every(one) ? v.map(String) : null;
}

/**
 * True when the read shows, at a field the write changed (other than `claimed` ones), exactly the entities sent key
 * `k` names: an array of objects whose values at one key are, in order, the scalars sent.
 */
function namesShown(w: WriteObservation, k: string, e: Entity, claimed: ReadonlySet<string>): boolean {
  const sent = scalars(w.expect.get(k)!.value);
  if (sent === null || sent.length === 0) return false;
  return Object.entries(e).some(([f, v]) => {
    if (claimed.has(f) || w.expect.has(f) || !w.pre || !(f in w.pre) || same(w.pre[f], v, false))
      return false;
    if (!Array.isArray(v) || v.length !== sent.length || !v.every(isObject)) return false;
    const items = v as unknown[];
    const first = items[0] as Record<string, unknown>;
    return Object.keys(first).some((key) =>
      items.every((x, i) => {
        const y = (x as Record<string, unknown>)[key];
        return (typeof y === "string" || typeof y === "number") && String(y) === sent[i];
      }),
    );
  });
}

/**
 * True when the write's request sends `k`: at the top level of a JSON or form body, or inside the one object a JSON
 * body wraps its fields in (`{"issue": {...}}`).
 */
function sends(w: WriteObservation, k: string): boolean {
  const r = w.obs.request;
  if (r.kind === "form") return Object.hasOwn(r.value, k);
  if (r.kind !== "json" || !isObject(r.value)) return false;
  if (Object.hasOwn(r.value, k)) return true;
  const keys = Object.keys(r.value);
  const inner = keys.length === 1 ? r.value[keys[0]!] : undefined;
  return isObject(inner) && Object.hasOwn(inner, k);
}

/**
 * True when field `k` is a clock the app stamps again on its own: the write did not send it, and what the write
 * answered and what the later read shows are both times of one layout (a `last_modified` a later save or a
 * checkpoint moved on). Such a field says nothing about whether the write took effect, so it neither confirms nor
 * refutes it; a time the request sent is still compared like any other value.
 */
export function restamped(w: WriteObservation, k: string, implied: unknown, read: unknown): boolean {
  if (sends(w, k)) return false;
  const a = readTime(implied);
  const b = readTime(read);
  return a !== null && b !== null && sameTimeShape(a, b);
}

/**
 * Sets the result of writes waiting on one entity, by a read that showed it (`e`) or showed it gone (null), latest
 * write first. `unshown` are the fields the read's view gives null whatever the entity holds (a list's
 * `list_view.nulls`: a Jupyter file's `content` in its folder's listing): a null there neither confirms nor refutes.
 */
export function judgeReadBack(
  list: WriteObservation[],
  e: Entity | null,
  idField: string,
  at: number | null = null,
  unshown: readonly string[] = [],
): void {
  const claimed = new Set<string>();
  let deletedLater = false;
  for (const w of [...list].reverse()) {
    if (w.target.kind === "delete") {
      deletedLater = true;
      w.result = e === null ? "confirmed" : "disagrees";
      w.mismatch = e === null ? null : idField;
      // The app kept the entity it deleted (a trash, a status): the read is noted for the hint, and the entity it
      // showed, for learning the delete as an update of what changed (write-rules.ts). What changed there is this
      // delete's doing: an earlier write is not judged by it.
      if (e !== null && at !== null) w.mismatchAt = at;
      if (e !== null) {
        w.keptAs = e;
        for (const k of Object.keys(e)) if (!w.pre || !same(w.pre[k], e[k], false)) claimed.add(k);
      }
      continue;
    }
    if (e === null) {
      // Gone after a later delete: this write's own effect can no longer be seen.
      if (!deletedLater) {
        w.result = "disagrees";
        w.mismatch = idField;
      }
      continue;
    }
    // An update is confirmed only by a field it changed: an unchanged id proves nothing.
    const changes = (k: string) =>
      w.target.kind === "create" || !w.pre || !(k in w.pre) || !same(w.pre[k], w.expect.get(k)!.value, false);
    const shown = (k: string) => k in e && !(e[k] === null && unshown.includes(k));
    const compared = [...w.expect.keys()].filter(
      (k) => !claimed.has(k) && shown(k) && changes(k) && !restamped(w, k, w.expect.get(k)!.value, e[k]),
    );
    const bad = compared.find((k) => !agrees(e[k], w.expect.get(k)!.value, w.expect.get(k)!.loose));
    // A sent array no key of the read shows may name the entities of one that does (`role_ids: [3, 5]` for
    // `roles: [{id: 3, …}, {id: 5, …}]`): a field the write changed to hold exactly what it sent, by one key.
    const referenced =
      bad === undefined && compared.length === 0 && w.target.kind !== "create"
        ? [...w.expect.keys()].filter((k) => !claimed.has(k) && !(k in e) && namesShown(w, k, e, claimed))
        : [];
    const laterClaims = new Set(claimed);
    for (const k of w.expect.keys()) claimed.add(k);
    if (bad !== undefined) {
      w.result = "disagrees";
      w.mismatch = bad;
      if (at !== null) w.mismatchAt = at;
    } else if (compared.length === 0 && referenced.length === 0 && w.target.kind !== "create") {
      // The read shows the entity, yet none of what the write sent changed there: noted for the hint (the recording
      // holds the read-back, and it did not confirm the write).
      if (w.shownAfter === undefined && at !== null) w.shownAfter = at;
    } else if (compared.length > 0 || referenced.length > 0 || w.target.kind === "create") {
      // A later write to the same entity already changed it: judge this one by its own answer.
      const superseded = laterClaims.size > 0;
      if (!superseded) {
        w.result = "confirmed";
        w.readBack = e;
      } else if (w.answered && idField in w.answered) {
        w.result = "confirmed";
        w.readBack = Object.fromEntries(
          Object.keys(e).map((k) => [k, k in w.answered! ? w.answered![k] : e[k]]),
        );
      }
    }
  }
}
