/**
 * The simulated state of one collection while learning walks the recording
 * in time order: present entities by id, each scope's list order (the app's
 * own order at its last full list, then entities first seen later), every id
 * ever seen and the highest integer id. Seed state is its final snapshot.
 */
import type { Entity } from "../model/model-schema.js";
import type { FoundCollection } from "./collections.js";
import type { Observation } from "./endpoint-index.js";
import { parentPath } from "./tree-collection.js";

/** Simulated state of one collection. */
export class CollectionState {
  readonly col: FoundCollection;
  readonly entities = new Map<string, Entity>();
  /** Scope (parent value, or "") → ids in list order. */
  readonly scopes = new Map<string, string[]>();
  readonly listedScopes = new Set<string>();
  /** Scopes a read that only ordered them showed whole (`sorted-whole-reads.ts`), no plain list yet. */
  readonly sortedScopes = new Set<string>();
  readonly everSeen = new Set<string>();
  /** Item-read misses (404, 410, a confirmed 403) of an id the walk had seen before: a gone entity's answer. */
  readonly goneMisses = new Set<Observation>();
  /** The last values known of every entity ever seen (reads and write answers), for "before" snapshots. */
  readonly lastKnown = new Map<string, Entity>();
  /** The last write answer of each entity: what a write shows of it that reads may not (`title.raw`). */
  readonly lastAnswer = new Map<string, Entity>();
  maxInt: number | null = null;
  /** Scope → field → the highest integer value of that field ever seen in the scope (counter detection). */
  readonly scopeMax = new Map<string, Map<string, number>>();
  /** Per scope, the ids recorded creates made since its last full list, in the order they were made. */
  private readonly createdSince = new Map<string, string[]>();
  /** Remaining list-order candidates: "insertion", "field:<name>:asc|desc". */
  orderCandidates: Set<string> | null = null;
  /**
   * Field orders a full list proved: 2+ entities with integer ids listed out of ascending id order (the order an app
   * numbering its entities in turn inserts them in) and strictly in that field's order.
   */
  readonly orderProofs = new Set<string>();
  /** Top-level scalar fields with one value in every entity of every full list so far (default-filter candidates). */
  private defaultValues: Map<string, unknown> | null = null;
  /** The entities full lists showed (two or more are needed before a value shared by all of them tells anything). */
  private readonly defaultListed = new Set<string>();
  /** Candidate fields on which an entity absent from a full list, yet never shown gone, differed: the default filter. */
  private readonly hiddenBy = new Set<string>();
  /** Entities a full list left out because they differ from what every full list shows (a draft, a closed issue). */
  readonly hidden = new Set<string>();

  /**
   * The scope a parent path parameter's value names: the value itself, or for entities naming their parent by a
   * reference (`parent.reference`) the id of the parent entity it names by another of its ids (the walk sets it).
   */
  scopeValue: (raw: string) => string = (raw) => raw;

  constructor(col: FoundCollection) {
    this.col = col;
  }

  /** The id of an entity as a string, or null when it has none. */
  idOf(e: Entity): string | null {
    const v = e[this.col.idField];
    return typeof v === "string" || typeof v === "number" ? String(v) : null;
  }

  /**
   * The id of the entity a path names: the value itself when the collection ever held that id, else the id of the
   * entity another of its ids (`alt_id_fields`: a project's `identifier`, `/projects/docs.json`) names; else the
   * value as given.
   */
  resolveId(raw: string): string {
    const alt = this.col.altIdFields ?? [];
    if (alt.length === 0 || this.lastKnown.has(raw)) return raw;
    for (const [id, e] of this.lastKnown) if (alt.some((f) => String(e[f]) === raw)) return id;
    return raw;
  }

  /** The scope of an entity: its parent field's value, its parent path (ids that are paths), or "". */
  scopeOf(e: Entity): string {
    if (this.col.tree) return parentPath(this.idOf(e) ?? "");
    return this.col.parent ? String(e[this.col.parent.field]) : "";
  }

  /** The highest integer id among the entities present now (deleted ones gone), or null. */
  maxPresent(): number | null {
    let max: number | null = null;
    for (const e of this.entities.values()) {
      const v = e[this.col.idField];
      if (typeof v === "number" && Number.isInteger(v) && (max === null || v > max)) max = v;
    }
    return max;
  }

  /** Notes an id as seen (for fresh-id checks and the id sequence). */
  noteId(value: unknown): void {
    if (typeof value === "number" && Number.isInteger(value))
      this.maxInt = Math.max(this.maxInt ?? value, value);
    if (typeof value === "string" || typeof value === "number") this.everSeen.add(String(value));
  }

  /** Notes the integer fields of an entity seen in a scope (for "highest + 1" counters such as a card's position). */
  noteInts(scope: string, e: Entity): void {
    let max = this.scopeMax.get(scope);
    for (const k in e) {
      const v = e[k];
      if (typeof v !== "number" || !Number.isInteger(v)) continue;
      if (!max) {
        max = new Map();
        this.scopeMax.set(scope, max);
      }
      const m = max.get(k);
      if (m === undefined || v > m) max.set(k, v);
    }
  }

  /** Inserts or refreshes an entity; new ones join the end of their scope. */
  upsert(e: Entity): void {
    const id = this.idOf(e);
    if (id === null) return;
    this.noteId(e[this.col.idField]);
    const scope = this.scopeOf(e);
    this.noteInts(scope, e);
    if (!this.entities.has(id)) {
      let order = this.scopes.get(scope);
      if (!order) {
        order = [];
        this.scopes.set(scope, order);
      }
      order.push(id);
    }
    this.entities.set(id, e);
    this.lastKnown.set(id, e);
    this.unknownFields.delete(id);
  }

  /** Removes an entity (an item read answered 404, or a full list left it out). */
  remove(id: string): void {
    const e = this.entities.get(id);
    if (!e) return;
    this.entities.delete(id);
    this.unknownFields.delete(id);
    const order = this.scopes.get(this.scopeOf(e));
    const at = order ? order.indexOf(id) : -1;
    if (order && at >= 0) order.splice(at, 1);
  }

  /** Notes an entity a recorded create made (its answer named the id): insertion order lists it after those before. */
  noteCreated(scope: string, id: string): void {
    const made = this.createdSince.get(scope) ?? [];
    if (!made.includes(id)) made.push(id);
    this.createdSince.set(scope, made);
  }

  /** The scope's entities in list order. */
  list(scope: string): Entity[] {
    return (this.scopes.get(scope) ?? []).map((id) => this.entities.get(id)!).filter(Boolean);
  }

  /**
   * A listed entity over what the state knew of it: the list's own view hides some fields (left out, or null), so
   * those keep the values an item read showed.
   */
  private fromList(e: Entity, id: string): Entity {
    const view = this.col.listView;
    const old = this.entities.get(id) ?? this.lastKnown.get(id);
    if (!view || !old) return e;
    const out: Entity = { ...e };
    for (const k of view.omit) if (k in old) out[k] = old[k];
    for (const k of view.nulls) if (k in old) out[k] = old[k];
    return out;
  }

  /**
   * Applies a full list of a scope; returns the ids that disappeared from it. An entity it leaves out that differs
   * from every listed entity in a field all full lists agree on (`status: "draft"` where every list shows
   * `"publish"`) is hidden by the app's default filter, not gone: it stays in the state, after the listed ones.
   */
  applyFullList(scope: string, listed: Entity[], sorted = false): string[] {
    const before = this.scopes.get(scope) ?? [];
    const ids = listed.map((e) => this.idOf(e)).filter((id): id is string => id !== null);
    // A read the request sorted shows the membership, not the app's own list order. Entities recorded creates made
    // since come after the ones the state held, in the order they were made: what insertion order would list.
    const made = (this.createdSince.get(scope) ?? []).filter((id) => !before.includes(id));
    if (!sorted) this.checkOrder(made.length > 0 ? [...before, ...made] : before, ids, listed);
    this.createdSince.delete(scope);
    this.noteDefaultValues(listed);
    const keep = new Set(ids);
    const missing = before.filter((id) => !keep.has(id));
    const hiddenNow = missing.filter((id) => this.hiddenByDefault(this.entities.get(id)));
    const gone = missing.filter((id) => !hiddenNow.includes(id));
    for (const id of gone) {
      this.entities.delete(id);
      this.unknownFields.delete(id);
      this.hidden.delete(id);
    }
    for (const id of ids) this.hidden.delete(id);
    for (const id of hiddenNow) this.hidden.add(id);
    for (const e of listed) {
      const id = this.idOf(e);
      if (id === null) continue;
      this.noteId(e[this.col.idField]);
      this.noteInts(scope, e);
      const old = this.entities.get(id);
      if (old && this.scopeOf(old) !== scope) this.remove(id);
      const merged = this.fromList(e, id);
      this.unknownFields.delete(id);
      this.entities.set(id, merged);
      this.lastKnown.set(id, merged);
    }
    this.scopes.set(scope, [...ids, ...hiddenNow]);
    // A sorted read's scope is known whole for judging queries, yet no plain list was seen (`unlisted` stays).
    if (sorted) this.sortedScopes.add(scope);
    else this.listedScopes.add(scope);
    return gone;
  }

  private noteDefaultValues(listed: Entity[]): void {
    if (listed.length === 0) return;
    for (const e of listed) {
      const id = this.idOf(e);
      if (id !== null) this.defaultListed.add(id);
    }
    if (!this.defaultValues) {
      this.defaultValues = new Map();
      for (const [k, v] of Object.entries(listed[0]!))
        if (isScalar(v) || typeof v === "boolean") this.defaultValues.set(k, v);
    }
    for (const [k, v] of [...this.defaultValues])
      if (k === this.col.idField || !listed.every((e) => e[k] === v)) this.defaultValues.delete(k);
  }

  /** Whether an entity a full list left out differs from what every full list shows; notes the fields it differs in. */
  private hiddenByDefault(e: Entity | undefined): boolean {
    if (!e || !this.defaultValues) return false;
    const differs = [...this.defaultValues].filter(([k, v]) => k in e && e[k] !== v).map(([k]) => k);
    for (const k of differs) this.hiddenBy.add(k);
    return differs.length > 0;
  }

  /** The default filter the recording showed: the fields hidden entities differed in, with the value full lists hold. */
  defaultFilter(): { field: string; value: unknown }[] {
    if (!this.defaultValues) return [];
    return [...this.hiddenBy]
      .filter((k) => this.defaultValues!.has(k))
      .sort()
      .map((field) => ({ field, value: this.defaultValues!.get(field) }));
  }

  /**
   * Entities the state holds from a read that did not show all of their fields (a projection, a filtered list's
   * entity lacking a field every other entity holds), by id: the fields it may lack. Its item read is then an
   * explained miss (`unknown_fields`), never the not-found. A later whole read (plain list, plain item read) clears it.
   */
  readonly unknownFields = new Map<string, string[]>();

  /** Up to 200 entities the state holds whole (no unknown fields): what an entity's whole shape is judged against. */
  private wholeKnown(): Entity[] {
    const out: Entity[] = [];
    for (const [id, e] of this.entities) {
      if (this.unknownFields.has(id)) continue;
      out.push(e);
      if (out.length >= 200) break;
    }
    return out;
  }

  /**
   * Takes in an entity a query read answered: a known one is refreshed with the fields the answer holds (a projected
   * answer never writes its shape back; a whole one adds the scalar fields it gained), an unknown one joins the end
   * of its scope as a hidden one: the plain list did not show it, and the fields it differs in from every listed
   * entity's shared values are the default filter's (see `hiddenByDefault`). It is whole when it holds every field
   * the known entities all hold, but for `optional` ones (fields the same answer shows on some entities and not on
   * others: the app leaves them out per entity, as Redmine does a null `assigned_to`); else it joins with the fields
   * it lacks unknown (`unknownFields`). With no entity known yet, a list answer is the collection's list shape, as a
   * plain list's is, unless `projected` (the read named the fields it shows): then nothing tells what it lacks.
   */
  noteFromQuery(
    scope: string,
    e: Entity,
    optional: ReadonlySet<string> = new Set(),
    projected = false,
  ): void {
    const id = this.idOf(e);
    if (id === null) return;
    const old = this.entities.get(id);
    if (old) {
      const merged = { ...old };
      for (const k of Object.keys(old)) if (k in e) merged[k] = e[k];
      // A whole entity (every field known of it, and more) shows fields it gained since (a write the walk could not
      // apply set them): a new scalar is taken in; a new object or array may be an expansion, never written back.
      if (Object.keys(old).every((k) => k in e))
        for (const [k, v] of Object.entries(e))
          if (!(k in old) && (v === null || typeof v !== "object")) merged[k] = v;
      this.entities.set(id, merged);
      this.lastKnown.set(id, merged);
      // A field the answer shows on other entities and not on this one, in no projection, is one it lacks: known.
      const lacking = this.unknownFields.get(id)?.filter((k) => !(k in e) && (projected || !optional.has(k)));
      // A field it was not known to hold, one every whole entity holds (no expansion's), is taken in.
      for (const k of this.unknownFields.get(id) ?? []) if (k in e) merged[k] = e[k];
      if (lacking !== undefined && lacking.length === 0) this.unknownFields.delete(id);
      else if (lacking !== undefined) this.unknownFields.set(id, lacking);
      return;
    }
    const known = this.wholeKnown();
    if (known.length === 0 && projected) return;
    const core = Object.keys(known[0] ?? {}).filter((f) => known.every((x) => f in x));
    const lacks = core.filter((f) => !(f in e) && !optional.has(f));
    this.join(scope, id, e, lacks);
  }

  /**
   * Takes in an entity an item read with a query showed (`?include=journals`, `?_fields=id,title`), when the state
   * does not hold it: it exists, with the fields every whole entity of the collection holds or some holds (an
   * expansion's key, one no entity held, is never written into it); those every whole entity holds that it lacks
   * are unknown. Refused (false) when no whole entity is known: nothing tells its shape from an expansion.
   */
  noteFromItemQuery(scope: string, e: Entity): boolean {
    const id = this.idOf(e);
    if (id === null || this.entities.has(id)) return false;
    const known = this.wholeKnown();
    if (known.length === 0) return false;
    const some = new Set(known.flatMap((x) => Object.keys(x)));
    const shown: Entity = {};
    for (const [k, v] of Object.entries(e)) if (some.has(k)) shown[k] = v;
    const lacks = [...some].filter((f) => known.every((x) => f in x) && !(f in shown));
    this.join(scope, id, shown, lacks);
    return true;
  }

  /** An entity no read before showed joins the end of its scope as a hidden one, with the fields it may lack. */
  private join(scope: string, id: string, e: Entity, lacks: string[]): void {
    const seenBefore = this.everSeen.has(id);
    this.noteId(e[this.col.idField]);
    this.noteInts(scope, e);
    this.entities.set(id, e);
    this.lastKnown.set(id, e);
    if (lacks.length > 0) this.unknownFields.set(id, lacks);
    const order = this.scopes.get(scope) ?? [];
    order.push(id);
    this.scopes.set(scope, order);
    this.hidden.add(id);
    // The scope's last full list left out an entity no recorded write made (a create's answer or Location notes its
    // id): it was there all along, so where it differs from what every listed entity shares, that is the default
    // filter, as when a later full list leaves it out.
    if (!seenBefore && this.listedScopes.has(scope) && this.defaultListed.size >= 2) this.hiddenByDefault(e);
  }

  private checkOrder(before: string[], ids: string[], listed: Entity[]): void {
    // An empty list names no fields: the candidates wait for a list that shows some.
    if (listed.length === 0) return;
    if (!this.orderCandidates) {
      const fields = Object.keys(listed[0] ?? {}).filter((k) => listed.every((e) => isScalar(e[k])));
      this.orderCandidates = new Set([
        "insertion",
        ...fields.flatMap((f) => [`field:${f}:asc`, `field:${f}:desc`]),
      ]);
    }
    if (listed.length < 2) return;
    const old = new Set(before);
    const kept = ids.filter((id) => old.has(id));
    const keptSet = new Set(kept);
    const beforeKept = before.filter((id) => keptSet.has(id));
    const insertionOk =
      kept.every((id, i) => id === beforeKept[i]) && ids.slice(0, kept.length).every((id) => old.has(id));
    const numbered = listed.map((e) => e[this.col.idField]);
    const outOfIdOrder =
      numbered.every((v) => typeof v === "number" && Number.isInteger(v)) && !strictly(numbered, 1);
    for (const c of [...this.orderCandidates]) {
      if (c === "insertion") {
        if (!insertionOk) this.orderCandidates.delete(c);
        continue;
      }
      const [, field, dir] = c.split(":") as [string, string, string];
      for (let i = 1; i < listed.length; i++) {
        const cmp = compare(listed[i - 1]![field], listed[i]![field]);
        if ((dir === "asc" && cmp > 0) || (dir === "desc" && cmp < 0)) {
          this.orderCandidates.delete(c);
          break;
        }
      }
      const values = listed.map((e) => e[field]);
      if (outOfIdOrder && this.orderCandidates.has(c) && strictly(values, dir === "asc" ? 1 : -1))
        this.orderProofs.add(c);
    }
  }
}

/** True when the values rise (`1`) or fall (`-1`) at every step, no two alike. */
function strictly(values: unknown[], sign: 1 | -1): boolean {
  for (let i = 1; i < values.length; i++)
    if (Math.sign(compare(values[i], values[i - 1])) !== sign) return false;
  return true;
}

function isScalar(v: unknown): boolean {
  return typeof v === "string" || typeof v === "number";
}

/** Orders two scalars (numbers numerically, strings by code point). */
export function compare(a: unknown, b: unknown): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
