/**
 * What one recorded list read with a query could mean. Each leaf of the query
 * (src/model/query-language.ts) gets candidate meanings by its structure, not
 * its name: a filter on a field the path names, with an operator its path or
 * value spells; a search over text fields; a sort whose value names fields; a
 * page, limit or offset whose value is a count; a projection whose value names
 * fields; or no effect. Every combination (one meaning per leaf) is run
 * against the state the twin had simulated at that moment; the combinations
 * whose result is exactly the recorded answer are this read's explanations.
 */

import {
  type BranchStep,
  branchSteps,
  groupToken,
  isBranchAt,
  passesFilters,
  underGroup,
} from "../model/filter-groups.js";
import type { Entity, QuerySegment } from "../model/model-schema.js";
import { type CursorCodec, decodeCursor } from "../model/query-cursor.js";
import {
  compareValues,
  countOf,
  directionOf,
  FIELD_OP_SEPARATORS,
  fieldValue,
  keyFlag,
  leafValues,
  omitFields,
  opToken,
  parseSort,
  project,
  projectionNames,
  type QueryLeaf,
  type QueryOp,
  type QueryScalar,
  queryText,
  resolveField,
  type SortSyntax,
  searchPasses,
  sortEntities,
  splitFieldOp,
  splitValueOp,
  textFields,
  valuePasses,
} from "../model/query-language.js";

/** A query read as learning saw it, with the state of that moment. */
export interface QueryRead {
  leaves: QueryLeaf[];
  /** The scope's entities at that moment in list order (answered ones as answered, unknown ones appended). */
  base: Entity[];
  answer: Entity[];
  /** The envelope's total (entities matching before pagination), when the answer carries one. */
  total: number | null;
  idField: string;
  /** Filters the app applies to a list read naming none of their fields. */
  defaultFilter: { field: string; value: unknown }[];
  /** How the list answers' cursors name an entity (query-cursor.ts), when they carry one. */
  cursor?: CursorCodec;
  /** The page size the app answers a read that sets none with, when it cuts plain lists. */
  defaultLimit?: number;
  /**
   * True when no whole list of the scope was seen around the read: `base` is the entities the walk knew then (some
   * may be missing), in no order the app showed. Answer order is then evidence only of what the read sorts.
   */
  partial?: boolean;
  /**
   * The fields the collection's plain list answers leave out though item reads show them (`list_view.omit`): an answer
   * lacking them is no projection. Absent: none.
   */
  viewOmits?: string[];
}

/** One candidate meaning of one leaf. `key` names the syntax it stands for across reads. */
export type Meaning =
  | {
      kind: "filter";
      key: string;
      pattern: QuerySegment[];
      name: string;
      field: string;
      op: QueryOp;
      opToken: string | null;
      listSeparator: string | null;
      /** The separator after the operator the value spells (`gt.100`), or null. */
      valueOp: string | null;
      values: QueryScalar[];
      /** The `or`/`and` groups the condition sits under, outermost first (filter-groups.ts); absent when none. */
      within?: BranchStep[];
    }
  | {
      kind: "search";
      key: string;
      path: string[];
      term: string;
      caseSensitive: boolean;
      /**
       * The fields the parameter's own name gives (`subject`, `title` → `title.rendered`, `project_id` →
       * `project.id`), when it names any: such a parameter speaks of those, so it searches only them (`project_id=docs`
       * is no search of `project.name` "Docs Site"). Absent for a name that is no field (`q`, `search`).
       */
      named?: string[];
      /** Filled by aggregation: the fields this read's explanation searched, and those it must not. */
      seen?: { fields: string[]; bad: string[] };
    }
  | {
      kind: "sort";
      key: string;
      path: string[];
      syntax: SortSyntax;
      terms: { name: string; field: string; direction: "asc" | "desc" | null }[];
    }
  | { kind: "direction"; key: string; path: string[]; direction: "asc" | "desc" }
  | { kind: "limit" | "offset"; key: string; path: string[]; n: number }
  | { kind: "page"; key: string; path: string[]; n: number; base: number }
  /** `list`: the value names the fields kept; `keys`: the last segment names one kept (`true`); `omit_keys`: one left out (`false`). */
  | {
      kind: "fields";
      key: string;
      pattern: QuerySegment[];
      syntax: "list" | "keys" | "omit_keys";
      names: string[];
    }
  | { kind: "ignore"; key: string; path: string[]; value: string }
  /** A word value selecting the entities whose boolean field holds `equals` (`status_id=open`: `status.is_closed` false). */
  | { kind: "word"; key: string; path: string[]; value: string; field: string; equals: boolean }
  /** The page after the entity the cursor names. */
  | { kind: "cursor"; key: string; path: string[]; id: string; codec: CursorCodec };

/** A consistent explanation of a read: one meaning per leaf, which of them changed the answer, and what search fields it implies. */
export interface Explanation {
  meanings: Meaning[];
  decisive: boolean[];
  /** Per search meaning (by leaf index): the fields that explain it in this read, and those it must not search. */
  searchFields: Map<number, { fields: string[]; bad: string[] }>;
}

/** Combinations tried per read at most; a read with more is left unexplained (replayed). */
const MAX_COMBINATIONS = 4096;

const pathText = (p: string[]) => p.map((s) => JSON.stringify(s)).join("/");
const patternText = (p: QuerySegment[]) =>
  p
    .map((s) =>
      "literal" in s
        ? JSON.stringify(s.literal)
        : "field" in s
          ? "{field}"
          : "op" in s
            ? "{op}"
            : "branch" in s
              ? `{${s.branch}}`
              : `{field}${s.field_op}{op}`,
    )
    .join("/");

const SORT_SYNTAXES: SortSyntax[] = [
  { separator: ",", style: "minus" },
  { separator: ",", style: "colon" },
  { separator: ",", style: "dot" },
  { separator: ",", style: "space" },
];

/**
 * The readings an operator token may have: `like` is SQL's pattern in some apps and a substring (a regex, case
 * folded) in others, `ilike` likewise; the recorded answers decide which, per syntax.
 */
function opVariants(op: QueryOp): QueryOp[] {
  if (op === "like") return ["like", "icontains", "contains"];
  if (op === "ilike") return ["ilike", "icontains"];
  return [op];
}

/** Operators whose value is a list of values. */
export const LIST_OPS = new Set<QueryOp>(["in", "nin", "between"]);

function filterCandidates(leaf: QueryLeaf, sample: Entity[]): Meaning[] {
  const out: Meaning[] = [];
  const p = leaf.path;
  for (let i = 0; i < p.length; i++) {
    const rest = p.slice(i + 1);
    let op: QueryOp = "eq";
    let tok: string | null = null;
    if (rest.length === 1) {
      const t = opToken(rest[0]!);
      if (!t) continue;
      op = t.op;
      tok = rest[0]!;
    } else if (rest.length > 1) continue;
    const pattern: QuerySegment[] = [
      ...literalsBefore(p, i),
      { field: true as const },
      ...(tok === null ? [] : [{ op: true as const }]),
    ];
    const fields = resolveField(p[i]!, sample);
    // A list operator's value in an operator slot is a list (`_in=2,4,7`); the slot's syntax stays one key.
    const listOp = tok !== null && LIST_OPS.has(op);
    const seps: (string | null)[] =
      typeof leaf.value === "string" && leaf.value.includes(",") && (tok === null || listOp)
        ? listOp
          ? [","]
          : [null, ","]
        : [null];
    if (tok === null && typeof leaf.value === "string" && !leaf.value.includes(",")) seps.push(",");
    for (const field of fields)
      for (const sep of seps)
        for (const reading of opVariants(op)) {
          const prefix = tok === null ? "" : `|prefix:${opToken(tok)!.prefix}`;
          out.push({
            kind: "filter",
            key: `filter|${patternText(pattern)}|${tok === null ? "eq" : "slot"}${prefix}|sep:${listOp ? "" : (sep ?? "")}`,
            pattern,
            name: p[i]!,
            field,
            op: reading,
            opToken: tok,
            listSeparator: sep,
            valueOp: null,
            values: leafValues(leaf.value, sep),
            ...withinOf(p, i),
          });
        }
  }
  out.push(...nameOpCandidates(leaf, sample), ...valueOpCandidates(leaf, sample));
  return out;
}

/**
 * The names before position i of a leaf's path, as a pattern: literals, but an array index right after a group
 * token (`or/0`, `$and/1`) is a branch of that group (filter-groups.ts), so every branch is one syntax.
 */
const literalsBefore = (p: string[], i: number): QuerySegment[] =>
  p.slice(0, i).map((literal, j) => (isBranchAt(p, j) ? { branch: groupToken(p[j - 1]!)! } : { literal }));

/** The group steps of a filter whose field sits at position i of the path, as a meaning's `within`. */
function withinOf(p: string[], i: number): { within?: BranchStep[] } {
  const steps = branchSteps(p, i);
  return steps.length > 0 ? { within: steps } : {};
}

/** A filter whose last name is a field, a separator and an operator token (`views_gte=100`, `views__gte=100`). */
function nameOpCandidates(leaf: QueryLeaf, sample: Entity[]): Meaning[] {
  const out: Meaning[] = [];
  const last = leaf.path.length - 1;
  const name = leaf.path[last]!;
  for (const sep of FIELD_OP_SEPARATORS) {
    const split = splitFieldOp(name, sep);
    if (!split) continue;
    const op = opToken(split.token)!.op;
    const pattern: QuerySegment[] = [...literalsBefore(leaf.path, last), { field_op: sep }];
    const listOp = LIST_OPS.has(op) && typeof leaf.value === "string" && leaf.value.includes(",");
    for (const field of resolveField(split.name, sample))
      for (const reading of opVariants(op))
        out.push({
          kind: "filter",
          key: `filter|${patternText(pattern)}|slot|prefix:|sep:`,
          pattern,
          name: split.name,
          field,
          op: reading,
          opToken: split.token,
          listSeparator: listOp ? "," : null,
          valueOp: null,
          values: leafValues(leaf.value, listOp ? "," : null),
          ...withinOf(leaf.path, last),
        });
  }
  return out;
}

/**
 * A filter whose value spells its operator before a `.` (`views=gt.100`, `id=in.(1,3)`, `title=ilike.*ta*`), or as
 * a symbol before the operand (`subject=~login`, `status_id=!5`: separator `""`, `SYMBOL_OPS`).
 */
function valueOpCandidates(leaf: QueryLeaf, sample: Entity[]): Meaning[] {
  if (typeof leaf.value !== "string") return [];
  return [".", ""].flatMap((sep) => valueOpCandidatesAt(leaf, sample, sep));
}

function valueOpCandidatesAt(leaf: QueryLeaf, sample: Entity[], sep: string): Meaning[] {
  if (typeof leaf.value !== "string") return [];
  const split = splitValueOp(leaf.value, sep);
  if (!split) return [];
  const last = leaf.path.length - 1;
  const pattern: QuerySegment[] = [...literalsBefore(leaf.path, last), { field: true }];
  return resolveField(leaf.path[last]!, sample).flatMap((field) =>
    // `~` (a symbol, `SYMBOL_OPS`) is a substring, case folded or not: the answers decide.
    (sep === "" && split.op === "contains"
      ? (["contains", "icontains"] as QueryOp[])
      : opVariants(split.op)
    ).map((reading) => ({
      kind: "filter" as const,
      key: `filter|${patternText(pattern)}|value_op:${sep}`,
      pattern,
      name: leaf.path[last]!,
      field,
      op: reading,
      opToken: split.token,
      listSeparator: null,
      valueOp: sep,
      values: split.values,
      ...withinOf(leaf.path, last),
    })),
  );
}

function sortCandidates(leaf: QueryLeaf, sample: Entity[]): Meaning[] {
  const out: Meaning[] = [];
  for (const syntax of SORT_SYNTAXES) {
    const parsed = parseSort(leaf.value, syntax);
    if (!parsed) continue;
    // Each name's candidate fields; the combinations of them are few (one or two names, one or two fields each).
    let combos: { name: string; field: string; direction: "asc" | "desc" | null }[][] = [[]];
    for (const t of parsed) {
      const fields = resolveField(t.name, sample).slice(0, 3);
      combos = combos.flatMap((c) => fields.map((field) => [...c, { ...t, field }]));
      if (combos.length === 0) break;
    }
    for (const terms of combos)
      if (terms.length > 0)
        out.push({
          kind: "sort",
          key: `sort|${pathText(leaf.path)}|${syntax.style}|${syntax.separator ?? ""}`,
          path: leaf.path,
          syntax,
          terms,
        });
  }
  return out;
}

function fieldsCandidates(leaf: QueryLeaf, sample: Entity[]): Meaning[] {
  const keys = new Set(sample.flatMap((e) => Object.keys(e)));
  const out: Meaning[] = [];
  const names = projectionNames(leaf.value);
  if (names?.some((n) => keys.has(n)) && names.every((n) => /^[\w.$-]+$/.test(n)))
    out.push({
      kind: "fields",
      key: `fields|${pathText(leaf.path)}|list`,
      pattern: leaf.path.map((literal) => ({ literal })),
      syntax: "list",
      names,
    });
  const last = leaf.path[leaf.path.length - 1]!;
  // A field named by the last segment, kept (`fields[title]=true`) or left out (`fields[desc]=false`): two syntaxes,
  // each confirmed on its own (an app keeping the `true` ones need not drop the `false` ones).
  const flag = keyFlag(leaf.value);
  if (leaf.path.length > 1 && flag !== null && keys.has(last)) {
    const pattern: QuerySegment[] = [
      ...leaf.path.slice(0, -1).map((literal) => ({ literal })),
      { field: true },
    ];
    const syntax = flag ? ("keys" as const) : ("omit_keys" as const);
    out.push({
      kind: "fields",
      key: `fields|${patternText(pattern)}|${syntax}`,
      pattern,
      syntax,
      names: [last],
    });
  }
  return out;
}

/** A value that reads as a word (`open`, `closed`), not a number, a list, an operator or a pattern. */
const WORD = /^[A-Za-z][A-Za-z_-]*$/;

/**
 * The boolean fields of the sample, top-level and one level down (`status.is_closed`), each present in every entity
 * (a field some entities lack selects nothing the evidence could confirm).
 */
function booleanFields(sample: Entity[]): string[] {
  const fields = new Set<string>();
  for (const e of sample.slice(0, 20))
    for (const [k, v] of Object.entries(e)) {
      if (typeof v === "boolean") fields.add(k);
      else if (v !== null && typeof v === "object" && !Array.isArray(v))
        for (const [k2, v2] of Object.entries(v)) if (typeof v2 === "boolean") fields.add(`${k}.${k2}`);
    }
  return [...fields].filter((f) => sample.every((e) => typeof fieldValue(e, f) === "boolean")).sort();
}

/**
 * A word value that selects by a boolean field, when no entity holds the word as a value of the field its name
 * gives (`status_id=open` where `status.id` holds numbers): one candidate per boolean field and truth value; the
 * recorded answers decide which, if any.
 */
function wordCandidates(leaf: QueryLeaf, sample: Entity[]): Meaning[] {
  const value = leaf.value;
  if (typeof value !== "string" || !WORD.test(value) || directionOf(value) || opToken(value)) return [];
  const named = leaf.path.flatMap((p) => resolveField(p, sample));
  if (
    named.some((f) => sample.some((e) => queryText(fieldValue(e, f)).toLowerCase() === value.toLowerCase()))
  )
    return [];
  return booleanFields(sample).flatMap((field) =>
    [false, true].map((equals) => ({
      kind: "word" as const,
      key: `word|${pathText(leaf.path)}=${JSON.stringify(value)}|${field}|${equals}`,
      path: leaf.path,
      value,
      field,
      equals,
    })),
  );
}

/** Every candidate meaning of a leaf, judged on the entities of its read (the last one is always "no effect"). */
export function leafCandidates(leaf: QueryLeaf, sample: Entity[], cursor?: CursorCodec): Meaning[] {
  const out: Meaning[] = [...filterCandidates(leaf, sample)];
  const id = cursor && typeof leaf.value === "string" ? decodeCursor(cursor, leaf.value) : null;
  if (cursor && id !== null)
    out.push({ kind: "cursor", key: `cursor|${pathText(leaf.path)}`, path: leaf.path, id, codec: cursor });
  const named = resolveField(leaf.path[leaf.path.length - 1]!, sample);
  if (typeof leaf.value === "string" && leaf.value.trim() !== "")
    for (const caseSensitive of [false, true])
      out.push({
        kind: "search",
        key: `search|${pathText(leaf.path)}|case:${caseSensitive}`,
        path: leaf.path,
        term: leaf.value,
        caseSensitive,
        ...(named.length > 0 ? { named } : {}),
      });
  out.push(...sortCandidates(leaf, sample));
  const dir = directionOf(leaf.value);
  if (dir)
    out.push({ kind: "direction", key: `direction|${pathText(leaf.path)}`, path: leaf.path, direction: dir });
  const n = countOf(leaf.value);
  if (n !== null) {
    out.push({ kind: "limit", key: `limit|${pathText(leaf.path)}`, path: leaf.path, n });
    out.push({ kind: "offset", key: `offset|${pathText(leaf.path)}`, path: leaf.path, n });
    for (const base of [1, 0])
      out.push({ kind: "page", key: `page|${pathText(leaf.path)}|base:${base}`, path: leaf.path, n, base });
  }
  out.push(...fieldsCandidates(leaf, sample), ...wordCandidates(leaf, sample));
  const value = Array.isArray(leaf.value) ? leaf.value.map(queryText).join(",") : queryText(leaf.value);
  out.push({
    kind: "ignore",
    key: `ignore|${pathText(leaf.path)}=${JSON.stringify(value)}`,
    path: leaf.path,
    value,
  });
  return out;
}

const idOf = (e: Entity, idField: string) => {
  const v = e[idField];
  return typeof v === "string" || typeof v === "number" ? String(v) : null;
};

/** The text fields of an entity a search meaning may search: those its parameter's name gives, if it names any. */
function searchable(e: Entity, m: Extract<Meaning, { kind: "search" }>): string[] {
  const fields = textFields(e);
  return m.named ? fields.filter((f) => m.named!.includes(f)) : fields;
}

/** The candidates that can hold for this read on their own: a filter or search keeping every answered entity, a sort the answer follows. */
function plausible(m: Meaning, read: QueryRead, answeredFull: (Entity | null)[]): boolean {
  const known = answeredFull.filter((e): e is Entity => e !== null);
  if (m.kind === "filter")
    // A branch of an `or` need not hold for every answered entity: its group's union must (run).
    return (
      m.within?.some((s) => s.mode === "any") === true ||
      known.every((e) => valuePasses(fieldValue(e, m.field), m.op, m.values))
    );
  if (m.kind === "word") return known.every((e) => fieldValue(e, m.field) === m.equals);
  if (m.kind === "search")
    return known.every((e) => searchPasses(e, searchable(e, m), m.term, m.caseSensitive));
  if (m.kind === "sort") {
    if (known.length !== read.answer.length) return true;
    // Each term's direction may come from a companion parameter: only check that some direction fits the first term.
    return (["asc", "desc"] as const).some((d) => {
      const terms = m.terms.map((t) => ({ field: t.field, direction: t.direction ?? d }));
      return sortEntities(known, terms).every((e, i) => e === known[i]);
    });
  }
  if (m.kind === "fields") {
    const names = new Set(m.names);
    if (m.syntax === "omit_keys") return read.answer.every((a) => m.names.every((n) => !(n in a)));
    return read.answer.every((a) => Object.keys(a).every((k) => names.has(k) || m.syntax === "keys"));
  }
  return true;
}

/** Per sorted row, the index of its run of rows equal in every term (ties share one). */
function tieRanks(sorted: Entity[], terms: { field: string }[]): number[] {
  let rank = 0;
  return sorted.map((e, k) => {
    if (
      k > 0 &&
      terms.some((t) => compareValues(fieldValue(sorted[k - 1]!, t.field), fieldValue(e, t.field)) !== 0)
    )
      rank++;
    return rank;
  });
}

/** True when a cut at position `at` falls between two tied rows. */
const splitsTie = (ranks: number[], at: number) => at > 0 && at < ranks.length && ranks[at - 1] === ranks[at];

/**
 * The rows reordered as the answer lists them within each run of tied rows (the app's order among them is not
 * known), or null when a run does not hold the same entities as the answer at those places.
 */
function inAnswerOrder(rows: Entity[], ranks: number[], answer: Entity[], idField: string): Entity[] | null {
  if (rows.length !== answer.length) return null;
  const out: Entity[] = [];
  for (let a = 0; a < rows.length; ) {
    let b = a;
    while (b < rows.length && ranks[b] === ranks[a]) b++;
    const byId = new Map(rows.slice(a, b).map((e) => [idOf(e, idField), e]));
    for (const want of answer.slice(a, b)) {
      const e = byId.get(idOf(want, idField));
      if (!e) return null;
      byId.delete(idOf(want, idField));
      out.push(e);
    }
    a = b;
  }
  return out;
}

/** Runs one combination; returns the explanation when its result is exactly the answer. */
function run(read: QueryRead, meanings: Meaning[]): Explanation | null {
  const decisive = meanings.map(() => false);
  const searchFields = new Map<number, { fields: string[]; bad: string[] }>();
  const filtered = new Set(
    meanings.flatMap((m) => (m.kind === "filter" || m.kind === "word" ? [m.field] : [])),
  );
  let rows = read.base.filter((e) =>
    read.defaultFilter.every(
      (d) => filtered.has(d.field) || queryText(fieldValue(e, d.field)) === queryText(d.value),
    ),
  );
  const hasPage = meanings.some((m) => m.kind === "limit" || m.kind === "offset" || m.kind === "page");
  const answerIds = new Set(read.answer.map((e) => idOf(e, read.idField)));
  // A group is one condition: every leaf inside it must be a condition of it, and it decides as a whole.
  const grouped = meanings.flatMap((m, i) => (m.kind === "filter" && m.within ? [[m, i] as const] : []));
  for (const g of new Set(grouped.map(([m]) => m.within![0]!.group))) {
    const members = grouped.filter(([m]) => m.within![0]!.group === g);
    const inside = read.leaves.filter((l) => underGroup(l.path, g)).length;
    if (members.length !== inside) return null;
    const next = rows.filter((e) =>
      passesFilters(
        e,
        members.map(([m]) => m),
      ),
    );
    for (const [, i] of members) decisive[i] = next.length < rows.length;
    rows = next;
  }
  for (const [i, m] of meanings.entries()) {
    if (m.kind === "filter" && m.within) continue;
    if (m.kind === "filter") {
      const next = rows.filter((e) => valuePasses(fieldValue(e, m.field), m.op, m.values));
      decisive[i] = next.length < rows.length;
      rows = next;
    } else if (m.kind === "word") {
      const next = rows.filter((e) => fieldValue(e, m.field) === m.equals);
      decisive[i] = next.length < rows.length;
      rows = next;
    }
  }
  for (const [i, m] of meanings.entries()) {
    if (m.kind !== "search") continue;
    const answered = rows.filter((e) => answerIds.has(idOf(e, read.idField)));
    const good = new Set(
      answered.flatMap((e) => searchable(e, m).filter((f) => searchPasses(e, [f], m.term, m.caseSensitive))),
    );
    const bad = hasPage
      ? new Set<string>()
      : new Set(
          rows
            .filter((e) => !answerIds.has(idOf(e, read.idField)))
            .flatMap((e) => textFields(e).filter((f) => searchPasses(e, [f], m.term, m.caseSensitive))),
        );
    const fields = [...good].filter((f) => !bad.has(f)).sort();
    if (fields.length === 0) return null;
    searchFields.set(i, { fields, bad: [...bad].sort() });
    const next = rows.filter((e) => searchPasses(e, fields, m.term, m.caseSensitive));
    decisive[i] = next.length < rows.length;
    rows = next;
  }
  if (read.total !== null && read.total !== rows.length) return null;
  // Per row of a partial read, its place in the order the read gives (equal: tied, in the app's unknown order).
  let ranks: number[] | null = read.partial ? rows.map(() => 0) : null;
  const sorts = meanings.flatMap((m, i) => (m.kind === "sort" ? [[m, i] as const] : []));
  const dirs = meanings.flatMap((m, i) => (m.kind === "direction" ? [[m, i] as const] : []));
  if (sorts.length > 1 || dirs.length > 1 || (dirs.length === 1 && sorts.length === 0)) return null;
  if (sorts.length === 1) {
    const [s, i] = sorts[0]!;
    const dir = dirs[0]?.[0].direction ?? null;
    if (dir !== null && s.terms.some((t) => t.direction !== null)) return null;
    const terms = s.terms.map((t) => ({ field: t.field, direction: t.direction ?? dir ?? ("asc" as const) }));
    const sorted = sortEntities(rows, terms);
    if (ranks) {
      // The list order is unknown: only the order the sort itself gives is evidence, its ties are not.
      ranks = tieRanks(sorted, terms);
      decisive[i] = new Set(ranks).size > 1;
    } else decisive[i] = sorted.some((e, k) => e !== rows[k]);
    if (dirs[0]) decisive[dirs[0][1]] = decisive[i]!;
    rows = sorted;
  }
  const limits = meanings.flatMap((m, i) => (m.kind === "limit" ? [[m, i] as const] : []));
  const offsets = meanings.flatMap((m, i) =>
    m.kind === "offset" || m.kind === "page" ? [[m, i] as const] : [],
  );
  const cursors = meanings.flatMap((m, i) => (m.kind === "cursor" ? [[m, i] as const] : []));
  if (limits.length > 1 || offsets.length > 1 || cursors.length > 1) return null;
  const limit = limits[0]?.[0].n ?? read.defaultLimit;
  if (cursors[0]) {
    // The page after the entity the cursor names, in the order the read's other leaves gave.
    const [c, i] = cursors[0];
    const at = rows.findIndex((e) => idOf(e, read.idField) === c.id);
    if (at < 0 || offsets.length > 0) return null;
    if (ranks && splitsTie(ranks, at + 1)) return null;
    rows = rows.slice(at + 1);
    ranks = ranks?.slice(at + 1) ?? null;
    decisive[i] = true;
  }
  let start = 0;
  if (offsets[0]) {
    const [o, i] = offsets[0];
    if (o.kind === "page") {
      if (limit === undefined || o.n < o.base) return null;
      start = (o.n - o.base) * limit;
    } else start = (o as { n: number }).n;
    decisive[i] = start > 0 && rows.length > 0;
  }
  const end = limit === undefined ? rows.length : start + limit;
  // A page cut through entities the read left in the app's (unknown) order: which of them it shows is not evidence.
  if (ranks && (splitsTie(ranks, start) || splitsTie(ranks, end))) return null;
  const cut = rows.slice(start, end);
  const paged = ranks ? inAnswerOrder(cut, ranks.slice(start, end), read.answer, read.idField) : cut;
  if (paged === null) return null;
  // A limit decides when it cut, or when it answered otherwise than the default page size would have.
  if (limits[0])
    decisive[limits[0][1]] =
      start + limit! < rows.length ||
      (read.defaultLimit !== undefined &&
        limit !== read.defaultLimit &&
        rows.length - start > read.defaultLimit);
  const fields = meanings.flatMap((m, i) => (m.kind === "fields" ? [[m, i] as const] : []));
  if (fields.length > 0) {
    const names = new Set(fields.flatMap(([m]) => m.names));
    if (new Set(fields.map(([m]) => m.key)).size > 1) return null;
    const shown = paged.map((e) =>
      fields[0]![0].syntax === "omit_keys" ? omitFields(e, names) : project(e, names),
    );
    if (shown.length !== read.answer.length) return null;
    if (shown.some((e, k) => JSON.stringify(e) !== JSON.stringify(read.answer[k]))) return null;
    const cut = paged.some((e, k) => Object.keys(e).length > Object.keys(shown[k]!).length);
    for (const [, i] of fields) decisive[i] = cut;
    return { meanings, decisive, searchFields };
  }
  if (paged.length !== read.answer.length) return null;
  for (const [k, e] of paged.entries())
    if (idOf(e, read.idField) !== idOf(read.answer[k]!, read.idField)) return null;
  // The same entities cut down to fewer fields are another answer than the whole ones: no meaning picked here
  // leaves fields out, so this combination does not explain the read (`fields[desc]=false` did change something).
  if (leftOut(paged, read.answer, read.viewOmits ?? []).length > 0) return null;
  return { meanings, decisive, searchFields };
}

/**
 * The fields every answered entity lacks though its row in the state holds them, other than those the plain list
 * view leaves out: what a projection of the answer dropped. A field some answered entities show and others lack is
 * left out per entity (a null the app omits), no projection. Sorted.
 */
export function leftOut(rows: Entity[], answer: Entity[], viewOmits: string[]): string[] {
  if (answer.length === 0) return [];
  const shown = new Set(answer.flatMap((a) => Object.keys(a)));
  const held = new Set(rows.flatMap((e) => Object.keys(e)));
  return [...held].filter((k) => !shown.has(k) && !viewOmits.includes(k)).sort();
}

/**
 * Every consistent explanation of one read (none when nothing explains it, or when it has too many combinations to
 * try: it is then replayed). Leaves get the candidates of their structure; each candidate that cannot hold alone
 * (a filter dropping an answered entity) is pruned before combinations are run.
 */
export function explainRead(read: QueryRead): Explanation[] {
  const cands = plausibleCandidates(read);
  if (combinations(cands) > MAX_COMBINATIONS) return [];
  const out: Explanation[] = [];
  const pick: Meaning[] = [];
  const walk = (i: number): void => {
    if (i === cands.length) {
      const e = run(read, [...pick]);
      if (e) out.push(e);
      return;
    }
    for (const m of cands[i]!) {
      pick.push(m);
      walk(i + 1);
      pick.pop();
    }
  };
  walk(0);
  return out;
}

/** Per leaf, the candidates that can hold for the read on their own. */
function plausibleCandidates(read: QueryRead): Meaning[][] {
  const sample = [...read.base.slice(0, 50), ...read.answer.slice(0, 50)];
  const byId = new Map(read.base.map((e) => [idOf(e, read.idField), e]));
  const answeredFull = read.answer.map((a) => byId.get(idOf(a, read.idField)) ?? null);
  return read.leaves.map((leaf) =>
    leafCandidates(leaf, sample, read.cursor).filter((m) => plausible(m, read, answeredFull)),
  );
}

const combinations = (cands: Meaning[][]) => cands.reduce((n, c) => n * c.length, 1);

/**
 * True when a read holds too many combinations to try (explainRead gives it none untried): its want of an
 * explanation is then no evidence against any meaning.
 */
export function tooManyCombinations(read: QueryRead): boolean {
  return combinations(plausibleCandidates(read)) > MAX_COMBINATIONS;
}

/** The syntactic keys a leaf's candidates stand for (what a read could confirm or contradict). */
export function candidateKeys(leaf: QueryLeaf, sample: Entity[], cursor?: CursorCodec): Set<string> {
  return new Set(leafCandidates(leaf, sample, cursor).map((m) => m.key));
}
