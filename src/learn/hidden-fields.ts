/**
 * What writes answer but reads never show: the pointers a confirmed write's
 * answer held that its read-back lacked (`/title/raw`, `/password` on
 * WordPress), for every collection, unless some read-back showed them (a
 * projected read-back counts only inside the fields it named). The
 * twin keeps them in its state (a later answer shows them again) and its
 * reads leave them out, as the app's do.
 */
import { missingPointers } from "../util/entity-view.js";
import { pathOfPointer, pointerEntries, pointerOfPath, readPointer } from "../util/json-pointer.js";
import type { WriteObservation } from "./state-walk.js";

/** The hidden pointers of each collection that has any, sorted. */
export function hiddenPointers(writes: WriteObservation[]): Map<string, string[]> {
  const hidden = new Map<string, Set<string>>();
  const shown = new Map<string, Set<string>>();
  for (const w of writes) {
    if (w.result !== "confirmed" || !w.answered || !w.readBack || w.target.kind === "delete") continue;
    const col = w.target.collection.name;
    // A projected read-back (`_fields=id,title`) left out the fields it did not name: only what it lacks inside a
    // field it showed (`/title/raw` of `title`) is what reads leave out.
    const missing = missingPointers(w.answered, w.readBack).filter(
      (p) => !w.readBackProjected || Object.hasOwn(w.readBack!, pathOfPointer(p)[0]!),
    );
    const set = hidden.get(col) ?? new Set();
    for (const p of missing) set.add(p);
    hidden.set(col, set);
    const seen = shown.get(col) ?? new Set();
    for (const p of missingPointers(w.readBack, {})) seen.add(p);
    shown.set(col, seen);
  }
  const out = new Map<string, string[]>();
  for (const [col, set] of hidden) {
    const seen = shown.get(col) ?? new Set();
    const list = [...set].filter((p) => !seen.has(p)).sort();
    if (list.length > 0) out.set(col, list);
  }
  return out;
}

/** How a hidden pointer's value is known for an entity the recording showed only as reads show it. */
export type HiddenDefault = { pointer: string; copies: string[] } | { pointer: string; value: unknown };

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const emptyLike = (v: unknown) =>
  v === "" ||
  v === 0 ||
  v === false ||
  v === null ||
  (Array.isArray(v) && v.length === 0) ||
  (v !== null && typeof v === "object" && Object.keys(v).length === 0);

/**
 * The value each hidden pointer of a collection takes in every confirmed write answer of it, by hypothesis, so an
 * entity known only from reads (a seed entity: its fields came from a view-context read) holds them too and a later
 * write's answer shows them as the app's does (a PATCH of a seeded WordPress post answers `guid.raw`, `password`,
 * `_links.wp:action-*`): `copy` when every answer showing it held the value of one pointer reads do show
 * (`/guid/raw` = `/guid/rendered`, `/_links/wp:action-publish` = `/_links/self`), else `value` when every answer held
 * one value, held by two entities at least (`/password` ""). Rejected (the entity keeps lacking it): a value that differs between
 * answers and copies no visible pointer, one entity's empty value (a post's own empty `excerpt.raw`), and one entity's non-empty value (`/content/raw`: the source of the text no
 * read shows, the same in a create and a PATCH of one post, is no default).
 */
export function hiddenDefaults(writes: WriteObservation[], hidden: readonly string[]): HiddenDefault[] {
  const confirmed = writes.filter(
    (w) => w.result === "confirmed" && w.answered && w.target.kind !== "delete",
  );
  const answers = confirmed.map((w) => w.answered!);
  const idOf = (i: number) => JSON.stringify(answers[i]![confirmed[i]!.target.collection.idField] ?? null);
  const out: HiddenDefault[] = [];
  const hiddenSet = new Set(hidden);
  const under = (p: string) => hidden.some((h) => p === h || p.startsWith(`${h}/`));
  for (const pointer of hidden) {
    const at = answers.flatMap((a, i) => (readPointer(a, pointer) !== undefined ? [i] : []));
    if (at.length === 0) continue;
    const showing = at.map((i) => answers[i]!);
    const values = showing.map((a) => readPointer(a, pointer));
    // One value is the app's own only when two entities held it: one entity's value, empty or not, is no default
    // (session-6 review H4: one post's `excerpt.raw` "" and `content.block_version` 0 were given to every seeded post,
    // beside a manual excerpt and block content the reads showed).
    const constant = values.every((v) => same(v, values[0])) && new Set(at.map(idOf)).size >= 2;
    if (constant && emptyLike(values[0])) {
      out.push({ pointer, value: values[0] });
      continue;
    }
    // Pointers reads show (never a hidden one, nor one inside an array) whose value equals it in every answer.
    const copies = pointerEntries(showing[0])
      .map(([p]) => p)
      .filter((p) => !hiddenSet.has(p) && !under(p) && !/\/\d+(\/|$)/.test(p) && p !== pointer)
      .filter((p) => showing.every((a, i) => same(readPointer(a, p), values[i])));
    if (copies.length > 0) out.push({ pointer, copies });
    else if (constant) out.push({ pointer, value: values[0] });
  }
  return out;
}

/**
 * The entity with each hidden pointer it lacks filled by its default (a copy of a pointer it shows, or the one value),
 * itself when it lacks none or a default cannot be read off it. Where several pointers fit every answer (`link`
 * and `guid.rendered` of a draft), the entity must hold one value in all of them, else the evidence does not say
 * which it copies and the pointer stays unfilled.
 */
export function withHiddenDefaults(
  entity: Record<string, unknown>,
  defaults: readonly HiddenDefault[],
): Record<string, unknown> {
  let out = entity;
  for (const d of defaults) {
    if (readPointer(out, d.pointer) !== undefined) continue;
    const value = "copies" in d ? agreed(d.copies.map((p) => readPointer(out, p))) : d.value;
    if (value === undefined) continue;
    const path = pathOfPointer(d.pointer);
    // The parent object must be there (an object the entity shows): a hidden field is added inside it.
    const parent = readPointer(out, pointerOfPath(path.slice(0, -1)));
    if (parent === null || typeof parent !== "object" || Array.isArray(parent)) continue;
    out = setCopied(out, path, structuredClone(value));
  }
  return out;
}

/** A copy of `root` with `value` at `path`, each object on the way copied (objects the state shares stay as they are). */
function setCopied(root: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
  const [key, ...rest] = path;
  const copy = { ...root };
  copy[key!] = rest.length === 0 ? value : setCopied(root[key!] as Record<string, unknown>, rest, value);
  return copy;
}

/** The one value all of them hold, or undefined when one is missing or they differ. */
function agreed(values: unknown[]): unknown {
  return values.every((v) => v !== undefined && same(v, values[0])) ? values[0] : undefined;
}
