/**
 * A list read whose parameters only order it shows its scope whole (issue 17 item 1): the state of that moment is
 * then known, as after a plain list, so later query reads of the scope are judged against it.
 *
 * The hypothesis: one parameter is a sort (its value names fields of the answered entities, in a sort syntax) and
 * at most one other is its direction (`asc`/`desc`); no parameter's own name is a field (it cannot filter by its
 * name); the read names a direction (in the term, `id:desc`, or the companion, `order=desc`), and the answer is in
 * that order and not in the opposite one (the order carries evidence: two entities differ in the first key); every
 * entity the walk holds in the scope is in the answer (none left out that a filter might have dropped).
 * Rejected: any other parameter, a parameter named as a field (`status=…`), an answer out of the named order, one
 * that reads alike in both directions, one leaving out an entity the walk holds, a read naming no direction.
 * Pure.
 */
import type { Entity } from "../model/model-schema.js";
import {
  compareValues,
  directionOf,
  fieldValue,
  parseSort,
  resolveField,
  type SortSyntax,
  type SortTerm,
} from "../model/query-language.js";

const SYNTAXES: SortSyntax[] = [
  { separator: ",", style: "colon" },
  { separator: ",", style: "minus" },
  { separator: ",", style: "dot" },
  { separator: ",", style: "space" },
];

/** A plain parameter name (no brackets, no JSON): one leaf. */
const PLAIN = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** True when every pair of neighbours is in the terms' order (ties allowed). */
function inOrder(rows: Entity[], terms: SortTerm[]): boolean {
  for (let i = 1; i < rows.length; i++) {
    for (const t of terms) {
      const c = compareValues(fieldValue(rows[i - 1]!, t.field), fieldValue(rows[i]!, t.field));
      if (c === 0) continue;
      if ((t.direction === "asc" ? c : -c) > 0) return false;
      break;
    }
  }
  return true;
}

/** The sort terms the read orders its answer by, when its parameters only order it (see the module); else null. */
export function orderingOnly(
  query: [string, string][],
  answer: Entity[],
  known: Entity[],
  idOf: (e: Entity) => string | null,
): SortTerm[] | null {
  if (query.length === 0 || query.length > 2 || answer.length < 2) return null;
  if (new Set(query.map(([k]) => k)).size !== query.length) return null;
  const sample = [...answer, ...known];
  if (query.some(([k]) => !PLAIN.test(k) || resolveField(k, sample).length > 0)) return null;
  const shown = new Set(answer.map(idOf));
  if (known.some((e) => !shown.has(idOf(e)))) return null;
  const dirs = query.filter(([, v]) => directionOf(v) !== null);
  const sorts = query.filter(([, v]) => directionOf(v) === null);
  if (sorts.length !== 1 || dirs.length > 1) return null;
  const companion = dirs.length === 1 ? directionOf(dirs[0]![1]) : null;
  for (const syntax of SYNTAXES) {
    const parsed = parseSort(sorts[0]![1], syntax);
    if (!parsed || parsed.length > 3) continue;
    if (companion === null && parsed.every((t) => t.direction === null)) continue;
    let combos: SortTerm[][] = [[]];
    for (const t of parsed) {
      const fields = resolveField(t.name, answer).slice(0, 3);
      const direction = t.direction ?? companion ?? "asc";
      combos = combos.flatMap((c) => fields.map((field) => [...c, { field, direction }]));
    }
    for (const terms of combos) {
      if (terms.length === 0 || !inOrder(answer, terms)) continue;
      const flipped = terms.map(
        (t) => ({ ...t, direction: t.direction === "asc" ? "desc" : "asc" }) as SortTerm,
      );
      if (!inOrder(answer, flipped)) return terms;
    }
  }
  return null;
}

/**
 * True when a list read's answer headers say the app cut it: a `Link` with `rel="next"`, or an integer header
 * naming a total (`X-WP-Total`, `X-Total-Count`) that counts more matches than the page shows. Such a read is
 * never taken for the whole scope, whatever its query (a sorted read cut at the app's default page size).
 */
export function headersSayCut(headers: readonly { name: string; value: string }[], shown: number): boolean {
  for (const h of headers) {
    const name = h.name.toLowerCase();
    if (name === "link" && /rel\s*=\s*"?next"?/i.test(h.value)) return true;
    if (name.includes("total") && /^\d+$/.test(h.value.trim()) && Number(h.value) > shown) return true;
  }
  return false;
}
