/**
 * A replayed answer that embeds entities of a collection (model `replays[].embeds`), once the episode changed that
 * collection (an embedded entity: once it changed): the recorded answer is no longer the app's. A confirmed embed is rebuilt from the episode's state
 * (the entity's fields the answer showed, the whole list in the collection's order); an unconfirmed one (or one
 * the state cannot rebuild: the entity was deleted, a new entity lacks fields only the answer held) makes the
 * replay stale: an explained miss naming the change and the write that made it, never the out-of-date answer.
 */
import type { Model, Replay, ReplayEmbed, WriteRule } from "../../model/model-schema.js";
import { sortEntities } from "../../model/query-language.js";
import { pathOfPointer } from "../../util/json-pointer.js";
import { episodeChanges } from "./diff-state.js";
import { explainedAnswer } from "./explain-miss.js";
import type { Episode, StateChange, TwinResponse } from "./twin-types.js";

type Json = Record<string, unknown>;

const WRITE_KIND: Record<StateChange["kind"], WriteRule["kind"][]> = {
  created: ["create"],
  updated: ["replace", "merge"],
  deleted: ["delete"],
};

/** The key an embed is changed by: its entity's for one entity, its collection's for a list or a count. */
const changeKey = (collection: string, id: string | null) => JSON.stringify([collection, id]);

/**
 * The first change the episode made to what each embed shows: for an entity embed, a change of that entity; for a
 * list or a count, any change of its collection. Keyed by `changeKey`.
 */
function firstChanges(episode: Episode, embeds: readonly ReplayEmbed[]): Map<string, StateChange> {
  const names = new Set(embeds.map((e) => e.collection));
  const out = new Map<string, StateChange>();
  for (const ch of episodeChanges(episode.state)) {
    if (!names.has(ch.collection)) continue;
    for (const key of [changeKey(ch.collection, null), changeKey(ch.collection, ch.id)])
      if (!out.has(key)) out.set(key, ch);
  }
  return out;
}

const changeOf = (changed: Map<string, StateChange>, em: ReplayEmbed) =>
  changed.get(changeKey(em.collection, em.kind === "entity" ? (em.id ?? "") : null));

/** The parent of the node at `pointer` and its key, or null when the body does not hold it. */
function slotAt(body: unknown, pointer: string): { parent: Json | unknown[]; key: string } | null {
  const path = pathOfPointer(pointer);
  let node: unknown = body;
  for (const seg of path.slice(0, -1)) {
    if (node === null || typeof node !== "object") return null;
    node = (node as Json)[seg];
  }
  const key = path[path.length - 1];
  return key !== undefined && node !== null && typeof node === "object"
    ? { parent: node as Json, key }
    : null;
}

/** `base` with the shown keys taken from `e` (a key `e` lacks is dropped). */
function overlay(base: Json, e: Json, keys: readonly string[]): Json {
  const out: Json = { ...base };
  for (const k of keys) {
    if (k in e) out[k] = e[k];
    else delete out[k];
  }
  return out;
}

/** The embed rebuilt from the episode's state, or null when the state cannot (deleted entity, unknown fields). */
function rebuilt(model: Model, episode: Episode, em: ReplayEmbed, recorded: unknown): unknown {
  const c = model.collections.find((x) => x.name === em.collection);
  const state = episode.state.collection(em.collection);
  const keys = em.keys ?? [];
  if (em.kind === "entity") {
    const e = state.get(em.id ?? "");
    return e && recorded !== null && typeof recorded === "object" ? overlay(recorded as Json, e, keys) : null;
  }
  // A default filter hides entities the state holds: the whole list is not simply the state's.
  if (em.kind !== "list" || !c || !Array.isArray(recorded) || (c.query?.default_filter.length ?? 0) > 0)
    return null;
  const idField = c.id_field;
  const before = new Map(recorded.map((x) => [String((x as Json)[idField]), x as Json]));
  const extra = recorded.some((x) => Object.keys(x as Json).some((k) => !keys.includes(k)));
  let rows = [...state.values()];
  if (c.list_order.kind === "field")
    rows = sortEntities(rows, [{ field: c.list_order.field, direction: c.list_order.direction }]);
  const out: Json[] = [];
  for (const e of rows) {
    const was = before.get(String(e[idField]));
    if (!was && extra) return null;
    out.push(overlay(was ?? {}, e, keys));
  }
  return out;
}

/** The 409 explaining a replay the episode's writes made out of date. */
function stale(replay: Replay, em: ReplayEmbed, ch: StateChange, model: Model): TwinResponse {
  const asked = `${replay.method} ${replay.path_and_query}`;
  const writes = model.write_rules
    .filter((w) => w.collection === em.collection && WRITE_KIND[ch.kind].includes(w.kind))
    .map((w) => w.tool_name)
    .sort();
  const by = writes.length > 0 ? ` (by ${writes.join(" or ")})` : "";
  return explainedAnswer(
    409,
    {
      error: "stale_replay",
      message: `${asked} is answered from the recording, and its recorded answer embeds ${em.collection}; this episode has since ${ch.kind} ${em.collection} ${ch.id}${by}, so the recorded answer is out of date and apptwin does not send it.`,
      request: asked,
      collection: em.collection,
      change: { kind: ch.kind, id: ch.id },
      writes,
      why: em.explain,
      hint: `Record ${asked} again after such a write (so its answer follows the state through a change), then rebuild the bundle.`,
    },
    "miss",
    replay.tool_name,
  );
}

/**
 * The answer to a replay given the episode's changes: the recorded one while nothing it embeds changed, rebuilt
 * from state where every changed embed is confirmed, else the stale miss.
 */
export function embeddedAnswer(
  model: Model,
  episode: Episode,
  replay: Replay,
  answer: TwinResponse,
): TwinResponse {
  const embeds = replay.embeds ?? [];
  if (embeds.length === 0) return answer;
  const changed = firstChanges(episode, embeds);
  if (changed.size === 0) return answer;
  const hit = embeds.filter((e) => changeOf(changed, e) !== undefined);
  if (hit.length === 0) return answer;
  const unconfirmed = hit.find((e) => !e.confirmed);
  if (unconfirmed) return stale(replay, unconfirmed, changeOf(changed, unconfirmed)!, model);
  if (answer.body?.kind !== "json") return answer;
  let value = answer.body.value;
  for (const em of hit) {
    const slot = em.pointer === "" ? null : slotAt(value, em.pointer);
    const recorded = em.pointer === "" ? value : slot ? (slot.parent as Json)[slot.key] : undefined;
    const next = rebuilt(model, episode, em, recorded);
    if (next === null) return stale(replay, em, changeOf(changed, em)!, model);
    if (em.pointer === "") value = next;
    else (slot!.parent as Json)[slot!.key] = next;
  }
  return { ...answer, body: { kind: "json", value }, served_by: "state" };
}
