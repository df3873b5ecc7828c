/**
 * Replays older than the state a fresh twin starts from (issue 17 item 5): a fresh episode starts from the end of
 * the training, so a recorded read whose answer shows an entity that a later recorded write deleted, or changed in a
 * field the answer shows (or the walk saw gone by the end), was out of date from the start. Such reads are not replayed: a later recorded answer of
 * the same request (one after those writes) is answered instead, and with none the request is left unrecorded, the
 * twin's explained miss, never the out-of-date answer.
 */
import type { Entity } from "../model/model-schema.js";
import { readPointer } from "../util/json-pointer.js";
import { type FoundCollection, itemEntity, listEntities } from "./collections.js";
import type { FoundEmbed } from "./embedded-reads.js";
import type { Observation } from "./endpoint-index.js";
import type { WriteObservation } from "./state-walk.js";
import { isObject } from "./value-kinds.js";

/** An entity a read's answer shows: its collection, its id, and the object shown (null when only its id is known). */
export interface ShownEntity {
  collection: string;
  id: string;
  shown: Entity | null;
}

/**
 * The entities a read's answer shows: its own collection's (a list read's entities, an item read's entity) and
 * those of other collections its answer embeds (`embedded-reads.ts`) but exactly as the state held them (a confirmed
 * embed, which serve rebuilds from the state).
 */
export function shownEntities(
  o: Observation,
  found: readonly FoundCollection[],
  embeds: readonly FoundEmbed[],
): ShownEntity[] {
  const body = o.response.kind === "json" ? o.response.value : undefined;
  if (body === undefined || o.status < 200 || o.status >= 300) return [];
  const out: ShownEntity[] = [];
  const add = (collection: string, idField: string, e: unknown) => {
    const v = isObject(e) ? e[idField] : undefined;
    if (typeof v === "string" || typeof v === "number")
      out.push({ collection, id: String(v), shown: e as Entity });
  };
  for (const c of found) {
    if (o.endpoint === c.list) {
      const listed = listEntities(body, c.envelope.kind === "object" ? c.envelope.items_key : null);
      for (const e of listed?.entities ?? []) add(c.name, c.idField, e);
    } else if (c.item && o.endpoint === c.item) add(c.name, c.idField, itemEntity(body, c.itemEnvelope));
  }
  // An embed that held exactly what the state held is rebuilt from the state (embedded-reads.ts): not judged here.
  for (const em of embeds) {
    if (em.exact) continue;
    const at = readPointer(body, em.pointer);
    if (em.kind === "entity" && em.id !== undefined)
      out.push({ collection: em.collection, id: em.id, shown: isObject(at) ? (at as Entity) : null });
    if (em.kind === "list")
      for (const [i, id] of (em.ids ?? []).entries()) {
        const e = Array.isArray(at) ? at[i] : undefined;
        out.push({ collection: em.collection, id, shown: isObject(e) ? (e as Entity) : null });
      }
  }
  return out;
}

/** True when the write deleted the entity, or sets a field the answer shows it holding another value. */
function changes(w: WriteObservation, e: ShownEntity): boolean {
  if (w.target.collection.name !== e.collection || w.id !== e.id) return false;
  if (w.target.kind === "delete") return true;
  if (w.target.kind === "create" || e.shown === null) return false;
  for (const [k, { value }] of w.expect)
    if (k in e.shown && JSON.stringify(e.shown[k]) !== JSON.stringify(value)) return true;
  return false;
}

/** Why a read is out of date: the entity it shows and the later recorded write that changed it (null: gone by the end). */
export interface StaleReason {
  collection: string;
  id: string;
  write: Observation | null;
}

/**
 * The reads out of date from the start: each shows an entity a write recorded after it changed (deleted, or set a
 * field it shows to another value), or one the walk held and saw gone by the end (`goneAtEnd`: a delete of its
 * parent, a later 404, a full list leaving it out), which a fresh twin does not hold. `at` gives each observation's
 * place in time order. Each with the first entity that made it so.
 */
export function staleReads(
  reads: readonly Observation[],
  shown: (o: Observation) => ShownEntity[],
  writes: readonly WriteObservation[],
  at: ReadonlyMap<Observation, number>,
  goneAtEnd: (collection: string, id: string) => boolean = () => false,
): Map<Observation, StaleReason> {
  const out = new Map<Observation, StaleReason>();
  const byEntity = new Map<string, WriteObservation[]>();
  for (const w of writes) {
    if (w.id === null) continue;
    const key = `${w.target.collection.name}\u0000${w.id}`;
    const list = byEntity.get(key);
    if (list) list.push(w);
    else byEntity.set(key, [w]);
  }
  for (const o of reads) {
    const when = at.get(o) ?? -1;
    for (const e of shown(o)) {
      const w = (byEntity.get(`${e.collection}\u0000${e.id}`) ?? []).find(
        (w) => (at.get(w.obs) ?? -1) > when && changes(w, e),
      );
      if (w || goneAtEnd(e.collection, e.id)) {
        out.set(o, { collection: e.collection, id: e.id, write: w?.obs ?? null });
        break;
      }
    }
  }
  return out;
}
