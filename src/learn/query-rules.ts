/**
 * Turns the explanations of every recorded query read of a collection into
 * the query rules the recording confirms. A meaning is kept for a syntax
 * (`filter/where/{field}/{op}`, `sort=<field>:<dir>`, `per_page`…) only when
 * no explained read contradicts it — a read whose leaf it could mean but no
 * explanation of the read lets it mean — and at least one read needed it to
 * change the answer. Contradicted meanings are dropped until nothing changes.
 * A leaf whose only explanation is "no effect" confirms exactly that value as
 * having none (`status_id=*`). Reads nothing explains are replayed.
 */
import type { Collection, QueryRule, QuerySegment } from "../model/model-schema.js";
import {
  foreignValue,
  leafValues,
  type QueryLeaf,
  type QueryOp,
  queryText,
} from "../model/query-language.js";
import { mixed, tied } from "../model/query-plan.js";
import {
  candidateKeys,
  type Explanation,
  explainRead,
  LIST_OPS,
  leafCandidates,
  type Meaning,
  type QueryRead,
  tooManyCombinations,
} from "./query-hypotheses.js";

/** A recorded read with a query, and the state it was made against. */
export interface RecordedQueryRead<O> {
  obs: O;
  read: QueryRead;
}

/** What the collection's query reads confirmed. */
export interface LearnedQuery<O> {
  rules: QueryRule[];
  /** The reads the rules explain (served from state; the rest replay). */
  explained: Set<O>;
  /** Legacy `filters` (an equality on a top-level field named by a top-level parameter) and `pagination`. */
  filters: Collection["filters"];
  pagination: Collection["pagination"];
}

/** Which meaning wins when several explain a leaf: the simplest first. */
const PRIORITY: Meaning["kind"][] = [
  "filter",
  "limit",
  "offset",
  "page",
  "sort",
  "direction",
  "fields",
  "search",
  "cursor",
  "ignore",
  "word",
];

interface Analysed<O> {
  obs: O;
  read: QueryRead;
  all: Explanation[];
  cands: Set<string>[];
  /** Per leaf: the field name each candidate filter key would read it by. */
  filterNames: Map<string, string>[];
  /**
   * Per leaf: the filter keys whose every reading of it holds a value of a kind its field never holds
   * (`project_id=website` on the integer `project.id`): serve never filters by such a value (query-plan.ts), so a
   * read where it meant something else speaks against no filter syntax (it may be a word or identifier of the app's).
   */
  foreign: Set<string>[];
  /** True when the read held too many combinations to try: it is replayed, and speaks against no group. */
  untried: boolean;
}

function aliveExplanations<O>(a: Analysed<O>, alive: Set<string>): Explanation[] {
  return a.all.filter((e) => e.meanings.every((m) => alive.has(m.key)));
}

/** True for the key of a filter inside an `or`/`and` group (a `{any}`/`{all}` branch in its pattern). */
const isGroupKey = (k: string) => k.startsWith("filter|") && (k.includes("/{any}/") || k.includes("/{all}/"));

/**
 * The contradicted keys: a leaf that could mean one, in a read that has explanations, none of which lets it. A
 * group's key is held to every read that holds it: one whose answer it does not explain, even a read nothing
 * explains, contradicts it (the spelling of `or` is a hypothesis each recorded answer must bear out).
 */
function contradicted<O>(reads: Analysed<O>[], alive: Set<string>): Set<string> {
  const out = new Set<string>();
  for (const a of reads) {
    const live = aliveExplanations(a, alive);
    if (!a.untried)
      a.read.leaves.forEach((_, i) => {
        const used = new Set(live.map((e) => e.meanings[i]!.key));
        for (const k of a.cands[i]!) if (isGroupKey(k) && alive.has(k) && !used.has(k)) out.add(k);
      });
    if (live.length === 0) continue;
    a.read.leaves.forEach((_, i) => {
      const used = new Set(live.map((e) => e.meanings[i]!.key));
      // The leaf had no effect for this very value and nothing else fits: an exception, not a contradiction.
      if ([...used].every((k) => k.startsWith("ignore|"))) return;
      // A word of this value may select (`status_id=closed`): the leaf does not speak against the filter syntax
      // other names follow (`project_id=1`), as a value that changed nothing does not.
      const word = [...used].some((k) => k.startsWith("word|"));
      // A value spelling its operator (`subject=~login`) was read by it: it does not speak against the plain
      // equality of the same pattern (`status_id=2`), which a value with no operator symbol keeps.
      const spelt = [...used].flatMap((k) => {
        const at = k.indexOf("|value_op:");
        return k.startsWith("filter|") && at > 0 ? [`${k.slice(0, at)}|eq|`] : [];
      });
      for (const k of a.cands[i]!)
        if (
          alive.has(k) &&
          !used.has(k) &&
          !(word && k.startsWith("filter|")) &&
          !spelt.some((p) => k.startsWith(p)) &&
          !a.foreign[i]!.has(k)
        )
          out.add(k);
    });
  }
  return out;
}

/**
 * The word meanings the recording does not decide between: for one parameter and word (`status_id=open`), two
 * boolean fields or truth values that every read leaves alive. Neither is taken (the read is replayed or missed).
 */
function undecidedWords<O>(reads: Analysed<O>[], alive: Set<string>): Set<string> {
  const byWord = new Map<string, Set<string>>();
  for (const a of reads)
    for (const e of aliveExplanations(a, alive))
      for (const m of e.meanings)
        if (m.kind === "word") {
          const word = `${JSON.stringify(m.path)}=${m.value}`;
          byWord.set(word, new Set([...(byWord.get(word) ?? []), m.key]));
        }
  return new Set([...byWord.values()].filter((keys) => keys.size > 1).flatMap((keys) => [...keys]));
}

/**
 * What a parameter's name suggests it means. Used only to choose among explanations the recording confirms
 * equally (`limit=2&offset=2` reads the same either way round): never to give a meaning the evidence did not.
 */
const NAME_HINTS: [Meaning["kind"], RegExp][] = [
  ["limit", /^(limit|per_?page|page_?size|size|take|top|max|first|_limit|rows)$/i],
  ["offset", /^(offset|skip|start|from|_start)$/i],
  ["page", /^(page|p|_page|page_?num(ber)?)$/i],
  ["sort", /^(sort|order|order_?by|sort_?by|_sort|ordering)$/i],
  ["direction", /^(order|dir|direction|sort_?dir|_order)$/i],
  ["search", /^(q|search|query|s|term|keywords?|_q)$/i],
  ["fields", /^(fields|_fields|select|only|attributes)$/i],
];

/** Sort spellings a bare name fits alike, in the order one is taken when the recording does not tell them apart. */
const SORT_STYLES = ["minus", "colon", "space", "dot", "bare"];

function nameFit(m: Meaning): number {
  const path = "path" in m ? m.path : m.pattern.map((s) => ("literal" in s ? s.literal : ""));
  const name = path[path.length - 1] ?? "";
  if (m.kind === "filter") return 1;
  const hinted = NAME_HINTS.filter(([, re]) => re.test(name)).map(([k]) => k);
  return hinted.includes(m.kind) ? 0 : hinted.length === 0 ? 1 : 2;
}

/**
 * The explanation a read is taken to have among its live ones: leaf by leaf, a meaning its name suggests, then one
 * other reads were left no choice but (`forced`), then the simplest kind, then the key, so the choice is stable.
 */
function best(live: Explanation[], forced: Map<string, number>): Explanation {
  const score = (e: Explanation) =>
    e.meanings.flatMap((m) => [
      nameFit(m),
      -(forced.get(m.key) ?? 0),
      PRIORITY.indexOf(m.kind),
      m.kind === "sort" ? SORT_STYLES.indexOf(m.syntax.style) : 0,
    ]);
  return [...live].sort((x, y) => {
    const a = score(x);
    const b = score(y);
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
    const ka = x.meanings.map((m) => m.key).join("\u0000");
    const kb = y.meanings.map((m) => m.key).join("\u0000");
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  })[0]!;
}

const pathOf = (p: QuerySegment[]) =>
  p
    .map((s) =>
      "literal" in s
        ? s.literal
        : "field" in s
          ? "{field}"
          : "op" in s
            ? "{op}"
            : "branch" in s
              ? `{${s.branch}}`
              : `{field}${s.field_op}{op}`,
    )
    .join(".");
const leafText = (l: QueryLeaf) =>
  `${l.path.join(".")}=${Array.isArray(l.value) ? l.value.join(",") : queryText(l.value)}`;

/** Learns the collection's query rules from its recorded query reads. */
export function learnQueryRules<O>(recorded: RecordedQueryRead<O>[]): LearnedQuery<O> {
  const analysed: Analysed<O>[] = recorded.map(({ obs, read }) => {
    const sample = [...read.base.slice(0, 50), ...read.answer.slice(0, 50)];
    const filterNames = read.leaves.map(
      (l) =>
        new Map(
          leafCandidates(l, sample).flatMap((m) =>
            m.kind === "filter" ? [[m.key, m.name] as [string, string]] : [],
          ),
        ),
    );
    const foreign = read.leaves.map((l) => {
      const byKey = new Map<string, boolean>();
      for (const m of leafCandidates(l, sample))
        if (m.kind === "filter")
          byKey.set(
            m.key,
            (byKey.get(m.key) ?? true) &&
              m.valueOp === null &&
              foreignValue(leafValues(l.value, m.listSeparator), m.field, read.base) !== null,
          );
      return new Set([...byKey].filter(([, f]) => f).map(([k]) => k));
    });
    const all = explainRead(read);
    return {
      obs,
      read,
      foreign,
      all,
      untried: all.length === 0 && tooManyCombinations(read),
      cands: read.leaves.map((l) => candidateKeys(l, sample, read.cursor)),
      filterNames,
    };
  });
  const alive = new Set(analysed.flatMap((a) => a.all.flatMap((e) => e.meanings.map((m) => m.key))));
  for (let round = 0; round < 50; round++) {
    const bad = new Set([...contradicted(analysed, alive), ...undecidedWords(analysed, alive)]);
    if (bad.size === 0) break;
    for (const k of bad) alive.delete(k);
  }
  // Per syntax key: the chosen meanings (the simplest live one of each leaf), and whether one changed its answer.
  const chosen = new Map<
    string,
    {
      meanings: Meaning[];
      decisive: boolean;
      reads: Set<O>;
      leaves: string[];
      missingSeen?: boolean;
      tiesSeen?: boolean;
    }
  >();
  const explained = new Set<O>();
  const perRead = new Map<O, string[]>();
  // A sort's companion direction parameter (`order=desc` beside `orderby=title`), by the sort's key.
  const companions = new Map<string, string[]>();
  // Per filter key: the names a read showed to change nothing, so the syntax does not speak for them.
  const refuted = new Map<string, Set<string>>();
  // How many reads left a key no alternative at its leaf.
  const forced = new Map<string, number>();
  for (const a of analysed) {
    const live = aliveExplanations(a, alive);
    a.read.leaves.forEach((_, i) => {
      const keys = new Set(live.map((e) => e.meanings[i]!.key));
      if (keys.size === 1) {
        const k = [...keys][0]!;
        forced.set(k, (forced.get(k) ?? 0) + 1);
      }
    });
  }
  for (const a of analysed) {
    const live = aliveExplanations(a, alive);
    if (live.length === 0) continue;
    const keys: string[] = [];
    const pick = best(live, forced);
    const picked = pick.meanings;
    // A filter value of a kind its field never holds (`status_id=bogus` on integer ids) is not served by the filter
    // (query-plan.ts): the read is replayed as recorded, and its empty answer confirms nothing of the syntax.
    let foreign = false;
    a.read.leaves.forEach((leaf, i) => {
      const m = picked[i]!;
      const odd =
        m.kind === "filter" &&
        m.valueOp === null &&
        foreignValue(leafValues(leaf.value, m.listSeparator), m.field, a.read.base) !== null;
      foreign ||= odd;
      const decisive = !odd && live.some((e) => e.meanings[i]!.key === m.key && e.decisive[i]);
      let c = chosen.get(m.key);
      if (!c) {
        c = { meanings: [], decisive: false, reads: new Set(), leaves: [] };
        chosen.set(m.key, c);
      }
      // A name this read showed not to filter (its value changed nothing) never takes the filter's meaning by syntax.
      if (m.kind === "ignore")
        for (const [k, name] of a.filterNames[i]!) refuted.set(k, new Set([...(refuted.get(k) ?? []), name]));
      // A sort whose answer placed an entity lacking the field among others shows where such entities go.
      if (m.kind === "sort" && m.terms.some((t) => mixed(a.read.answer, t.field))) c.missingSeen = true;
      // A sort whose answer held two entities equal in every sorted field shows ties kept in list order (stable).
      if (
        m.kind === "sort" &&
        tied(
          a.read.answer,
          m.terms.map((t) => ({ field: t.field, direction: "asc" as const })),
        )
      )
        c.tiesSeen = true;
      const fields = pick.searchFields.get(i);
      c.meanings.push(m.kind === "search" && fields ? { ...m, seen: fields } : m);
      c.decisive ||= decisive;
      c.reads.add(a.obs);
      c.leaves.push(leafText(leaf));
      keys.push(m.key);
    });
    if (!foreign) perRead.set(a.obs, keys);
    const sort = picked.find((m) => m.kind === "sort");
    const dir = picked.find((m) => m.kind === "direction");
    if (sort && dir) companions.set(sort.key, dir.path);
  }
  const confirmed = new Set(
    [...chosen.entries()].filter(([k, c]) => c.decisive || k.startsWith("ignore|")).map(([k]) => k),
  );
  for (const [obs, keys] of perRead) if (keys.every((k) => confirmed.has(k))) explained.add(obs);
  const rules = [...confirmed]
    .sort()
    .map((k) => toRule(chosen.get(k)!, companions.get(k) ?? null, refuted.get(k) ?? null))
    .filter((r): r is QueryRule => r !== null);
  return { rules: mergeIgnores(rules), explained, ...legacy(rules) };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** The rule a confirmed key stands for, from the meanings chosen under it. */
function toRule(
  c: {
    meanings: Meaning[];
    reads: Set<unknown>;
    leaves: string[];
    missingSeen?: boolean;
    tiesSeen?: boolean;
  },
  companion: string[] | null,
  refutedNames: Set<string> | null,
): QueryRule | null {
  const m = c.meanings[0]!;
  const seen = `confirmed by ${plural(c.reads.size, "recorded read")} (${[...new Set(c.leaves)].slice(0, 3).join("; ")})`;
  switch (m.kind) {
    case "filter": {
      const fields: Record<string, string> = {};
      const ops: Record<string, QueryOp> = {};
      for (const x of c.meanings as Extract<Meaning, { kind: "filter" }>[]) {
        fields[x.name] ??= x.field;
        if (x.opToken !== null) ops[x.opToken] = x.op;
      }
      const slot = m.pattern.some((s) => "op" in s || "field_op" in s) || m.valueOp !== null;
      const prefix = slot ? (/^([$_]?)/.exec(m.opToken ?? "")?.[1] ?? "") : null;
      const listSplit = slot
        ? (c.meanings as Extract<Meaning, { kind: "filter" }>[]).find(
            (x) => LIST_OPS.has(x.op) && x.listSeparator,
          )
        : undefined;
      // `or` / `$and` groups along the path, outermost first: what must hold of their branches.
      const groups = m.pattern.flatMap((s, j) => {
        const token = m.pattern[j - 1];
        return "branch" in s && token && "literal" in token
          ? [`${s.branch === "any" ? "any" : "every"} branch of ${JSON.stringify(token.literal)} holding`]
          : [];
      });
      return {
        kind: "filter",
        path: m.pattern,
        op: slot ? null : "eq",
        op_tokens: ops,
        op_prefix: prefix,
        list_separator: slot ? null : m.listSeparator,
        ...(listSplit?.listSeparator && m.valueOp === null
          ? { op_list_separator: listSplit.listSeparator }
          : {}),
        ...(m.valueOp !== null ? { value_op: { separator: m.valueOp } } : {}),
        fields,
        ...(refutedNames ? { not_fields: [...refutedNames].filter((n) => !(n in fields)).sort() } : {}),
        explain: `${pathOf(m.pattern)} filters on the field the name gives${groups.length > 0 ? ` (${groups.join(", within ")}: a branch holds when all of its conditions do)` : ""}${m.valueOp === "" ? ", by the operator symbol the value begins with" : m.valueOp !== null ? `, by the operator the value spells before "${m.valueOp}"` : slot ? ", by the operator the last name spells" : m.listSeparator ? ` (a "${m.listSeparator}"-separated value is any of its values)` : ""}; ${seen}.`,
      };
    }
    case "search": {
      const seenFields = (c.meanings as Extract<Meaning, { kind: "search" }>[]).map(
        (x) => x.seen ?? { fields: [], bad: [] },
      );
      const bad = new Set(seenFields.flatMap((x) => x.bad));
      const fields = [...new Set(seenFields.flatMap((x) => x.fields))].filter((f) => !bad.has(f)).sort();
      if (fields.length === 0) return null;
      return {
        kind: "search",
        path: m.path,
        fields,
        case_sensitive: m.caseSensitive,
        explain: `${m.path.join(".")} searches ${fields.join(", ")} for the text (${m.caseSensitive ? "case-sensitive" : "case folded"}); ${seen}.`,
      };
    }
    case "sort": {
      const fields: Record<string, string> = {};
      for (const x of c.meanings as Extract<Meaning, { kind: "sort" }>[])
        for (const t of x.terms) fields[t.name] ??= t.field;
      return {
        kind: "sort",
        path: m.path,
        syntax: m.syntax,
        direction_path: companion,
        default_direction: "asc",
        fields,
        ...(c.missingSeen ? { missing: "greatest" as const } : {}),
        ...(c.tiesSeen ? { ties: "list_order" as const } : {}),
        explain: `${m.path.join(".")} sorts by the fields it names (${m.syntax.style === "minus" ? "-field for descending" : m.syntax.style === "colon" ? "field:desc for descending" : m.syntax.style === "dot" ? "field.desc for descending" : '"field DESC" for descending'}); ${seen}.`,
      };
    }
    case "direction":
      return null;
    case "limit":
    case "offset":
      return {
        kind: m.kind,
        path: m.path,
        explain: `${m.path.join(".")} is the ${m.kind === "limit" ? "page size (at most that many entities)" : "number of entities skipped"}; ${seen}.`,
      };
    case "page":
      return {
        kind: "page",
        path: m.path,
        base: m.base,
        explain: `${m.path.join(".")} is the page number (the first is ${m.base}) of the size the limit parameter gives; ${seen}.`,
      };
    case "fields":
      return {
        kind: "fields",
        path: m.pattern,
        syntax: m.syntax,
        explain: `${pathOf(m.pattern)} ${m.syntax === "list" ? "lists the fields each entity is cut down to" : m.syntax === "keys" ? "selects a field each entity is cut down to" : "names a field left out of each entity (the value false)"}; ${seen}.`,
      };
    case "cursor":
      return {
        kind: "cursor",
        path: m.path,
        codec: m.codec,
        explain: `${m.path.join(".")} is the cursor a list answer gave: the page after the entity it names (${m.codec.codec === "plain" ? "" : `${m.codec.codec} of `}${JSON.stringify(m.codec.template)}); ${seen}.`,
      };
    case "word":
      return {
        kind: "word",
        path: m.path,
        value: m.value,
        field: m.field,
        equals: m.equals,
        explain: `${m.path.join(".")}=${m.value} selects the entities whose ${m.field} is ${m.equals}; ${seen}.`,
      };
    case "ignore":
      return {
        kind: "ignore",
        path: m.path,
        values: [...new Set((c.meanings as Extract<Meaning, { kind: "ignore" }>[]).map((x) => x.value))],
        explain: `${m.path.join(".")}=${m.value} changed nothing (answered as without it); ${seen}.`,
      };
  }
}

/** One ignore rule per path with every value seen; a path whose values were new on every read is a cache-buster (any value). */
function mergeIgnores(rules: QueryRule[]): QueryRule[] {
  const out: QueryRule[] = [];
  const ignores = new Map<string, Extract<QueryRule, { kind: "ignore" }>>();
  for (const r of rules) {
    if (r.kind !== "ignore") {
      out.push(r);
      continue;
    }
    const k = JSON.stringify(r.path);
    const prev = ignores.get(k);
    if (prev) prev.values = [...new Set([...(prev.values ?? []), ...(r.values ?? [])])].sort();
    else ignores.set(k, { ...r, values: [...(r.values ?? [])] });
  }
  for (const r of ignores.values()) {
    const values = r.values ?? [];
    // Distinct on every read and numeric like a clock: a cache-buster whose value never mattered.
    if (values.length >= 2 && values.every((v) => /^\d{10,13}$/.test(v)))
      out.push({
        ...r,
        values: null,
        explain: `${r.path.join(".")} is new on every read and changed nothing: a cache-buster, ignored.`,
      });
    else out.push(r);
  }
  return out;
}

/** The legacy `filters` and `pagination` the new rules imply, for readers of models written before `query`. */
function legacy(rules: QueryRule[]): {
  filters: Collection["filters"];
  pagination: Collection["pagination"];
} {
  const filters: Collection["filters"] = [];
  for (const r of rules)
    if (r.kind === "filter" && r.path.length === 1 && r.op === "eq" && r.list_separator === null)
      for (const [param, field] of Object.entries(r.fields))
        if (!field.includes(".")) filters.push({ param, field, kind: "equals" });
  const limit = rules.find((r) => r.kind === "limit" && r.path.length === 1);
  const offset = rules.find((r) => r.kind === "offset" && r.path.length === 1);
  return {
    filters: filters.sort((a, b) => (a.param < b.param ? -1 : 1)),
    pagination:
      limit && offset
        ? {
            limit_param: (limit as { path: string[] }).path[0]!,
            offset_param: (offset as { path: string[] }).path[0]!,
          }
        : null,
  };
}
