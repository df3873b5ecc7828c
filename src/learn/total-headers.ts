/**
 * Totals a list read's answer carries in its headers (`X-WP-Total: 3`, `X-WP-TotalPages: 2`,
 * `X-Total-Count`), learned by hypothesis: a header whose integer value, in every list read the state
 * serves, is the number of entities matching the read before its page (`total`) — or the number of
 * pages of the read's page size (`pages`: one page when the read sets no size, as the twin then
 * answers every match) — is kept, so serve's answers keep it in step with the state. A header some
 * read lacks, or one value that fits neither, keeps nothing.
 */

import { renderLink } from "../model/link-header.js";
import type { Collection, Entity } from "../model/model-schema.js";
import { pageCount } from "../model/page-count.js";
import { planQuery, runQueryPlan } from "../model/query-plan.js";
import { listEntities } from "./collections.js";
import type { Observation } from "./endpoint-index.js";
import type { QueryRead } from "./query-hypotheses.js";

type TotalHeader = NonNullable<Collection["total_headers"]>[number];
type Query = NonNullable<Collection["query"]>;

/** A state-served list read: its total before the page, its page size, its integer headers by name, its body. */
interface Measured {
  total: number;
  limit: number | null;
  /** Where the page starts among the matches, and whether more follow it. */
  offset: number;
  more: boolean;
  headers: Map<string, { name: string; n: number }>;
  body: unknown;
  query: [string, string][];
  /** The request's URL as recorded, and its `Link` answer header (null when none). */
  url: string;
  link: string | null;
}

/** Per state-served list read, what it measured; null when one cannot be measured. */
function measured(
  reads: Observation[],
  queries: Map<Observation, QueryRead>,
  query: Query,
  itemsKey: string | null,
): Measured[] | null {
  const out: Measured[] = [];
  for (const o of reads) {
    let total: number;
    let limit: number | null = null;
    let offset = 0;
    let more = false;
    if (o.query.length === 0) {
      const got = listEntities(o.response.kind === "json" ? o.response.value : undefined, itemsKey);
      if (!got) return null;
      total = got.entities.length;
    } else {
      const read = queries.get(o);
      if (!read) return null;
      const planned = planQuery(query, read.leaves, read.base.slice(0, 50) as Entity[]);
      if ("unlearned" in planned) return null;
      const ran = runQueryPlan(planned.plan, read.base);
      if ("ambiguous" in ran) return null;
      total = ran.total;
      limit = planned.plan.limit;
      offset = planned.plan.offset;
      more = ran.more;
    }
    const headers = new Map<string, { name: string; n: number }>();
    for (const h of o.record.response?.headers ?? [])
      if (/^\d+$/.test(h.value.trim()))
        headers.set(h.name.toLowerCase(), { name: h.name, n: Number(h.value) });
    out.push({
      total,
      limit,
      offset,
      more,
      headers,
      body: o.response.kind === "json" ? o.response.value : undefined,
      query: o.query,
      url: o.record.request.url,
      link: o.record.response?.headers.find((h) => h.name.toLowerCase() === "link")?.value ?? null,
    });
  }
  return out;
}

/** The state-served list reads that answered 2xx, measured; null when none, or one cannot be measured. */
function measuredReads(
  reads: Observation[],
  queries: Map<Observation, QueryRead>,
  query: Query,
  itemsKey: string | null,
): Measured[] | null {
  const ok = reads.filter((o) => o.status >= 200 && o.status < 300);
  return ok.length > 0 ? measured(ok, queries, query, itemsKey) : null;
}

/** The first names of the confirmed paging rules (limit, offset, page): what may make a header appear. */
const pagingNames = (query: Query) =>
  [
    ...new Set(
      query.rules.flatMap((r) =>
        (r.kind === "limit" || r.kind === "offset" || r.kind === "page") && r.path.length === 1
          ? [r.path[0]!]
          : [],
      ),
    ),
  ].sort();

/**
 * The paging parameters a header's presence follows, when it is not on every read: every read that carries it
 * sends one of them and no read without it sends any (a mock server's `X-Total-Count` beside `_page` or `_limit`
 * only); null when its presence follows no such set.
 */
function presenceOf(rows: Measured[], key: string, paging: string[]): string[] | null {
  const sends = (r: Measured, n: string) => r.query.some(([k]) => k === n);
  const without = rows.filter((r) => !r.headers.has(key));
  const names = paging.filter((n) => !without.some((r) => sends(r, n)));
  const withIt = rows.filter((r) => r.headers.has(key));
  return withIt.length > 0 && names.length > 0 && withIt.every((r) => names.some((n) => sends(r, n)))
    ? names
    : null;
}

/**
 * The total headers every state-served list read confirms, by header name: on every read, or on exactly the reads
 * that send a paging parameter (`when_sent`).
 */
export function learnTotalHeaders(
  reads: Observation[],
  queries: Map<Observation, QueryRead>,
  query: Query,
  itemsKey: string | null,
): TotalHeader[] {
  const rows = measuredReads(reads, queries, query, itemsKey);
  if (!rows) return [];
  const out: TotalHeader[] = [];
  const paging = pagingNames(query);
  const names = [...new Set(rows.flatMap((r) => [...r.headers.keys()]))].sort();
  for (const key of names) {
    if (key === "content-length") continue;
    const every = rows.every((r) => r.headers.has(key));
    const when = every ? null : presenceOf(rows, key, paging);
    if (!every && when === null) continue;
    const having = rows.filter((r) => r.headers.has(key));
    const name = having[0]!.headers.get(key)!.name;
    const value = (r: Measured): number => r.headers.get(key)!.n;
    const extra = when ? { when_sent: when } : {};
    if (having.every((r) => value(r) === r.total) && having.some((r) => r.total > 1))
      out.push({ name, of: "total", ...extra });
    else if (having.every((r) => value(r) === pageCount(r.total, r.limit)) && (every || having.length > 1))
      out.push({ name, of: "pages", ...extra });
  }
  return out;
}

type EnvelopeField = NonNullable<Collection["envelope_fields"]>[number];

/**
 * The query parameter a leaf repeats (`meta.pagination.page` beside `?page=2`): in every read it holds the
 * parameter's value when the request sent it and one default otherwise, and some read sent another value.
 */
function echoOf(values: unknown[], rows: Measured[]): { param: string; value: unknown } | null {
  const names = [...new Set(rows.flatMap((r) => r.query.map(([n]) => n)))].sort();
  for (const param of names) {
    const sent = rows.map((r) => r.query.find(([n]) => n === param)?.[1]);
    const without = values.filter((_, i) => sent[i] === undefined).map((v) => JSON.stringify(v));
    if (without.length === 0 || new Set(without).size !== 1) continue;
    const fallback = JSON.parse(without[0]!) as unknown;
    if (!values.every((v, i) => sent[i] === undefined || String(v) === sent[i])) continue;
    if (sent.some((v) => v !== undefined && v !== String(fallback))) return { param, value: fallback };
  }
  return null;
}

/** A read's page number (1 + the pages of its size before it; 1 without a size), or whether it is the first or last. */
function positionOf(r: Measured, of: "page" | "is_first" | "is_last" | "has_next"): number | boolean {
  if (of === "page") return r.limit ? Math.floor(r.offset / r.limit) + 1 : 1;
  if (of === "is_first") return r.offset === 0;
  return of === "is_last" ? !r.more : r.more;
}

/** How deep under an envelope key its totals are looked for (`meta.pagination.total`: 3). */
const MAX_DEPTH = 3;

/** The scalar leaves of an object, by RFC 6901 pointer (`/meta/pagination/total`), at most `MAX_DEPTH` deep. */
function leaves(value: unknown, pointer: string, depth: number, out: Map<string, unknown>): void {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    if (!Array.isArray(value)) out.set(pointer, value);
    return;
  }
  if (depth >= MAX_DEPTH) return;
  for (const [k, v] of Object.entries(value))
    leaves(v, `${pointer}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`, depth + 1, out);
}

/**
 * Totals inside the list envelope, under an object key (`meta.total_count`, `pagination.total`,
 * `meta.pagination.pageCount`), learned as the headers are: a leaf whose integer, in every state-served read, is
 * the number of matches before the page (`total`: some read above 1, as a page number of 1 fits by chance) or the
 * page count (`pages`: varying with it); the leaves beside them that hold one value in every read (two at least) are
 * kept as `constant` (so serve rebuilds the object). Only keys the envelope does not already
 * carry (`skip`: the items key, its top-level total, constants and echoes). Rejected: a leaf one read contradicts
 * (a cursor, a time) is left out; an object with no total kept is left out whole.
 */
export function learnEnvelopeFields(
  reads: Observation[],
  queries: Map<Observation, QueryRead>,
  query: Query,
  itemsKey: string | null,
  skip: ReadonlySet<string>,
): EnvelopeField[] {
  const rows = itemsKey === null ? null : measuredReads(reads, queries, query, itemsKey);
  if (!rows) return [];
  const bodies = rows.map((r) => r.body);
  if (!bodies.every((b) => b !== null && typeof b === "object" && !Array.isArray(b))) return [];
  const objects = bodies as Record<string, unknown>[];
  const out: EnvelopeField[] = [];
  for (const key of Object.keys(objects[0]!).sort()) {
    if (
      skip.has(key) ||
      !objects.every((b) => b[key] !== null && typeof b[key] === "object" && !Array.isArray(b[key]))
    )
      continue;
    const byRead = objects.map((b) => {
      const m = new Map<string, unknown>();
      leaves(b[key], `/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`, 1, m);
      return m;
    });
    const fields: EnvelopeField[] = [];
    for (const [pointer, first] of byRead[0]!) {
      if (!byRead.every((m) => m.has(pointer))) continue;
      const values = byRead.map((m) => m.get(pointer));
      const varies = new Set(values.map((v) => JSON.stringify(v))).size > 1;
      // A 0 or 1 in every read fits a total by chance (a page number); a page count must follow the state.
      if (values.every((v, i) => v === rows[i]!.total) && values.some((v) => (v as number) > 1))
        fields.push({ pointer, of: "total" });
      else if (varies && values.every((v, i) => v === pageCount(rows[i]!.total, rows[i]!.limit)))
        fields.push({ pointer, of: "pages" });
      else if (!varies && rows.length > 1) fields.push({ pointer, of: "constant", value: first });
      else {
        const echo = echoOf(values, rows);
        if (echo) fields.push({ pointer, of: "echo", ...echo });
        else if (varies) {
          // A page's position, when no parameter repeats it: its number, whether it is the first or the last.
          const position = (["page", "is_first", "is_last", "has_next"] as const).find((of) =>
            values.every((v, k) => v === positionOf(rows[k]!, of)),
          );
          if (position) fields.push({ pointer, of: position });
        }
      }
    }
    if (fields.some((f) => f.of !== "constant")) out.push(...fields);
  }
  return out;
}

type LinkHeader = NonNullable<Collection["link_header"]>;
type LinkRel = "next" | "prev" | "first" | "last";
const RELS = new Set<string>(["next", "prev", "first", "last"]);

/** A `Link` header's entries, each with its URL and rel. */
function entries(value: string): { text: string; url: string; rel: string }[] {
  return value
    .split(/,\s*(?=<)/)
    .map((text) => text.trim())
    .map((text) => {
      const m = /^<([^>]*)>.*?;\s*rel="?([^";]+)"?/.exec(text);
      return { text, url: m?.[1] ?? "", rel: m?.[2] ?? "" };
    });
}

/**
 * The `Link` header of paged lists (`rel="next"`, `prev`, `first`, `last`), learned by hypothesis: in every
 * state-served list read it is the same entries in one order, the other rels word for word, and each paging rel
 * the request's own URL with the page parameter (the collection's confirmed `page` rule) set to the page it points
 * at, present exactly when that page exists (`next` before the last page, `prev` after the first). Rejected when
 * one read differs in anything (its URL's parameter order, a missing `next`): then no Link is sent, as before.
 */
export function learnLinkHeader(
  reads: Observation[],
  queries: Map<Observation, QueryRead>,
  query: Query,
  itemsKey: string | null,
): LinkHeader | null {
  const page = query.rules.find((r) => r.kind === "page" && r.path.length === 1);
  if (page?.kind !== "page") return null;
  const all = measuredReads(reads, queries, query, itemsKey);
  if (!all) return null;
  // On every read, or on exactly the reads that send the page parameter (a mock server's Link beside `_page`).
  const paged = (r: Measured) => r.query.some(([k]) => k === page.path[0]);
  const whenPaged = all.some((r) => r.link === null);
  if (whenPaged && all.some((r) => (r.link === null) === paged(r))) return null;
  const rows = whenPaged ? all.filter(paged) : all;
  if (rows.length === 0) return null;
  // Every read's entries merged in their order (a first page shows `next`, a last one `prev`).
  const origin = new URL(rows[0]!.url).origin;
  const slots: LinkHeader["slots"] = [];
  const keyOf = (e: { text: string; rel: string }) => (RELS.has(e.rel) ? `rel:${e.rel}` : `text:${e.text}`);
  const keys: string[] = [];
  for (const r of rows) {
    let at = 0;
    for (const e of entries(r.link!)) {
      const key = keyOf(e);
      const found = keys.indexOf(key);
      if (found >= 0) {
        at = found + 1;
        continue;
      }
      keys.splice(at, 0, key);
      slots.splice(
        at,
        0,
        RELS.has(e.rel)
          ? { rel: e.rel as LinkRel, format: e.text.replace(`<${e.url}>`, "<{url}>") }
          : { text: e.text },
      );
      at++;
    }
  }
  if (!slots.some((s) => "rel" in s)) return null;
  const link: LinkHeader = {
    name: "Link",
    page_param: page.path[0]!,
    base: page.base,
    origin,
    ...(whenPaged ? { when_paged: true as const } : {}),
    slots,
  };
  for (const r of rows) {
    const url = new URL(r.url);
    if (url.origin !== origin) return null;
    const rendered = renderLink(link, url.pathname, r.query, r.total, r.limit);
    if (
      rendered !==
      entries(r.link!)
        .map((e) => e.text)
        .join(", ")
    )
      return null;
  }
  return link;
}
