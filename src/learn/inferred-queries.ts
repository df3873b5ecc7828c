/**
 * Query meanings inferred from sibling collections of the same API (issue 17 items 1 and 6), never proven.
 *
 * Collections whose list routes share a prefix and suffix (`/wp-json/wp/v2/pages`, `/wp-json/wp/v2/tags`;
 * `/projects.json`, `/issues.json`), a parent parameter and an envelope style (bare, items under the route's own
 * name, the same total key) are one API's siblings, and an API speaks one query language. A meaning one of them
 * confirmed (query-rules.ts) for a parameter the other has no rule for is given to the other, labelled
 * `inferred: {from}`:
 *   - a page size, an offset or a page number (`limit`, `offset`, `per_page`, `page`): the parameter as it is;
 *   - a sort (its syntax and companion direction parameter): the sort value names a field of the sibling's own
 *     entities (resolved on them as serve resolves any sort name);
 *   - a full-text search: over the searched fields the sibling's entities hold as text too;
 *   - never a filter (decision): what a field's values are and what the app matches them against belong to each
 *     collection (WordPress filters pages by `status=publish` but comments by `status=approve`, though comments show
 *     `approved`), so a filter inferred from a sibling answered comments?status=approved with a list where the app
 *     gave `[]`: a wrong answer dressed as the app's. The filter code paths below stay for the refusal checks.
 * Refused (not inferred, with the reason, in `query.refused_inferences`) when the siblings that confirmed the
 * parameter disagree on its meaning, when none of its fields is the sibling's, or when a recorded read of the
 * sibling refutes it: a read judged against the state of its moment (state-walk.ts) that the sibling's rules with
 * the inferred one answer otherwise than recorded, or any recorded read whose answer itself contradicts it (an
 * answered entity the filter or search would drop, a sorted answer out of the inferred order, more entities than
 * the inferred page size). A recorded read the inference cannot be checked against (a parameter of it has no
 * meaning) does not speak against it. `learn(…, {infer: false})` (`apptwin build --no-infer`) infers none.
 */
import type { Collection, Entity, QueryRule, SeedState } from "../model/model-schema.js";
import {
  directionOf,
  fieldValue,
  leafValues,
  parseSort,
  type QueryLeaf,
  queryLeaves,
  resolveField,
  searchPasses,
  sortEntities,
  textFields,
  valuePasses,
} from "../model/query-language.js";
import { planQuery, runQueryPlan } from "../model/query-plan.js";
import { type FoundCollection, listEntities } from "./collections.js";
import type { Observation } from "./endpoint-index.js";
import { envelopeStyle, splitList } from "./inferred-routes.js";
import type { QueryRead } from "./query-hypotheses.js";

/** One recorded list read of a collection with a query: its answer, and the state of its moment when judged. */
export interface SiblingRead {
  query: [string, string][];
  answer: Entity[];
  /** The envelope's total, when the answer carries one. */
  total: number | null;
  /** The scope's entities at that moment (state-walk.ts), or null when the recording never listed it whole before. */
  base: Entity[] | null;
}

/** What the inference reads of a collection beside its model: its list route, entities and recorded query reads. */
export interface SiblingInput {
  template: string;
  sample: Entity[];
  reads: SiblingRead[];
}

type Inferable = Extract<QueryRule, { kind: "filter" | "search" | "sort" | "limit" | "offset" | "page" }>;
type Refusal = NonNullable<NonNullable<Collection["query"]>["refused_inferences"]>[number];

const INFERABLE = new Set(["search", "sort", "limit", "offset", "page"]);

const isInferable = (r: QueryRule): r is Inferable =>
  INFERABLE.has(r.kind) && !("inferred" in r && r.inferred);

/** The parameter text a rule is about (`per_page`, `filter[{field}][{op}]`, `{field}`). */
function paramOf(r: Inferable): string {
  if (r.kind !== "filter") return r.path.join(".");
  return r.path
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
}

/** What two siblings' rules for one parameter must share to mean the same (everything but fields and wording). */
function signature(r: Inferable): string {
  const { explain: _e, ...rest } = r;
  if (rest.kind === "filter") {
    const { fields: _f, not_fields: _n, ...syntax } = rest;
    return JSON.stringify(syntax);
  }
  if (rest.kind === "search") return JSON.stringify({ ...rest, fields: null });
  if (rest.kind === "sort") return JSON.stringify({ ...rest, fields: null });
  return JSON.stringify(rest);
}

/** The sibling group of a collection: its list route's prefix and suffix, parent parameter and envelope style. */
function groupOf(c: Collection, input: SiblingInput | undefined): string | null {
  if (!input || c.singleton || c.list_endpoint === null) return null;
  const parts = splitList(input.template);
  if (!parts) return null;
  return JSON.stringify([parts.prefix, parts.suffix, c.parent?.param ?? null, envelopeStyle(c, parts.stem)]);
}

const present = (sample: Entity[], field: string) => sample.some((e) => fieldValue(e, field) !== undefined);

/**
 * A parameter the sibling's list envelope answers back (`echoes`: `{"limit": 2}` for `limit=2`) is answered back by
 * this collection's too, where its plain answers held that key at the sibling's default (`limit: 25` as a constant):
 * the echo is noted in `echoes` to be carried with the rule. Refused where this collection's envelope holds the key
 * at another value, or echoes another parameter there: its answers would then say a page the twin did not give.
 */
function echoCarried(
  sibling: Collection,
  c: Collection,
  param: string,
  echoes: Map<string, { param: string; default: unknown }>,
): { ok: true } | { why: string } {
  if (sibling.envelope.kind !== "object") return { ok: true };
  for (const [key, echo] of Object.entries(sibling.envelope.echoes ?? {})) {
    if (echo.param !== param) continue;
    if (c.envelope.kind !== "object") continue;
    const mine = c.envelope.echoes?.[key];
    if (mine) {
      if (mine.param === param) continue;
      return {
        why: `${sibling.name} answers ${param} back in ${key}, where ${c.name}'s answers echo ${mine.param}`,
      };
    }
    if (!(key in c.envelope.constants)) continue;
    const held = c.envelope.constants[key];
    if (JSON.stringify(held) !== JSON.stringify(echo.default))
      return {
        why: `${sibling.name} answers ${param} back in ${key} (${JSON.stringify(echo.default)} when unset), where every ${c.name} answer held ${JSON.stringify(held)}`,
      };
    echoes.set(key, { param, default: echo.default });
  }
  return { ok: true };
}

/** The rule carried over to a sibling's entities, or a reason it cannot be. */
function carry(r: Inferable, from: string, to: string, sample: Entity[]): Inferable | { why: string } {
  const inferred = { from };
  const note = `inferred from ${from} (a sibling collection of the same API confirmed it; no recorded read of ${to} refutes it, none proves it)`;
  switch (r.kind) {
    case "filter": {
      const fields = Object.fromEntries(Object.entries(r.fields).filter(([, f]) => present(sample, f)));
      if (Object.keys(fields).length === 0)
        return {
          why: `${to}'s entities hold none of the fields ${from} filters on by it (${[...new Set(Object.values(r.fields))].join(", ")})`,
        };
      const { not_fields: _n, ...rest } = r;
      return {
        ...rest,
        fields,
        inferred,
        explain: `${paramOf(r)} filters on ${Object.entries(fields)
          .map(([n, f]) => (n === f ? n : `${n} (${f})`))
          .join(", ")}: ${note}.`,
      };
    }
    case "search": {
      const text = new Set(sample.flatMap(textFields));
      const fields = r.fields.filter((f) => text.has(f));
      if (fields.length === 0)
        return {
          why: `${to}'s entities hold none of the fields ${from} searches as text (${r.fields.join(", ")})`,
        };
      return {
        ...r,
        fields,
        inferred,
        explain: `${paramOf(r)} searches ${fields.join(", ")} for the text: ${note}.`,
      };
    }
    case "sort":
      // The value names a field of this collection's own entities; serve resolves it on them.
      return {
        ...r,
        fields: {},
        inferred,
        explain: `${paramOf(r)} sorts by the field it names${r.direction_path ? `, ${r.direction_path.join(".")} giving the direction` : ""}: ${note}.`,
      };
    default:
      return {
        ...r,
        inferred,
        explain: `${paramOf(r)} is the ${r.kind === "limit" ? "page size" : r.kind === "offset" ? "number of entities skipped" : "page number"}: ${note}.`,
      };
  }
}

/** The leaves of a read the rule speaks of. */
function leavesOf(r: Inferable, leaves: QueryLeaf[], sample: Entity[]): QueryLeaf[] {
  const query = { rules: [r as QueryRule], default_filter: [] };
  return leaves.filter((l) => "plan" in planQuery(query, [l], sample));
}

const ids = (rows: Entity[], idField: string) => rows.map((e) => JSON.stringify(e[idField] ?? null));

/**
 * Why a recorded read refutes the inferred rule, or null. Judged whole (the collection's rules and the inferred one,
 * against the state of its moment) when every parameter then has a meaning; else by what its answer alone shows.
 */
function refutes(r: Inferable, c: Collection, read: SiblingRead, sample: Entity[]): string | null {
  const leaves = queryLeaves(read.query);
  const mine = leavesOf(r, leaves, [...sample, ...read.answer]);
  if (mine.length === 0) return null;
  const shown = `GET ${c.name}?${read.query.map(([k, v]) => `${k}=${v}`).join("&")}`;
  const query = { rules: [...(c.query?.rules ?? []), r], default_filter: c.query?.default_filter ?? [] };
  if (read.base) {
    const planned = planQuery(query, leaves, read.base.slice(0, 50));
    if ("plan" in planned) {
      const got = runQueryPlan(planned.plan, read.base, c.id_field);
      if ("rows" in got) {
        const want = ids(read.answer, c.id_field);
        const have = ids(got.rows, c.id_field);
        if (want.join() !== have.join() || (read.total !== null && read.total !== got.total))
          return `the recorded ${shown} answered [${want.join(", ")}], the inferred meaning gives [${have.join(", ")}] against the state of that moment`;
        return null;
      }
    }
  }
  for (const leaf of mine) {
    if (r.kind === "filter") {
      const planned = planQuery({ rules: [r], default_filter: [] }, [leaf], sample);
      if (!("plan" in planned)) continue;
      const f = planned.plan.filters[0];
      if (f && read.answer.some((e) => !valuePasses(fieldValue(e, f.field), f.op, f.values)))
        return `the recorded ${shown} answered an entity whose ${f.field} the inferred filter drops`;
    } else if (r.kind === "search" && typeof leaf.value === "string") {
      const term = leaf.value;
      const cs = r.case_sensitive ?? false;
      if (read.answer.some((e) => !searchPasses(e, r.fields, term, cs)))
        return `the recorded ${shown} answered an entity whose ${r.fields.join(", ")} hold no ${JSON.stringify(term)}`;
    } else if (r.kind === "limit") {
      const n = Number(leafValues(leaf.value, null)[0]);
      if (read.answer.length > n)
        return `the recorded ${shown} answered ${read.answer.length} entities, more than the inferred page size ${n}`;
    } else if (r.kind === "sort") {
      const terms = parseSort(leaf.value, r.syntax);
      if (!terms) continue;
      const dirLeaf = r.direction_path
        ? leaves.find((l) => l.path.join("\u0000") === r.direction_path!.join("\u0000"))
        : undefined;
      const dir = (dirLeaf && directionOf(dirLeaf.value)) || r.default_direction;
      const resolved = terms.map((t) => ({
        field: resolveField(t.name, [...sample, ...read.answer])[0],
        direction: t.direction ?? dir,
      }));
      if (resolved.some((t) => t.field === undefined))
        return `the recorded ${shown} sorts by a name no field of ${c.name} holds`;
      const sorted = sortEntities(read.answer, resolved as { field: string; direction: "asc" | "desc" }[]);
      if (sorted.some((e, i) => e !== read.answer[i]))
        return `the recorded ${shown} answered entities out of the order the inferred sort gives`;
    }
  }
  return null;
}

/**
 * The collections with every query rule inferred from a sibling added (`inferred: {from}`), and the meanings
 * refused in `query.refused_inferences`, in the input order. Collections with no sibling are returned as they are.
 */
export function inferSiblingQueries(
  collections: Collection[],
  inputs: ReadonlyMap<string, SiblingInput>,
): Collection[] {
  const groups = new Map<string, Collection[]>();
  for (const c of collections) {
    const g = groupOf(c, inputs.get(c.name));
    if (g !== null) groups.set(g, [...(groups.get(g) ?? []), c]);
  }
  return collections.map((c) => {
    const input = inputs.get(c.name);
    const g = groupOf(c, input);
    const siblings = g === null ? [] : groups.get(g)!.filter((s) => s.name !== c.name);
    if (!input || siblings.length === 0 || !c.query) return c;
    const own = new Set(c.query.rules.map((r) => JSON.stringify(r.path)));
    // Per parameter (a rule's path): the siblings' confirmed rules for it.
    const offered = new Map<string, { rule: Inferable; from: string }[]>();
    for (const s of [...siblings].sort((a, b) => (a.name < b.name ? -1 : 1)))
      for (const r of s.query?.rules ?? [])
        if (isInferable(r) && !own.has(JSON.stringify(r.path)))
          offered.set(JSON.stringify(r.path), [
            ...(offered.get(JSON.stringify(r.path)) ?? []),
            { rule: r, from: s.name },
          ]);
    const added: Inferable[] = [];
    const refused: Refusal[] = [];
    // Envelope keys the siblings answer a carried parameter back in (`limit: 2`), carried with it.
    const echoes = new Map<string, { param: string; default: unknown }>();
    // A direction parameter another sibling's sort carries is that sort's, never a parameter of its own here.
    for (const [, offers] of [...offered].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const first = offers[0]!;
      const param = paramOf(first.rule);
      const from = offers.map((o) => o.from).join(", ");
      if (new Set(offers.map((o) => signature(o.rule))).size > 1) {
        refused.push({
          param,
          kind: first.rule.kind,
          from,
          reason: `the siblings (${from}) confirmed different meanings of it`,
        });
        continue;
      }
      const carried = carry(first.rule, first.from, c.name, input.sample);
      if ("why" in carried) {
        refused.push({ param, kind: first.rule.kind, from: first.from, reason: carried.why });
        continue;
      }
      const why = input.reads.map((read) => refutes(carried, c, read, input.sample)).find((w) => w !== null);
      if (why) {
        refused.push({ param, kind: first.rule.kind, from: first.from, reason: why });
        continue;
      }
      const echo = echoCarried(siblings.find((s) => s.name === first.from)!, c, param, echoes);
      if ("why" in echo) {
        refused.push({ param, kind: first.rule.kind, from: first.from, reason: echo.why });
        continue;
      }
      added.push(carried);
    }
    if (added.length === 0 && refused.length === 0) return c;
    const envelope =
      echoes.size > 0 && c.envelope.kind === "object"
        ? {
            ...c.envelope,
            constants: Object.fromEntries(
              Object.entries(c.envelope.constants).filter(([k]) => !echoes.has(k)),
            ),
            echoes: { ...(c.envelope.echoes ?? {}), ...Object.fromEntries(echoes) },
          }
        : c.envelope;
    return {
      ...c,
      envelope,
      query: {
        ...c.query,
        rules: [...c.query.rules, ...added],
        ...(refused.length > 0 ? { refused_inferences: refused } : {}),
      },
    };
  });
}

/** Each collection's list route, entities and recorded query reads (with the state of their moment when judged). */
export function siblingInputs(
  found: readonly FoundCollection[],
  queries: ReadonlyMap<Observation, QueryRead>,
  seed: SeedState,
): Map<string, SiblingInput> {
  const out = new Map<string, SiblingInput>();
  for (const f of found) {
    const itemsKey = f.envelope.kind === "object" ? f.envelope.items_key : null;
    const totalKey = f.envelope.kind === "object" ? f.envelope.total_key : null;
    const reads: SiblingRead[] = [];
    for (const o of f.list.observations) {
      if (o.query.length === 0 || o.status < 200 || o.status >= 300 || o.response.kind !== "json") continue;
      const body = o.response.value;
      const listed = listEntities(body, itemsKey);
      if (!listed) continue;
      const total =
        totalKey && body !== null && typeof body === "object" && !Array.isArray(body)
          ? (body as Record<string, unknown>)[totalKey]
          : undefined;
      reads.push({
        query: o.query,
        answer: listed.entities,
        total: typeof total === "number" ? total : null,
        base: queries.get(o)?.base ?? null,
      });
    }
    out.set(f.name, {
      template: f.list.template,
      sample: (seed.collections[f.name] ?? []).slice(0, 50),
      reads,
    });
  }
  return out;
}
