/**
 * Where each id sequence continues: after the highest integer id its collection ever showed, after the highest
 * value a nested field drawing from it ever held (a revision id WordPress takes from its posts' sequence), and,
 * for a sequence two collections share, after the highest of both. The twin's counters start there, so its
 * next create gets the id the app would give.
 */
import type { Entity, FieldEntry, FieldRule } from "../model/model-schema.js";
import { pointerOf, readPointer } from "../util/json-pointer.js";
import type { ServedWrite } from "./settable-fields.js";

/** Every id_sequence rule in a rule tree, with the pointer of the value it gives. */
function sequenceRules(
  fields: FieldEntry[],
  at = "",
): [string, Extract<FieldRule, { kind: "id_sequence" }>][] {
  const out: [string, Extract<FieldRule, { kind: "id_sequence" }>][] = [];
  const visit = (rule: FieldRule, p: string) => {
    if (rule.kind === "id_sequence") out.push([p, rule]);
    if (rule.kind === "object") out.push(...sequenceRules(rule.fields, p));
    if (rule.kind === "array") for (const [i, r] of rule.items.entries()) visit(r, `${p}/${i}`);
    if (rule.kind === "cases") for (const c of rule.cases) visit(c.rule, p);
  };
  for (const f of fields) visit(f.rule, `${at}${pointerOf(f.field)}`);
  return out;
}

/**
 * The next value of every sequence: `next` (each collection's highest id + 1) raised past every value a nested
 * sequence field of a served write held in `known` (every entity of the collection ever seen), and each shared
 * sequence past the collections that draw from it.
 */
export function sequenceStarts(
  served: ServedWrite[],
  next: Readonly<Record<string, number>>,
  known: (collection: string) => Iterable<Entity>,
): Record<string, number> {
  const out: Record<string, number> = { ...next };
  const raise = (key: string, value: number) => {
    if (value > (out[key] ?? Number.NEGATIVE_INFINITY)) out[key] = value;
  };
  for (const w of served) {
    const col = w.rule.collection;
    for (const [pointer, rule] of sequenceRules(w.rule.fields)) {
      const key = rule.sequence ?? col;
      if (key !== col && out[col] !== undefined) raise(key, out[col]!);
      if (pointer === pointerOf(w.target.collection.idField)) continue;
      for (const e of known(col)) {
        const v = readPointer(e, pointer);
        if (typeof v === "number" && Number.isInteger(v)) raise(key, v + 1);
      }
    }
  }
  // A collection drawing from a shared sequence raised it: the other sharers continue after it too.
  for (const w of served)
    for (const [, rule] of sequenceRules(w.rule.fields))
      if (rule.sequence !== undefined && out[rule.sequence] !== undefined)
        raise(rule.sequence, out[rule.sequence]!);
  return out;
}

/** What a create shows of how its collection numbers it (a WriteObservation's own fields). */
export interface CreateSighting {
  collection: string;
  /** The created id, as text. */
  id: string | null;
  /** The highest integer id the collection ever held before it, deleted ones included. */
  maxIntBefore: number | null;
  /** The highest integer id among the entities present before it. */
  maxPresentBefore: number | null;
}

/** The app's decision on a freed highest id, and the collections whose creates showed it. */
export interface ReusePolicy {
  policy: "monotonic" | "reuse_highest";
  from: string[];
}

/**
 * How the app numbers a create made after its collection's highest entity was deleted, decided by every such create
 * the recording holds, in any collection: all gave the freed id again (the highest present + 1: SQLite's rowid) →
 * `reuse_highest`; all gave one past the highest ever held (a Postgres sequence, MySQL's AUTO_INCREMENT) →
 * `monotonic`. One app keeps its collections in one database, so the decision holds for the collections that never
 * showed it (labelled `inferred` there). Null where no create followed such a delete, or the creates disagree.
 */
export function reusePolicy(creates: readonly CreateSighting[]): ReusePolicy | null {
  const seen = { monotonic: new Set<string>(), reuse_highest: new Set<string>() };
  for (const c of creates) {
    if (c.id === null || !/^-?\d+$/.test(c.id) || c.maxIntBefore === null) continue;
    const present = c.maxPresentBefore ?? 0;
    if (present >= c.maxIntBefore) continue;
    const id = Number(c.id);
    if (id === present + 1) seen.reuse_highest.add(c.collection);
    else if (id > c.maxIntBefore) seen.monotonic.add(c.collection);
  }
  const decided = (["monotonic", "reuse_highest"] as const).filter((p) => seen[p].size > 0);
  if (decided.length !== 1) return null;
  return { policy: decided[0]!, from: [...seen[decided[0]!]].sort() };
}

/** What a confirmed create shows of the counters it may draw from (a WriteObservation's own fields), in walk order. */
export interface DrawSighting {
  collection: string;
  /** The created id, as text. */
  id: string | null;
  /** The highest integer id the collection ever held before it. */
  maxIntBefore: number | null;
  /** The highest integer id each other collection ever held before it. */
  otherMaxBefore: ReadonlyMap<string, number> | null;
}

/**
 * The collections that join a shared sequence another collection's create proved. A create of a collection whose
 * rule draws from `sequence` S, with an id one past another collection's highest while beyond its own, proves that
 * other collection draws from S too (one counter: WordPress's posts and blocks). The partner joins only if every
 * recorded create of it is what the one counter gives at that moment: the highest id of all its sharers + 1, or, at
 * the counter's first draw in the recording, anything beyond it (its start is hidden: the seed's rows consumed ids
 * nobody recorded). A create that skips ids later, or falls at or below the sharers' highest, refutes the join.
 * Returns `collection → sequence` for the joiners only (the collections whose rules already carry S keep it).
 */
export function sharedSequenceJoins(
  draws: readonly DrawSighting[],
  drawsFrom: ReadonlyMap<string, string>,
): Map<string, string> {
  const ints = draws.flatMap((d) =>
    d.id !== null && /^-?\d+$/.test(d.id) ? [{ ...d, value: Number(d.id) }] : [],
  );
  // The sharers of each sequence: the collections whose rules draw from it and the partners their creates proved.
  const groups = new Map<string, Set<string>>();
  for (const d of ints) {
    const seq = drawsFrom.get(d.collection);
    if (seq === undefined) continue;
    const own = d.maxIntBefore ?? 0;
    for (const [other, max] of [...(d.otherMaxBefore ?? [])].sort(([a], [b]) => (a < b ? -1 : 1)))
      if (max > own && d.value === max + 1 && drawsFrom.get(other) === undefined) {
        const g = groups.get(seq) ?? new Set([d.collection]);
        g.add(other);
        groups.set(seq, g);
      }
  }
  const out = new Map<string, string>();
  for (const [seq, members] of [...groups].sort(([a], [b]) => (a < b ? -1 : 1))) {
    let drawn = false;
    let fits = true;
    for (const d of ints) {
      if (!members.has(d.collection)) continue;
      const highest = Math.max(
        d.maxIntBefore ?? 0,
        ...[...members].map((m) => (m === d.collection ? 0 : (d.otherMaxBefore?.get(m) ?? 0))),
      );
      if (d.value <= highest || (drawn && d.value !== highest + 1)) fits = false;
      drawn = true;
    }
    if (fits) for (const m of members) if (drawsFrom.get(m) === undefined) out.set(m, seq);
  }
  return out;
}

/** The sequence a served create's id draws from, where it names one. */
function createSequence(w: ServedWrite): string | undefined {
  if (w.target.kind !== "create") return undefined;
  const idPointer = pointerOf(w.target.collection.idField);
  for (const [pointer, rule] of sequenceRules(w.rule.fields))
    if (pointer === idPointer && rule.sequence !== undefined && rule.after === undefined)
      return rule.sequence;
  return undefined;
}

/** Every id_sequence rule of a tree (reuse aside) drawing from `sequence`. */
function drawingFrom(rule: FieldRule, sequence: string): FieldRule {
  if (rule.kind === "id_sequence") return rule.after === undefined ? { ...rule, sequence } : rule;
  if (rule.kind === "object")
    return { ...rule, fields: rule.fields.map((f) => ({ ...f, rule: drawingFrom(f.rule, sequence) })) };
  if (rule.kind === "array") return { ...rule, items: rule.items.map((r) => drawingFrom(r, sequence)) };
  if (rule.kind === "cases")
    return { ...rule, cases: rule.cases.map((c) => ({ ...c, rule: drawingFrom(c.rule, sequence) })) };
  return rule;
}

/**
 * The served writes with every sharer of a shared sequence drawing from it: a collection whose create proved the
 * sequence, and those that join it (`sharedSequenceJoins`), number their creates and the nested ids their updates
 * give (a revision) from one counter.
 */
export function withSharedSequences(served: ServedWrite[], draws: readonly DrawSighting[]): ServedWrite[] {
  const drawsFrom = new Map<string, string>();
  for (const w of served) {
    const seq = createSequence(w);
    if (seq !== undefined && !drawsFrom.has(w.rule.collection)) drawsFrom.set(w.rule.collection, seq);
  }
  const all = new Map([...drawsFrom, ...sharedSequenceJoins(draws, drawsFrom)]);
  return served.map((w) => {
    const seq = all.get(w.rule.collection);
    if (seq === undefined) return w;
    const fields = w.rule.fields.map((f) => ({ ...f, rule: drawingFrom(f.rule, seq) }));
    return { ...w, rule: { ...w.rule, fields } };
  });
}
