/**
 * Applies a collection's confirmed query rules to a request: each leaf of the
 * query (src/model/query-language.ts) is matched to the rule its path and
 * value fit, the most specific kind first; a leaf no rule fits is reported,
 * never ignored. The plan then runs on the collection's entities in the app's
 * pipeline order: default filter, filters and search, sort, page, projection.
 */
import {
  type BranchStep,
  branchSteps,
  groupsOf,
  isBranchAt,
  passesFilters,
  underGroup,
} from "./filter-groups.js";
import type { Collection, Entity, QueryRule, QuerySegment } from "./model-schema.js";
import { decodeCursor } from "./query-cursor.js";
import {
  compareValues,
  countOf,
  directionOf,
  fieldValue,
  foreignValue,
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
  type SortTerm,
  searchPasses,
  sortEntities,
  splitFieldOp,
  splitValueOp,
} from "./query-language.js";

/** What a request's query asks of the collection. */
export interface QueryPlan {
  /** The conditions, each with the `or`/`and` group steps it sits under (src/model/filter-groups.ts), if any. */
  filters: { field: string; op: QueryOp; values: QueryScalar[]; within?: BranchStep[] }[];
  /** Each search with the case readings the recording left open (two when it did not decide). */
  searches: { fields: string[]; term: string; caseSensitive: boolean[] }[];
  sort: SortTerm[] | null;
  limit: number | null;
  offset: number;
  /** A page number waiting for the limit (set when the limit is known). */
  page: { n: number; base: number } | null;
  projection: Set<string> | null;
  /** The fields left out of each entity (`fields[desc]=false`, an `omit_keys` rule); absent: none. */
  omitted?: Set<string>;
  defaultFilter: { field: string; value: unknown }[];
  /** The id of the entity the page starts after (a cursor), or null. */
  after: string | null;
  /**
   * Leaves the envelope gains for a parameter value an `envelope` rule names (`meta=total_count`), each with the
   * counts the recording left it to be (answered only where they agree), and the query pair that asked for it.
   */
  envelope?: { pointer: string; of: EnvelopeCount[]; pair: number }[];
  /** The requested sort's rule when no recorded read showed where entities lacking its fields go. */
  sortUnplaced?: boolean;
  /** The requested sort's rule when no recorded read showed how entities equal in its fields are ordered. */
  sortUntied?: boolean;
}

type Query = NonNullable<Collection["query"]>;
/** What an envelope leaf a parameter adds may count (model-schema.ts `envelope` rule). */
export type EnvelopeCount = Extract<QueryRule, { kind: "envelope" }>["fields"][number]["of"][number];

const ORDER: QueryRule["kind"][] = [
  "filter",
  "limit",
  "offset",
  "page",
  "sort",
  "fields",
  "search",
  "cursor",
];

function samePath(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Matches a leaf against a segment pattern: the field name and operator token it binds, or null. */
function matchPattern(
  pattern: QuerySegment[],
  path: string[],
): { name: string | null; token: string | null } | null {
  if (pattern.length !== path.length) return null;
  let name: string | null = null;
  let token: string | null = null;
  for (const [i, seg] of pattern.entries()) {
    if ("literal" in seg) {
      if (seg.literal !== path[i]) return null;
    } else if ("field" in seg) name = path[i]!;
    else if ("op" in seg) token = path[i]!;
    else if ("branch" in seg) {
      if (!isBranchAt(path, i)) return null;
    } else {
      const split = splitFieldOp(path[i]!, seg.field_op);
      if (!split) return null;
      name = split.name;
      token = split.token;
    }
  }
  return { name, token };
}

// Own keys only: a name such as `constructor` or `__proto__` is no field the rule was confirmed for.
const fieldFor = (known: Record<string, string>, name: string, sample: Entity[]) =>
  (Object.hasOwn(known, name) ? known[name] : undefined) ?? resolveField(name, sample)[0] ?? null;

/**
 * True for a filter whose syntax is a field's bare name (`status=draft`): no wrapper (`filter[…]`), no operator in the
 * name (`views_gte`) or the value (`views=gte.150`), which are a filter language's own and speak for every field.
 */
export function bareNameFilter(rule: QueryRule & { kind: "filter" }): boolean {
  return rule.path.length === 1 && "field" in rule.path[0]! && rule.value_op === undefined;
}

/** What one rule makes of one leaf, or null when it does not fit. */
type Part =
  | { kind: "filter"; field: string; op: QueryOp; values: QueryScalar[]; within?: BranchStep[] }
  | { kind: "search"; fields: string[]; term: string; caseSensitive: boolean }
  | {
      kind: "sort";
      names: { field: string; direction: "asc" | "desc" | null }[];
      rule: QueryRule & { kind: "sort" };
    }
  | { kind: "limit" | "offset"; n: number }
  | { kind: "page"; n: number; base: number }
  | { kind: "fields"; names: string[]; omit?: true }
  | { kind: "cursor"; id: string }
  | { kind: "ignore" }
  | { kind: "word"; field: string; equals: boolean };

function partOf(rule: QueryRule, leaf: QueryLeaf, sample: Entity[]): Part | null {
  switch (rule.kind) {
    case "filter": {
      const m = matchPattern(rule.path, leaf.path);
      if (!m || m.name === null || rule.not_fields?.includes(m.name)) return null;
      // A bare `name=value` syntax says nothing of names the recording never filtered by: many apps ignore a name
      // they do not know (WordPress answers `pages?type=post` with every page), so only a confirmed name filters.
      if (bareNameFilter(rule) && !Object.hasOwn(rule.fields, m.name)) return null;
      const field = fieldFor(rule.fields, m.name, sample);
      if (field === null) return null;
      const steps = rule.path.some((s) => "branch" in s) ? branchSteps(leaf.path) : [];
      const within = steps.length > 0 ? { within: steps } : {};
      let op: QueryOp | null = rule.op;
      if (m.token !== null) {
        const spelt = opToken(m.token);
        op =
          (Object.hasOwn(rule.op_tokens, m.token) ? rule.op_tokens[m.token] : undefined) ??
          (spelt && spelt.prefix === (rule.op_prefix ?? "") ? spelt.op : null);
      }
      if (rule.value_op) {
        const split =
          typeof leaf.value === "string" ? splitValueOp(leaf.value, rule.value_op.separator) : null;
        if (!split) return null;
        const spelt = rule.op_tokens[split.token] ?? split.op;
        return { kind: "filter", field, op: spelt, values: split.values, ...within };
      }
      if (op === null) return null;
      const listed = op === "in" || op === "nin" || op === "between";
      const sep = m.token !== null ? (listed ? (rule.op_list_separator ?? null) : null) : rule.list_separator;
      const values = leafValues(leaf.value, sep);
      // A value of a kind the field never holds (`status_id=*`, `project_id=website` on integer ids) would match
      // nothing, yet such a value is often a word of the app's own (all, me, an identifier): not learned. A recorded
      // read of it is replayed as recorded; another is explained (an empty answer from one says nothing of others).
      if (foreignValue(values, field, sample) !== null) return null;
      return { kind: "filter", field, op, values, ...within };
    }
    case "search":
      return samePath(rule.path, leaf.path) && typeof leaf.value === "string"
        ? {
            kind: "search",
            fields: rule.fields,
            term: leaf.value,
            caseSensitive: rule.case_sensitive ?? false,
          }
        : null;
    case "sort": {
      if (!samePath(rule.path, leaf.path)) return null;
      const terms = parseSort(leaf.value, rule.syntax);
      if (!terms) return null;
      const names = terms.map((t) => ({
        field: fieldFor(rule.fields, t.name, sample),
        direction: t.direction,
      }));
      return names.every((n) => n.field !== null)
        ? { kind: "sort", names: names as { field: string; direction: "asc" | "desc" | null }[], rule }
        : null;
    }
    case "limit":
    case "offset":
    case "page": {
      const n = samePath(rule.path, leaf.path) ? countOf(leaf.value) : null;
      if (n === null) return null;
      return rule.kind === "page" ? { kind: "page", n, base: rule.base } : { kind: rule.kind, n };
    }
    case "fields": {
      if (rule.syntax === "list") {
        const names =
          rule.path.every((s) => "literal" in s) &&
          samePath(
            rule.path.map((s) => (s as { literal: string }).literal),
            leaf.path,
          )
            ? projectionNames(leaf.value)
            : null;
        return names ? { kind: "fields", names } : null;
      }
      const m = matchPattern(rule.path, leaf.path);
      const flag = keyFlag(leaf.value);
      if (!m?.name || flag === null || flag !== (rule.syntax === "keys")) return null;
      return rule.syntax === "keys"
        ? { kind: "fields", names: [m.name] }
        : { kind: "fields", names: [m.name], omit: true };
    }
    case "cursor": {
      if (!samePath(rule.path, leaf.path) || typeof leaf.value !== "string") return null;
      const id = decodeCursor(rule.codec, leaf.value);
      return id === null ? null : { kind: "cursor", id };
    }
    case "envelope":
      // Read before the other kinds (planQuery): it changes the answer's envelope, never the entities.
      return null;
    case "word":
      return samePath(rule.path, leaf.path) && leaf.value === rule.value
        ? { kind: "word", field: rule.field, equals: rule.equals }
        : null;
    case "ignore": {
      if (!samePath(rule.path, leaf.path)) return null;
      const text = Array.isArray(leaf.value) ? leaf.value.map(queryText).join(",") : queryText(leaf.value);
      return rule.values === null || rule.values.includes(text) ? { kind: "ignore" } : null;
    }
  }
}

/**
 * The plan of a query, or the leaves no rule fits. A leaf an exact "no effect" rule names is that; otherwise the
 * first kind in ORDER whose rule fits it; a companion direction (`order=desc`) belongs to the sort that names it.
 */
export function planQuery(
  query: Query,
  leaves: QueryLeaf[],
  sample: Entity[],
  defaultOrder: SortTerm[] | null = null,
): { plan: QueryPlan } | { unlearned: QueryLeaf[] } {
  const plan: QueryPlan = {
    filters: [],
    searches: [],
    sort: defaultOrder,
    limit: null,
    offset: 0,
    page: null,
    projection: null,
    defaultFilter: query.default_filter,
    after: null,
  };
  const unlearned: QueryLeaf[] = [];
  const exactIgnores = query.rules.filter((r) => r.kind === "ignore" && r.values !== null);
  const words = query.rules.filter((r) => r.kind === "word");
  const envelopes = query.rules.filter((r) => r.kind === "envelope");
  const anyIgnores = query.rules.filter((r) => r.kind === "ignore" && r.values === null);
  const directionPaths = query.rules.flatMap((r) =>
    r.kind === "sort" && r.direction_path ? [r.direction_path] : [],
  );
  let direction: "asc" | "desc" | null = null;
  let sortPart: Extract<Part, { kind: "sort" }> | null = null;
  const omitLeaves: QueryLeaf[] = [];
  for (const leaf of leaves) {
    // A value confirmed to add envelope leaves (`meta=total_count`), this exact value only.
    const adds = envelopes.find((r) => samePath(r.path, leaf.path) && leaf.value === r.value);
    if (adds?.kind === "envelope") {
      plan.envelope = [...(plan.envelope ?? []), ...adds.fields.map((f) => ({ ...f, pair: leaf.pair }))];
      continue;
    }
    // A word confirmed for this exact value (`status_id=open`) selects by its boolean field.
    const word = words.map((r) => partOf(r, leaf, sample)).find((p) => p?.kind === "word");
    if (word?.kind === "word") {
      plan.filters.push({ field: word.field, op: "eq", values: [word.equals] });
      continue;
    }
    if (exactIgnores.some((r) => partOf(r, leaf, sample))) continue;
    if (directionPaths.some((p) => samePath(p, leaf.path)) && directionOf(leaf.value)) {
      direction = directionOf(leaf.value);
      continue;
    }
    let parts: Part[] = [];
    for (const kind of ORDER) {
      parts = query.rules
        .filter((r) => r.kind === kind)
        .map((r) => partOf(r, leaf, sample))
        .filter((p): p is Part => p !== null);
      if (parts.length > 0) break;
    }
    if (parts.length === 0 && anyIgnores.some((r) => partOf(r, leaf, sample))) continue;
    const part = parts[0];
    if (!part) {
      unlearned.push(leaf);
      continue;
    }
    if (part.kind === "filter") plan.filters.push(part);
    else if (part.kind === "search") {
      // Two confirmed readings of the case (the recording did not decide): the answer stands only where they agree.
      const readings = [...new Set(parts.map((p) => (p as { caseSensitive: boolean }).caseSensitive))];
      plan.searches.push({ fields: part.fields, term: part.term, caseSensitive: readings });
    } else if (part.kind === "sort") sortPart = part;
    else if (part.kind === "limit") plan.limit = part.n;
    else if (part.kind === "offset") plan.offset = part.n;
    else if (part.kind === "page") plan.page = { n: part.n, base: part.base };
    else if (part.kind === "fields" && part.omit) {
      plan.omitted = new Set([...(plan.omitted ?? []), ...part.names]);
      omitLeaves.push(leaf);
    } else if (part.kind === "fields") plan.projection = new Set([...(plan.projection ?? []), ...part.names]);
    else if (part.kind === "cursor") plan.after = part.id;
  }
  if (sortPart) {
    plan.sort = sortPart.names.map((n) => ({
      field: n.field,
      direction: n.direction ?? direction ?? sortPart!.rule.default_direction,
    }));
    if (sortPart.rule.missing === undefined) plan.sortUnplaced = true;
    if (sortPart.rule.ties === undefined) plan.sortUntied = true;
  }
  // A group is read whole: a branch leaf no grouped filter took (an exact ignore, another kind) leaves it unlearned.
  for (const g of groupsOf(plan.filters)) {
    const inside = leaves.filter((l) => underGroup(l.path, g));
    const grouped = plan.filters.filter((f) => f.within?.some((s) => s.group === g)).length;
    if (grouped < inside.length) unlearned.push(...inside.filter((l) => !unlearned.includes(l)));
  }
  if (plan.page) {
    if (plan.limit === null || plan.page.n < plan.page.base)
      return { unlearned: leaves.filter((l) => countOf(l.value) === plan.page!.n) };
    plan.offset = (plan.page.n - plan.page.base) * plan.limit;
  }
  // Fields kept and fields left out in one read: no recorded read showed which wins, so the left-out ones are unlearned.
  if (plan.projection && plan.omitted) unlearned.push(...omitLeaves);
  return unlearned.length > 0 ? { unlearned } : { plan };
}

/**
 * The entities a read shows under the collection's default filter (a draft the plain list hides), leaving
 * out the fields the request filters on itself.
 */
export function shownByDefault(
  defaultFilter: { field: string; value: unknown }[],
  rows: Entity[],
  filtered: ReadonlySet<string> = new Set(),
): Entity[] {
  return rows.filter((e) =>
    defaultFilter.every(
      (d) => filtered.has(d.field) || queryText(fieldValue(e, d.field)) === queryText(d.value),
    ),
  );
}

/**
 * The rows after the one whose id a cursor names; one deleted since is placed by its id among integer ids (the
 * rows after it are those with higher ids in an ascending list), else nothing follows.
 */
function afterCursor(rows: Entity[], after: string, idField: string | null): Entity[] {
  if (idField === null) return [];
  const text = (e: Entity) => String(e[idField]);
  const at = rows.findIndex((e) => text(e) === after);
  if (at >= 0) return rows.slice(at + 1);
  if (!/^\d+$/.test(after) || !rows.every((e) => Number.isInteger(e[idField]))) return [];
  return rows.filter((e) => (e[idField] as number) > Number(after));
}

/** True when some of `rows` hold a value at `field` and others lack one (missing or null). */
export function mixed(rows: readonly Entity[], field: string): boolean {
  let held = false;
  let lacking = false;
  for (const e of rows) {
    const v = fieldValue(e, field);
    if (v === undefined || v === null) lacking = true;
    else held = true;
    if (held && lacking) return true;
  }
  return false;
}

/**
 * True when two neighbours of sorted `rows` are equal in every sorted field, among the pairs that decide what
 * `rows[from..to)` holds and in which order (those inside it and the two across its edges).
 */
export function tied(
  rows: readonly Entity[],
  terms: readonly SortTerm[],
  from = 0,
  to = rows.length,
): boolean {
  for (let i = Math.max(1, from); i <= Math.min(rows.length - 1, to); i++)
    if (
      terms.every(
        (t) => compareValues(fieldValue(rows[i - 1]!, t.field), fieldValue(rows[i]!, t.field)) === 0,
      )
    )
      return true;
  return false;
}

/**
 * True when a plan keeps every entity of the scope as it is, whole: no filter, search, page, cursor, projection nor
 * envelope leaf (a sort may still order them).
 */
export function keepsWhole(p: QueryPlan): boolean {
  return (
    p.filters.length === 0 &&
    p.searches.length === 0 &&
    p.limit === null &&
    p.offset === 0 &&
    p.page === null &&
    p.projection === null &&
    p.omitted === undefined &&
    p.after === null &&
    p.envelope === undefined
  );
}

/** Runs a plan over a collection's entities: the matching rows in order, their count before the page, or `ambiguous`. */
export function runQueryPlan(
  plan: QueryPlan,
  rows: Entity[],
  idField: string | null = null,
): { rows: Entity[]; total: number; more: boolean } | { ambiguous: string } {
  let out = shownByDefault(plan.defaultFilter, rows, new Set(plan.filters.map((f) => f.field)));
  out = out.filter((e) => passesFilters(e, plan.filters));
  for (const s of plan.searches) {
    const readings = s.caseSensitive.map((cs) => out.filter((e) => searchPasses(e, s.fields, s.term, cs)));
    if (readings.some((r) => r.length !== readings[0]!.length || r.some((e, i) => e !== readings[0]![i])))
      return {
        ambiguous: `the recording confirmed more than one reading of this query, and they answer it differently (whether the search for ${JSON.stringify(s.term)} minds case)`,
      };
    out = readings[0]!;
  }
  const total = out.length;
  if (plan.sort && plan.sortUnplaced) {
    const lacking = plan.sort.find((t) => mixed(out, t.field));
    if (lacking)
      return {
        ambiguous: `no recorded read showed where entities without ${lacking.field} go when sorted by it (apps put them first or last alike), and this read sorts such an entity among others`,
      };
  }
  if (plan.sort) out = sortEntities(out, plan.sort);
  // Only a tie the answer shows matters: inside the page, or across its edges (which entity is on it).
  const first = plan.after === null ? plan.offset : 0;
  const last = plan.after === null && plan.limit !== null ? plan.offset + plan.limit : out.length;
  if (plan.sort && plan.sortUntied && tied(out, plan.sort, first, last))
    return {
      ambiguous: `no recorded read showed in what order entities with equal ${plan.sort.map((t) => t.field).join(", ")} come (apps break such ties by id, by insertion or not at all), and this read's answer holds such a tie`,
    };
  if (plan.after !== null) out = afterCursor(out, plan.after, idField);
  const end = plan.limit === null ? out.length : plan.offset + plan.limit;
  const more = end < out.length;
  out = out.slice(plan.offset, end);
  if (plan.projection) out = out.map((e) => project(e, plan.projection!));
  if (plan.omitted) out = out.map((e) => omitFields(e, plan.omitted!));
  return { rows: out, total, more };
}

/** The counts an envelope leaf may be (an `envelope` rule's `of`), as one read measures them. */
export type EnvelopeMeasures = Record<EnvelopeCount, number>;

const COUNT_WORDS: Record<EnvelopeCount, string> = {
  total: "the matches before the page",
  count: "the entities on the page",
  scope_total: "the entities the plain list shows",
};

/** The words for what an envelope leaf may count (`the matches before the page or …`). */
export function envelopeCountWords(of: readonly EnvelopeCount[]): string {
  return of.map((k) => COUNT_WORDS[k]).join(" or ");
}

/**
 * The value of each envelope leaf a plan adds, or `ambiguous` when the counts the recording left a leaf to be differ
 * on this read (the recording never told them apart, and here they answer otherwise).
 */
export function envelopeValues(
  adds: NonNullable<QueryPlan["envelope"]>,
  measures: EnvelopeMeasures,
): { values: { pointer: string; value: number }[] } | { ambiguous: string; pair: number } {
  const values: { pointer: string; value: number }[] = [];
  for (const f of adds) {
    const got = new Set(f.of.map((k) => measures[k]));
    if (got.size > 1)
      return {
        ambiguous: `the recording did not tell whether ${f.pointer.slice(1).replaceAll("/", ".")} counts ${envelopeCountWords(f.of)}, and on this read they differ`,
        pair: f.pair,
      };
    values.push({ pointer: f.pointer, value: measures[f.of[0]!] });
  }
  return { values };
}
