/**
 * Answers shaped by a request header (issue 17 item 2): one collection the app renders two ways by `Accept` (or an
 * API-version header), `application/json` a bare array of flat rows, `application/vnd.…v2+json` `{items, total}` of
 * rows with nested stats. Learned by hypothesis:
 * - the header is the one `varyHeader` (read-model.ts) finds splitting the answers of one exact read into one shape
 *   per value; the primary value is the one the writes send (else the one most reads send), and a variant value is
 *   one whose answers had another shape than the primary's at the same read (`findHeaderSplit`);
 * - the variant's reads are kept out of everything else learned (the collection is learned from the primary reads);
 * - a variant is a rendering of the primary entities: every leaf of a variant entity is, in every pair with the
 *   primary entity of the same id as the latest primary read before it showed it (no write between), the same
 *   primary leaf (`/stats/views` ← `/views`; the same pointer when it fits, else the one leaf that does), and every
 *   variant list read the primary query plan over the primary full list of its moment answers with the same ids in
 *   the same order (and total) (`learnVariants`).
 * Rejected: a variant leaf no primary leaf or two explain (the evidence does not decide), a list read whose ids
 * differ, an entity without the primary id field. A rejected variant's reads are replayed, keyed on the header.
 */
import type { CannedResponse, Collection, Entity, Replay } from "../model/model-schema.js";
import { queryLeaves } from "../model/query-language.js";
import { planQuery, runQueryPlan } from "../model/query-plan.js";
import { detectEnvelope, detectItemEnvelope, type FoundCollection, listEntities } from "./collections.js";
import type { EndpointGroup, Observation } from "./endpoint-index.js";
import { buildReplays, requestHeader, shapeOf, varyHeader } from "./read-model.js";

/** The request header the answers' shape depends on, the value the primary reads send, and the variant values. */
export interface HeaderSplit {
  header: string;
  primary: string;
  variants: string[];
}

const ok = (o: Observation) => o.status >= 200 && o.status < 300;
const isWrite = (o: Observation) => o.method !== "GET" && o.method !== "HEAD" && o.method !== "OPTIONS";

/** The header whose values split some exact read's answers into shapes, with the primary and variant values. */
export function findHeaderSplit(groups: EndpointGroup[]): HeaderSplit | null {
  const found = new Map<string, Map<string, Map<string, string>>>();
  for (const g of groups) {
    if (g.method !== "GET") continue;
    const byKey = new Map<string, Observation[]>();
    for (const o of g.observations)
      if (ok(o)) byKey.set(o.pathAndQuery, [...(byKey.get(o.pathAndQuery) ?? []), o]);
    for (const [key, obs] of byKey) {
      const header = varyHeader(obs);
      if (header === null) continue;
      const shapes = new Map<string, string>();
      for (const o of obs) shapes.set(requestHeader(o, header), shapeOf(o));
      const at = found.get(header) ?? new Map<string, Map<string, string>>();
      at.set(`${g.key} ${key}`, shapes);
      found.set(header, at);
    }
  }
  if (found.size !== 1) return null;
  const [header, reads] = [...found][0]!;
  const count = (values: string[]) => {
    const n = new Map<string, number>();
    for (const v of values) n.set(v, (n.get(v) ?? 0) + 1);
    return [...n].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1));
  };
  const writes = groups.flatMap((g) => g.observations.filter(isWrite).map((o) => requestHeader(o, header)));
  const gets = groups.flatMap((g) =>
    g.method === "GET" ? g.observations.map((o) => requestHeader(o, header)) : [],
  );
  const primary = count(writes.length > 0 ? writes : gets)[0]?.[0];
  if (primary === undefined) return null;
  const variants = new Set<string>();
  for (const shapes of reads.values()) {
    const mine = shapes.get(primary);
    if (mine === undefined) continue;
    for (const [v, s] of shapes) if (v !== primary && s !== mine) variants.add(v);
  }
  return variants.size > 0 ? { header, primary, variants: [...variants].sort() } : null;
}

/** The variant reads taken out of their groups (only groups that keep a primary read), and the rest. */
export function splitVariantReads(
  groups: EndpointGroup[],
  observations: Observation[],
  split: HeaderSplit,
): { variantReads: Observation[]; observations: Observation[] } {
  const variant = (o: Observation) =>
    o.method === "GET" && split.variants.includes(requestHeader(o, split.header));
  const taken = new Set<Observation>();
  for (const g of groups) {
    if (g.method !== "GET") continue;
    const mine = g.observations.filter(variant);
    if (mine.length === 0 || mine.length === g.observations.length) continue;
    for (const o of mine) taken.add(o);
    g.observations = g.observations.filter((o) => !taken.has(o));
  }
  return {
    variantReads: observations.filter((o) => taken.has(o)),
    observations: observations.filter((o) => !taken.has(o)),
  };
}

/**
 * The variant reads of a collection's list or item route; the others are put back in their routes' observations
 * (in evidence order), as no collection renders them.
 */
export function keepCollectionVariants(
  parted: { variantReads: Observation[]; observations: Observation[] },
  found: FoundCollection[],
): { variantReads: Observation[]; observations: Observation[] } {
  const routes = new Set(found.flatMap((c) => (c.item ? [c.list, c.item] : [c.list])));
  const back = parted.variantReads.filter((o) => !routes.has(o.endpoint));
  if (back.length === 0) return parted;
  const byIndex = (a: Observation, b: Observation) => a.index - b.index;
  for (const g of new Set(back.map((o) => o.endpoint)))
    g.observations = [...g.observations, ...back.filter((o) => o.endpoint === g)].sort(byIndex);
  return {
    variantReads: parted.variantReads.filter((o) => routes.has(o.endpoint)),
    observations: [...parted.observations, ...back].sort(byIndex),
  };
}

type Variant = NonNullable<Collection["variants"]>[number];

/** The scalar leaves of an entity by RFC 6901 pointer (objects walked, at most 3 deep; an array is one leaf). */
function leaves(value: unknown, pointer: string, depth: number, out: Map<string, string>): void {
  if (value !== null && typeof value === "object" && !Array.isArray(value) && depth < 3) {
    for (const [k, v] of Object.entries(value))
      leaves(v, `${pointer}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`, depth + 1, out);
    return;
  }
  if (pointer !== "") out.set(pointer, JSON.stringify(value));
}

const leafMap = (e: Entity) => {
  const m = new Map<string, string>();
  leaves(e, "", 0, m);
  return m;
};

/**
 * The variants of every collection the variant reads confirm, by collection name, and the reads they explain (served
 * from state; the rest are replayed keyed on the header).
 */
export function learnVariants(
  split: HeaderSplit,
  variantReads: Observation[],
  found: FoundCollection[],
  collections: Collection[],
  ordered: Observation[],
): { variants: Map<string, Variant[]>; served: Set<Observation> } {
  const variants = new Map<string, Variant[]>();
  const served = new Set<Observation>();
  const at = (o: Observation) => o.time ?? Number.NEGATIVE_INFINITY;
  const timeline = [...ordered, ...variantReads].sort((a, b) => at(a) - at(b) || a.index - b.index);
  for (const fc of found) {
    const col = collections.find((c) => c.name === fc.name);
    if (!col) continue;
    for (const value of split.variants) {
      const mine = variantReads.filter(
        (o) => requestHeader(o, split.header) === value && (o.endpoint === fc.list || o.endpoint === fc.item),
      );
      if (mine.length === 0) continue;
      // A rendering the reads do not confirm is still named, so no read asking for it gets the primary one.
      const v = learnVariant(fc, col, split.header, value, mine, timeline) ?? {
        variant: {
          header: split.header,
          value,
          content_type: null,
          envelope: null,
          item_envelope: null,
          fields: [],
          not_found: null,
          explain: `${split.header}: ${value} renders ${fc.name} otherwise, and the recorded reads did not confirm how (a leaf no primary field gives, or a list that is not the primary query's answer): they are replayed, keyed on ${split.header}.`,
        },
        served: [],
      };
      variants.set(fc.name, [...(variants.get(fc.name) ?? []), v.variant]);
      for (const o of v.served) served.add(o);
    }
  }
  return { variants, served };
}

/** One collection's variant for one header value, or null when its reads do not confirm one. */
function learnVariant(
  fc: FoundCollection,
  col: Collection,
  header: string,
  value: string,
  mine: Observation[],
  timeline: Observation[],
): { variant: Variant; served: Observation[] } | null {
  if (fc.tree) return null;
  const mineSet = new Set(mine);
  const lists = mine.filter((o) => o.endpoint === fc.list && ok(o) && o.response.kind === "json");
  const items = mine.filter((o) => o.endpoint === fc.item && ok(o) && o.response.kind === "json");
  const misses = mine.filter((o) => o.endpoint === fc.item && (o.status === 404 || o.status === 410));
  const got = lists.map((o) => listEntities(o.response.kind === "json" ? o.response.value : undefined));
  if (got.some((g) => g === null) || new Set(got.map((g) => g!.key)).size > 1) return null;
  const listBodies = lists.map((o) => (o.response.kind === "json" ? o.response.value : undefined));
  const envelope =
    lists.length > 0
      ? detectEnvelope(
          listBodies,
          got[0]!.key,
          got.map((g) => g!.entities),
          lists,
        )
      : null;
  const itemEnvelope =
    items.length > 0
      ? detectItemEnvelope(
          items,
          got.map((g) => g!.entities),
        )
      : null;
  // The primary entities known at each moment (since the last write), and the primary full list then.
  const known = new Map<string, Entity>();
  let full: Entity[] | null = null;
  const pairs: [Entity, Entity][] = [];
  const paired = new Set<Observation>();
  const listChecks: { o: Observation; ids: string[]; total: number | null; full: Entity[] | null }[] = [];
  const idOf = (e: Entity) => {
    const id = e[fc.idField];
    return typeof id === "string" || typeof id === "number" ? String(id) : null;
  };
  for (const o of timeline) {
    if (isWrite(o) && (ok(o) || (o.status >= 300 && o.status < 400))) {
      known.clear();
      full = null;
      continue;
    }
    const body = o.response.kind === "json" ? o.response.value : undefined;
    if (!ok(o) || body === undefined) continue;
    if (mineSet.has(o)) {
      const entities =
        o.endpoint === fc.list
          ? (listEntities(body, got[0]?.key ?? null)?.entities ?? [])
          : [itemEnvelope?.kind === "object" ? (body as Entity)[itemEnvelope.item_key] : body].filter(
              (e): e is Entity => e !== null && typeof e === "object" && !Array.isArray(e),
            );
      for (const e of entities) {
        const id = idOf(e);
        if (id === null) return null;
        const p = known.get(id);
        if (p) {
          pairs.push([e, p]);
          paired.add(o);
        }
      }
      if (o.endpoint === fc.list) {
        const total =
          envelope?.kind === "object" && envelope.total_key !== null
            ? ((body as Entity)[envelope.total_key] as number)
            : null;
        listChecks.push({ o, ids: entities.map((e) => idOf(e)!), total, full });
      }
      continue;
    }
    if (o.query.length > 0) continue;
    if (o.endpoint === fc.list) {
      const listed = listEntities(body, fc.envelope.kind === "object" ? fc.envelope.items_key : null);
      if (!listed) continue;
      full = listed.entities;
      known.clear();
      for (const e of listed.entities) if (idOf(e) !== null) known.set(idOf(e)!, e);
    } else if (o.endpoint === fc.item) {
      const e = fc.itemEnvelope.kind === "object" ? (body as Entity)[fc.itemEnvelope.item_key] : body;
      if (e && typeof e === "object" && !Array.isArray(e) && idOf(e as Entity) !== null)
        known.set(idOf(e as Entity)!, e as Entity);
    }
  }
  if (pairs.length === 0) return null;
  const fields = renderFields(pairs);
  if (!fields) return null;
  // Every variant list read whose moment has a primary full list: the primary plan answers the same ids and total.
  const query = col.query ?? { rules: [], default_filter: [] };
  const confirmed = new Set<Observation>();
  for (const check of listChecks) {
    if (check.full === null) continue;
    const planned = planQuery(query, queryLeaves(check.o.query), check.full.slice(0, 50));
    if ("unlearned" in planned) continue;
    const ran = runQueryPlan(planned.plan, check.full, fc.idField);
    if ("ambiguous" in ran) continue;
    const ids = ran.rows.map((e) => idOf(e));
    if (ids.join("\u0000") !== check.ids.join("\u0000")) return null;
    if (check.total !== null && check.total !== ran.total) return null;
    confirmed.add(check.o);
  }
  const listsConfirmed = confirmed.size;
  const contentTypes = [...new Set([...lists, ...items].map((o) => o.contentType ?? ""))];
  const miss = misses[0];
  const notFound: CannedResponse | null = miss
    ? {
        status: miss.status,
        content_type: miss.contentType,
        body: miss.response.kind === "json" ? miss.response.value : null,
      }
    : null;
  const variant: Variant = {
    header,
    value,
    content_type: contentTypes.length === 1 && contentTypes[0] !== "" ? contentTypes[0]! : null,
    envelope: listsConfirmed > 0 ? envelope : null,
    item_envelope: items.length > 0 ? itemEnvelope : null,
    fields,
    not_found: notFound,
    explain: `${header}: ${value} renders ${fc.name} otherwise (${fields
      .map((f) =>
        "from" in f
          ? f.from === f.pointer
            ? f.pointer
            : `${f.pointer} <- ${f.from}`
          : `${f.pointer} = ${JSON.stringify(f.value)}`,
      )
      .join(
        ", ",
      )}); confirmed by ${pairs.length} entities paired with the primary read before them${listsConfirmed > 0 ? ` and ${listsConfirmed} list read${listsConfirmed === 1 ? "" : "s"} the primary query answers alike` : ""}.`,
  };
  // Served from state: the list reads the primary plan confirmed, the item reads paired with a primary entity.
  return { variant, served: [...confirmed, ...items.filter((o) => paired.has(o))] };
}

/**
 * Each leaf of the variant entities (in the first one's order) and the primary leaf it repeats in every pair: the
 * same pointer when it fits, else the one that does; a leaf one value in every entity (two at least) no primary leaf
 * explains is a constant. Null when a leaf has no source, or two and not its own pointer.
 */
function renderFields(pairs: [Entity, Entity][]): Variant["fields"] | null {
  const maps = pairs.map(([v, p]) => [leafMap(v), leafMap(p)] as const);
  const pointers: string[] = [];
  for (const [vm] of maps) for (const k of vm.keys()) if (!pointers.includes(k)) pointers.push(k);
  const out: Variant["fields"] = [];
  for (const pointer of pointers) {
    const having = maps.filter(([vm]) => vm.has(pointer));
    let sources = null as Set<string> | null;
    for (const [vm, pm] of having) {
      const want = vm.get(pointer)!;
      const fits = new Set([...pm].filter(([, x]) => x === want).map(([k]) => k));
      sources = sources === null ? fits : new Set([...sources].filter((k) => fits.has(k)));
    }
    const s = [...(sources ?? [])];
    if (s.includes(pointer)) out.push({ pointer, from: pointer });
    else if (s.length === 1) out.push({ pointer, from: s[0]! });
    else if (
      s.length === 0 &&
      having.length >= 2 &&
      new Set(having.map(([vm]) => vm.get(pointer))).size === 1
    )
      out.push({ pointer, value: JSON.parse(having[0]![0].get(pointer)!) });
    else return null;
  }
  return out;
}

/**
 * The replays with the variant reads the state does not serve, each answer keyed on the header's value (and the
 * primary answers at the same read on the primary value), so no request takes another rendering's answer.
 */
export function withVariantReplays(replays: Replay[], reads: Observation[], split: HeaderSplit): Replay[] {
  if (reads.length === 0) return replays;
  const keyOf = (r: Replay) => `${r.method} ${r.path_and_query}`;
  const byKey = new Map(replays.map((r) => [keyOf(r), r]));
  for (const value of split.variants) {
    const mine = reads.filter((o) => requestHeader(o, split.header) === value);
    for (const r of buildReplays(mine)) {
      const responses = r.responses.map((x) => ({ ...x, headers_match: { [split.header]: value } }));
      const prev = byKey.get(keyOf(r));
      if (!prev) byKey.set(keyOf(r), { ...r, responses });
      else
        byKey.set(keyOf(r), {
          ...prev,
          responses: [
            ...prev.responses.map((x) =>
              x.headers_match || x.match ? x : { ...x, headers_match: { [split.header]: split.primary } },
            ),
            ...responses,
          ],
        });
    }
  }
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, r]) => r);
}
