/**
 * The request journal of one episode: every request it received (over HTTP
 * or as an MCP tool call), with what answered it, as recorded from the
 * runtime's own answer (`served_by`, `rule`), never recomputed. Bounded:
 * past `capacity` the oldest entries go and `dropped` counts them. Filters
 * and counts are what verification asks ("was POST /api/items called twice?").
 */
import { isCredentialName } from "../util/credential-name.js";
import { maskQueryString } from "../util/mask-query.js";
import { deepFreeze } from "./runtime/deep-freeze.js";

/** One request an episode received and how it was answered. */
export interface JournalEntry {
  /** 1, 2, … in the order the episode received them. */
  seq: number;
  /** When the request arrived (ISO 8601, wall clock). */
  time: string;
  episode: string;
  via: "http" | "mcp";
  /** The MCP tool called, for `via: mcp`. */
  tool: string | null;
  method: string;
  path: string;
  /** The query string as sent, without `?` ("" for none); credential values masked (util/mask-query.ts). */
  query: string;
  /** The request body as parsed (JSON, form fields as an object, text), credential-named fields masked; null for none. */
  body: unknown;
  /** The status answered; null when the connection was dropped before any answer. */
  status: number | null;
  /** What answered: the runtime's kind (`state`, `replay`, `validation`, `withheld`, `miss`, …) or `fault`. */
  served_by: string;
  /** The rule (tool name) that answered, or null. */
  rule: string | null;
  /** The fault injected, or null. */
  fault: "status" | "drop" | "truncate" | null;
  /** The delay added before answering (ms). */
  latency_ms: number;
  /** How long the request took, delay included (ms, rounded to 0.1). */
  ms: number;
}

/** What a journal query selects; every given criterion must hold. */
export interface JournalFilter {
  method?: string;
  /** An exact path, a template (`/api/items/{id}`), or a prefix ending in `/*`. */
  path?: string;
  /** A status (`201`) or a class (`2xx`). */
  status?: string;
  served_by?: string;
  rule?: string;
  via?: "http" | "mcp";
  fault?: string;
}

/** The criteria a query may give, as the control plane names them. */
export const FILTER_KEYS = ["method", "path", "status", "served_by", "rule", "via", "fault"] as const;

/** How many entries an episode's journal keeps by default. */
export const DEFAULT_JOURNAL_CAPACITY = 1000;

/** The longest body text a journal entry keeps (longer is cut and marked). */
const MAX_BODY_CHARS = 4096;

const MASK = "[MASKED]";

/**
 * Nesting past this (deeper than any body the twin reads: read-body refuses past 64) is not kept: a marker takes
 * its place, never the body's own object, nor a field that was not masked.
 */
const MAX_MASK_DEPTH = 128;

const TOO_DEEP = "[NESTED TOO DEEP]";

/** Field name → whether it names a credential: bodies repeat the same few names, so each is judged once. */
const credentialKeys = new Map<string, boolean>();

function credentialKey(k: string): boolean {
  let named = credentialKeys.get(k);
  if (named === undefined) {
    if (credentialKeys.size >= 4096) credentialKeys.clear();
    named = isCredentialName(k);
    credentialKeys.set(k, named);
  }
  return named;
}

/**
 * A body as a journal keeps it: credential-named fields masked at any depth, long text cut. Always a copy made
 * of fresh arrays and objects: the journal never holds the request's own values (which a caller, or a state that
 * took them, could change) nor hands out anything that reaches them.
 */
export function journalBody(body: unknown): unknown {
  const mask = (v: unknown, depth: number): unknown => {
    if (v === null || typeof v !== "object") return v;
    if (depth > MAX_MASK_DEPTH) return TOO_DEEP;
    if (Array.isArray(v)) return v.map((x) => mask(x, depth + 1));
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v)) {
      const x = (v as Record<string, unknown>)[k];
      // defineProperty: a "__proto__" field stays a field of the copy, as JSON.parse made it.
      Object.defineProperty(out, k, {
        value: credentialKey(k) ? MASK : mask(x, depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  };
  const masked = mask(body, 0);
  const text = typeof masked === "string" ? masked : JSON.stringify(masked);
  if (text !== undefined && text.length > MAX_BODY_CHARS) {
    return { truncated: true, text: text.slice(0, MAX_BODY_CHARS) };
  }
  return masked;
}

/** True when `path` is the filter's path: equal, the same segments under a `{param}` template, or under a `/*` prefix. */
function pathMatches(pattern: string, path: string): boolean {
  if (pattern.endsWith("/*")) return path === pattern.slice(0, -2) || path.startsWith(pattern.slice(0, -1));
  if (!pattern.includes("{")) return pattern === path;
  const want = pattern.split("/");
  let got = path.split("/");
  // A greedy `{id+}` takes the segments between those before it and those after it (at least one).
  const greedy = want.findIndex((w) => /^\{[^}]+\+\}$/.test(w));
  if (greedy >= 0) {
    const end = got.length - (want.length - greedy - 1);
    if (end <= greedy) return false;
    got = [...got.slice(0, greedy), got.slice(greedy, end).join("/"), ...got.slice(end)];
  }
  return (
    want.length === got.length && want.every((w, i) => (/^\{[^}]+\}$/.test(w) ? got[i] !== "" : w === got[i]))
  );
}

/** True when an entry satisfies every criterion of the filter. */
export function entryMatches(e: JournalEntry, f: JournalFilter): boolean {
  if (f.method !== undefined && e.method !== f.method.toUpperCase()) return false;
  if (f.path !== undefined && !pathMatches(f.path, e.path)) return false;
  if (f.status !== undefined) {
    const cls = /^([1-5])xx$/i.exec(f.status);
    if (
      cls ? e.status === null || Math.floor(e.status / 100) !== Number(cls[1]) : String(e.status) !== f.status
    )
      return false;
  }
  if (f.served_by !== undefined && e.served_by !== f.served_by) return false;
  if (f.rule !== undefined && e.rule !== f.rule) return false;
  if (f.via !== undefined && e.via !== f.via) return false;
  if (f.fault !== undefined && (e.fault ?? "none") !== f.fault) return false;
  return true;
}

/**
 * A filter from query parameters, or the problems with them (an unknown criterion, a malformed status) so a
 * typo never silently matches everything.
 */
export function parseJournalFilter(
  params: URLSearchParams,
): { filter: JournalFilter } | { problems: string[] } {
  const problems: string[] = [];
  const filter: Record<string, string> = {};
  for (const [k, v] of params) {
    if (k === "limit") continue;
    if (!(FILTER_KEYS as readonly string[]).includes(k)) {
      problems.push(`unknown filter "${k}" (the filters are ${FILTER_KEYS.join(", ")}, and limit)`);
      continue;
    }
    filter[k] = v;
  }
  if (filter.status !== undefined && !/^(?:[1-5]\d\d|[1-5]xx)$/i.test(filter.status))
    problems.push(
      `status must be a status such as 201 or a class such as 2xx (got ${JSON.stringify(filter.status)})`,
    );
  if (filter.via !== undefined && filter.via !== "http" && filter.via !== "mcp")
    problems.push(`via must be http or mcp (got ${JSON.stringify(filter.via)})`);
  const limit = params.get("limit");
  if (limit !== null && !/^\d+$/.test(limit))
    problems.push(`limit must be a whole number (got ${JSON.stringify(limit)})`);
  return problems.length > 0 ? { problems } : { filter: filter as JournalFilter };
}

/**
 * One episode's journal, oldest first: a ring of at most `capacity` entries, so recording costs the same at any
 * fill (past capacity the new entry takes the oldest one's place; nothing is shifted) and an episode's journal
 * never holds more than `capacity` entries. Each entry is frozen (its body a masked copy, frozen too): nothing
 * read from the journal can change it, and nothing in it reaches the request's or the state's own values.
 */
export class RequestJournal {
  private ring: JournalEntry[] = [];
  /** Where the oldest entry is once the ring is full. */
  private head = 0;
  private next = 1;
  /** How many entries were dropped to stay within capacity since the last clear. */
  dropped = 0;

  constructor(private readonly capacity = DEFAULT_JOURNAL_CAPACITY) {}

  /** How many entries are kept. */
  get size(): number {
    return this.ring.length;
  }

  /** Appends an entry, numbering it; past capacity it replaces the oldest. */
  record(entry: Omit<JournalEntry, "seq">): JournalEntry {
    const full: JournalEntry = Object.freeze({
      seq: this.next++,
      ...entry,
      query: maskQueryString(entry.query),
      body: deepFreeze(entry.body),
    });
    if (this.capacity === 0) {
      this.dropped++;
      return full;
    }
    if (this.ring.length < this.capacity) this.ring.push(full);
    else {
      this.ring[this.head] = full;
      this.head = (this.head + 1) % this.capacity;
      this.dropped++;
    }
    return full;
  }

  /** The kept entries, oldest first. */
  private *inOrder(): IterableIterator<JournalEntry> {
    const n = this.ring.length;
    for (let i = 0; i < n; i++) yield this.ring[(this.head + i) % n]!;
  }

  /** The entries a filter selects, oldest first; with `limit`, only the latest `limit` of them. */
  find(filter: JournalFilter, limit?: number): JournalEntry[] {
    const hits: JournalEntry[] = [];
    for (const e of this.inOrder()) if (entryMatches(e, filter)) hits.push(e);
    return limit === undefined ? hits : hits.slice(Math.max(0, hits.length - limit));
  }

  /** How many kept entries a filter selects. */
  count(filter: JournalFilter): number {
    let n = 0;
    for (const e of this.inOrder()) if (entryMatches(e, filter)) n++;
    return n;
  }

  /** Forgets every entry (numbering starts again at 1). */
  clear(): void {
    this.ring = [];
    this.head = 0;
    this.next = 1;
    this.dropped = 0;
  }
}
