/**
 * Replayed reads whose answers embed entities of a collection (a dashboard listing recent items, a config
 * document holding a project, a count): found by structure against the state the walk had simulated at that
 * moment, never by a name. An embed is *confirmed* when every recorded answer of the replay held it exactly as
 * the state held it then — an entity (by its id, in the fields the answer shows; an object is taken for an entity
 * when it holds a known id and at least two other of its fields, most of the shared ones agreeing), or a
 * collection's whole list
 * (in order) that followed the state through a change (two answers listing different entities: one full list
 * matching by chance proves nothing). Serve rebuilds confirmed embeds from the episode's state; an unconfirmed
 * one makes the replay stale after a write to its collection (an explained miss, never an answer known to be out
 * of date). A count recorded with one value only (a count read needs two to be confirmed) is unconfirmed.
 */
import { countOf } from "../model/count-read.js";
import type { Entity, ReplayEmbed } from "../model/model-schema.js";
import { appendTo } from "../util/append-to.js";
import { escapePointerToken as escapePointer } from "../util/json-pointer.js";

/** What the walk knew of one collection when a read was answered. */
export interface EmbedSource {
  name: string;
  idField: string;
  entities: ReadonlyMap<string, Entity>;
  /** The collection's whole top-level list in order, when a full list was seen; null otherwise. */
  full: () => Entity[] | null;
}

/** One embed found in one recorded answer. */
export interface FoundEmbed {
  collection: string;
  pointer: string;
  kind: ReplayEmbed["kind"];
  id?: string;
  ids?: string[];
  keys: string[];
  /** The answer holds exactly what the state held (entity fields shown, the whole list in order). */
  exact: boolean;
}

/** Nodes of one answer walked at most, and how deep. */
const MAX_NODES = 5000;
const MAX_DEPTH = 8;

function same(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/**
 * The entity of a collection an object is, when it holds a known entity's id in the collection's id field and
 * at least two of its keys, most of what it shows being that entity's fields; the collection sharing most keys.
 */
function entityOf(value: Record<string, unknown>, sources: readonly EmbedSource[]): FoundEmbed | null {
  let best: FoundEmbed | null = null;
  const keys = Object.keys(value);
  for (const s of sources) {
    const v = value[s.idField];
    if (typeof v !== "string" && typeof v !== "number") continue;
    const e = s.entities.get(String(v));
    if (!e) continue;
    const shared = keys.filter((k) => k in e);
    if (shared.length < 2 || shared.length * 2 < keys.length) continue;
    if (best && best.keys.length >= shared.length) continue;
    // Another entity with the same id (a version beside issue 1) agrees with it in few fields: most must agree.
    const others = shared.filter((k) => k !== s.idField);
    const agree = others.filter((k) => same(value[k], e[k])).length;
    if (agree < 2 || agree * 2 < others.length) continue;
    const exact = agree === others.length;
    best = { collection: s.name, pointer: "", kind: "entity", id: String(v), keys: shared, exact };
  }
  return best;
}

/** Every embed of an answer body: entities, arrays of one collection's entities, and a count of a whole list. */
export function findEmbeds(body: unknown, sources: readonly EmbedSource[], hasQuery: boolean): FoundEmbed[] {
  const out: FoundEmbed[] = [];
  const count = countOf(body);
  if (count !== null && !hasQuery) {
    for (const s of sources) {
      const full = s.full();
      if (full && full.length === count.n) {
        const pointer = count.key === null ? "" : `/${escapePointer(count.key)}`;
        out.push({ collection: s.name, pointer, kind: "count", keys: [], exact: false });
      }
    }
    return out;
  }
  let nodes = 0;
  const visit = (v: unknown, pointer: string, depth: number): FoundEmbed | null => {
    if (++nodes > MAX_NODES || depth > MAX_DEPTH) return null;
    if (Array.isArray(v)) {
      const found = v.map((x, i) => visit(x, `${pointer}/${i}`, depth + 1));
      const first = found[0];
      if (first?.kind !== "entity" || !found.every((f) => f?.collection === first.collection)) {
        for (const f of found) if (f) out.push(f);
        return null;
      }
      const ids = found.map((f) => f!.id!);
      const keys = first.keys.filter((k) => found.every((f) => f!.keys.includes(k)));
      const source = sources.find((s) => s.name === first.collection)!;
      const full = source.full();
      const exact =
        found.every((f) => f!.exact) &&
        full !== null &&
        same(
          ids,
          full.map((e) => String(e[source.idField])),
        );
      out.push({ collection: first.collection, pointer, kind: "list", ids, keys, exact });
      return null;
    }
    if (!isObject(v)) return null;
    const self = entityOf(v, sources);
    if (self) return { ...self, pointer };
    for (const [k, x] of Object.entries(v)) {
      const f = visit(x, `${pointer}/${escapePointer(k)}`, depth + 1);
      if (f) out.push(f);
    }
    return null;
  };
  const top = visit(body, "", 0);
  if (top) out.push(top);
  return out;
}

/** An embed's identity across the answers of one replay. */
function embedKey(f: FoundEmbed): string {
  return JSON.stringify([f.collection, f.kind, f.pointer, f.kind === "entity" ? f.id : null]);
}

/**
 * The embeds of one replay from those found in each of its JSON answers (in order, one list per answer): sorted by
 * collection, pointer. Confirmed when every answer held it exactly (a list: also two answers listing different
 * entities).
 */
export function replayEmbeds(answers: readonly FoundEmbed[][], what: string): ReplayEmbed[] {
  const byKey = new Map<string, FoundEmbed[]>();
  for (const found of answers) for (const f of found) appendTo(byKey, embedKey(f), f);
  const out: ReplayEmbed[] = [];
  for (const seen of byKey.values()) {
    const f = seen[seen.length - 1]!;
    const everywhere = seen.length === answers.length && seen.every((x) => x.exact);
    const followed = f.kind !== "list" || new Set(seen.map((x) => JSON.stringify(x.ids))).size > 1;
    const confirmed = f.kind !== "count" && everywhere && followed;
    const where = f.pointer === "" ? "its answer" : `${f.pointer} of its answer`;
    const held =
      f.kind === "count"
        ? `counts the ${f.collection} (one value recorded, or more than one collection fits)`
        : f.kind === "list"
          ? `lists the ${f.collection}`
          : `holds ${f.collection} ${f.id}`;
    const why = confirmed
      ? f.kind === "list"
        ? `every recorded answer was the whole list as the state held it, through ${new Set(seen.map((x) => JSON.stringify(x.ids))).size} different lists: served from state`
        : `every recorded answer showed it as the state held it: served from state`
      : `not confirmed (${
          f.kind === "count"
            ? "a count needs two recorded values to be confirmed"
            : !everywhere
              ? "some recorded answer differs from the state then"
              : "no two recorded answers listed different entities"
        }): stale after a write to ${f.kind === "entity" ? `${f.collection} ${f.id}` : f.collection}`;
    out.push({
      collection: f.collection,
      pointer: f.pointer,
      kind: f.kind,
      ...(f.kind === "entity" ? { id: f.id! } : {}),
      ...(f.kind === "count" ? {} : { keys: f.keys }),
      confirmed,
      explain: `${what}: ${where} ${held}; ${why}.`,
    });
  }
  return out.sort((a, b) =>
    a.collection !== b.collection ? (a.collection < b.collection ? -1 : 1) : a.pointer < b.pointer ? -1 : 1,
  );
}
