/**
 * Cache-busters by hypothesis (issue 17 item 1): a query parameter a client adds to defeat caches (jQuery's
 * `_=<epoch ms>`, `?t=<now>`) whose value is new on every request and never changes the answer. Found before
 * anything else is learned, so a recording whose every read carries one still has plain lists: the parameter is
 * taken out of every learned request, and serve takes it out of every request it is asked (`model.cache_busters`).
 */
import { clockValue } from "../util/clock-value.js";
import type { ApiRecord } from "./api-records.js";

/** A confirmed cache-buster parameter and why. */
export interface CacheBuster {
  param: string;
  explain: string;
}

/** How near the request's own start a value must be to be the client's clock (a page may be a day old). */
const CLOCK_WINDOW_MS = 24 * 3600 * 1000;

const isRead = (r: ApiRecord) => r.method === "GET" || r.method === "HEAD";
const answerOf = (r: ApiRecord) => `${r.status}\u0000${r.record.response?.body?.text ?? ""}`;
const pathOf = (r: ApiRecord) => r.pathAndQuery.split("?")[0]!;
/** The request's query without `param`, sorted by name (values of one name in order): what else it asked. */
const restOf = (r: ApiRecord, param: string) => {
  const q = new URLSearchParams(r.query.filter(([k]) => k !== param));
  q.sort();
  return `${r.method} ${pathOf(r)}?${q}`;
};

/**
 * The parameters the recording confirms as cache-busters: every read carrying one (two at least, all timed) holds
 * a clock value within a day of its own start, no two the same; at least two reads that differ only in it, with no
 * write between them, answered alike (status and body), and no such pair answered otherwise — a pair being two
 * reads that both sent it or one that sent it and one that did not. Rejected: a `since=` whose reads answered
 * differently with nothing written between them, or answered otherwise than the same read without it (it
 * filters), a value seen twice, a value that is no time near the request's.
 */
export function findCacheBusters(api: ApiRecord[]): CacheBuster[] {
  const names = [...new Set(api.filter(isRead).flatMap((r) => r.query.map(([k]) => k)))].sort();
  const out: CacheBuster[] = [];
  for (const param of names) {
    const carrying = api.filter((r) => r.query.some(([k]) => k === param));
    if (carrying.length < 2 || !carrying.every(isRead)) continue;
    const values = carrying.flatMap((r) => r.query.filter(([k]) => k === param).map(([, v]) => v));
    if (values.length !== carrying.length || new Set(values).size !== values.length) continue;
    const clockLike = carrying.every((r, i) => {
      const t = clockValue(values[i]!);
      return t !== null && r.time !== null && Math.abs(t - r.time) <= CLOCK_WINDOW_MS;
    });
    if (!clockLike) continue;
    // Pairs of reads that differ only in the parameter, with no write between them: each one's answer is the test.
    let alike = 0;
    let otherwise = 0;
    const last = new Map<string, ApiRecord>();
    for (const r of api) {
      if (!isRead(r)) {
        last.clear();
        continue;
      }
      const key = restOf(r, param);
      const prev = last.get(key);
      const mine = r.query.some(([k]) => k === param);
      // A read with it against the same read without it tests the hypothesis too (a since= that filters fails it).
      if (prev && (mine || prev.query.some(([k]) => k === param))) {
        if (answerOf(prev) === answerOf(r)) alike++;
        else otherwise++;
      }
      last.set(key, r);
    }
    if (alike === 0 || otherwise > 0) continue;
    out.push({
      param,
      explain: `${param} held the client's clock, new on each of the ${carrying.length} reads that sent it, and reads differing only in it answered alike (${alike} ${alike === 1 ? "pair" : "pairs"}, nothing written between): a cache-buster, ignored on every request.`,
    });
  }
  return out;
}

/** The records with the cache-busters taken out of their query and path (what learning then reads). */
export function withoutCacheBusters(api: ApiRecord[], busters: CacheBuster[]): ApiRecord[] {
  if (busters.length === 0) return api;
  const drop = new Set(busters.map((b) => b.param));
  return api.map((r) => {
    if (!r.query.some(([k]) => drop.has(k))) return r;
    const query = r.query.filter(([k]) => !drop.has(k));
    const search = new URLSearchParams(query).toString();
    return { ...r, query, pathAndQuery: `${pathOf(r)}${search === "" ? "" : `?${search}`}` };
  });
}
