/**
 * What makes the twin a test double people already know how to use, shared
 * by the HTTP and MCP adapters: every request goes through `serve`, which
 * applies the episode's fault plan (a delay, then a fault or the runtime's
 * answer) and writes the episode's request journal from the answer the
 * runtime gave. Per episode: its journal, its plan (the server's unless set
 * over the control plane), how often each limited fault has hit, and a PRNG
 * seeded by the episode, so the same run meets the same faults and delays.
 */
import type { Model } from "../model/model-schema.js";
import type { EpisodeHandle } from "./episode-store.js";
import { faultAnswer } from "./fault-answer.js";
import {
  explainLatency,
  type FaultPlan,
  type Latency,
  MAX_DELAY_MS,
  NO_FAULTS,
  type RouteRule,
} from "./fault-plan.js";
import {
  DEFAULT_JOURNAL_CAPACITY,
  type JournalEntry,
  journalBody,
  RequestJournal,
} from "./request-journal.js";
import { handleRequest } from "./runtime/handle-request.js";
import { hashSeed, nextWord } from "./runtime/prng.js";
import { matchRoute, type RouteMatch } from "./runtime/route-table.js";
import type { TwinRequest, TwinResponse } from "./runtime/twin-types.js";
import { unrecordedBodyHeaders } from "./unrecorded-body.js";

/** A runtime answer, or a fault's: `served_by` is the runtime's kind or `fault`. */
export type DoubleAnswer = Omit<TwinResponse, "served_by"> & { served_by: string };

/** What the adapter sends: an answer, nothing (the connection drops), or an answer cut off after `keep` of its bytes. */
export type DoubleOutcome =
  | { kind: "answer"; answer: DoubleAnswer }
  | { kind: "drop" }
  | { kind: "truncate"; answer: DoubleAnswer; keep: number };

/** How a request reached the twin. */
export interface RequestMeta {
  via: "http" | "mcp";
  /** The MCP tool called (via mcp). */
  tool?: string;
  /** When the request arrived, by `now` (so the journal's ms include reading the body). */
  started?: number;
}

/** Options of the double. */
export interface TestDoubleOptions {
  /** The plan every episode starts with (`--latency`, `--faults`). */
  plan?: FaultPlan;
  /** Entries each episode's journal keeps (default 1000; 0 keeps none but still counts). */
  journalCapacity?: number;
  /** Called with every journal entry (`apptwin serve --log`). */
  onEntry?: (entry: JournalEntry) => void;
  /** Waits `ms` (default a timer; tests may inject one). */
  sleep?: (ms: number) => Promise<void>;
  /** A monotonic clock in ms (default `performance.now`). */
  now?: () => number;
}

/** The share of the body a `truncate` fault keeps by default. */
export const DEFAULT_TRUNCATE_KEEP = 0.5;

interface EpisodeDouble {
  journal: RequestJournal;
  /** The episode's own plan, set over the control plane; undefined: the server's. */
  plan?: FaultPlan;
  /** Per rule index of the plan in force: how often its fault has hit. */
  hits: number[];
  prng: [number, number, number, number];
}

/** A request on its way through `serve`: what was decided before its delay. */
interface Served {
  episode: EpisodeHandle;
  d: EpisodeDouble;
  req: TwinRequest;
  meta: RequestMeta;
  m: RouteMatch | null;
  tool: string | null;
  fault: RouteRule["fault"] | undefined;
  delay: number;
  started: number;
}

/** The rule of a plan that decides a request, or undefined. */
function ruleFor(plan: FaultPlan, req: TwinRequest, tool: string | null, template: string | null): number {
  return plan.routes.findIndex((r) => selects(r, req, tool, template));
}

/** True when a rule's route selects the request (see RouteRuleSchema for the forms). */
export function selects(
  rule: RouteRule,
  req: TwinRequest,
  tool: string | null,
  template: string | null,
): boolean {
  const space = rule.route.indexOf(" ");
  if (space < 0) return rule.route === tool;
  const method = rule.route.slice(0, space);
  const path = rule.route.slice(space + 1);
  if (method !== "*" && method !== req.method.toUpperCase()) return false;
  if (path.endsWith("/*")) return req.path === path.slice(0, -2) || req.path.startsWith(path.slice(0, -1));
  return path === req.path || (template !== null && path === template);
}

let lastMs = Number.NaN;
let lastIso = "";

/** The wall clock as ISO 8601, formatted once per millisecond (a Date and its text per request cost 3% of a read). */
function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}

/**
 * Waits at least `ms` by the monotonic clock. A timer alone may fire a little early by it: node counts a timer from
 * the event loop's time, read (in whole ms) when the loop turned, which is behind the clock by the work done since;
 * on a busy loop a 150 ms delay ended after 149.8 ms. What is left is waited again.
 */
function atLeast(ms: number): Promise<void> {
  const until = performance.now() + ms;
  return new Promise((done) => {
    const wait = (left: number) =>
      setTimeout(() => {
        const rest = until - performance.now();
        if (rest > 0) wait(rest);
        else done();
      }, left);
    wait(ms);
  });
}

/** A uniform draw in [0, 1) from the episode's PRNG. */
function uniform(s: [number, number, number, number]): number {
  return nextWord(s) / 2 ** 32;
}

/** A delay drawn from a latency shape, whole ms, within [0, MAX_DELAY_MS]. */
export function drawDelay(l: Latency | undefined, s: [number, number, number, number]): number {
  if (l === undefined) return 0;
  let ms: number;
  if ("fixed_ms" in l) ms = l.fixed_ms;
  else if ("median_ms" in l) {
    // Box-Muller: a standard normal from two uniforms, then e^(sigma z) around the median.
    const z = Math.sqrt(-2 * Math.log(1 - uniform(s))) * Math.cos(2 * Math.PI * uniform(s));
    ms = Math.max(l.min_ms ?? 0, l.median_ms * Math.exp(l.sigma * z));
  } else ms = l.min_ms + uniform(s) * (l.max_ms - l.min_ms);
  return Math.min(MAX_DELAY_MS, Math.round(ms));
}

/** The journal, latency and faults of one twin server. */
export class TestDouble {
  /** Per episode (its handle's key: the same from its creation until it is evicted or created again). */
  private readonly episodes = new WeakMap<object, EpisodeDouble>();
  private readonly plan: FaultPlan;
  private readonly capacity: number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => number;

  constructor(
    private readonly model: Model,
    private readonly opts: TestDoubleOptions = {},
  ) {
    this.plan = opts.plan ?? NO_FAULTS;
    this.capacity = opts.journalCapacity ?? DEFAULT_JOURNAL_CAPACITY;
    this.sleep = opts.sleep ?? atLeast;
    this.now = opts.now ?? (() => performance.now());
  }

  private of(episode: EpisodeHandle): EpisodeDouble {
    let d = this.episodes.get(episode.key);
    if (!d) {
      d = {
        journal: new RequestJournal(this.capacity),
        hits: [],
        prng: hashSeed(`apptwin-faults:${episode.id}:${episode.seed}`),
      };
      this.episodes.set(episode.key, d);
    }
    return d;
  }

  /** The episode's request journal. */
  journal(episode: EpisodeHandle): RequestJournal {
    return this.of(episode).journal;
  }

  /** The plan in force for the episode and where it comes from. */
  planOf(episode: EpisodeHandle): { plan: FaultPlan; source: "server" | "episode" } {
    const own = this.of(episode).plan;
    return own ? { plan: own, source: "episode" } : { plan: this.plan, source: "server" };
  }

  /** Gives the episode its own plan (null: back to the server's); limited faults count again from zero. */
  setPlan(episode: EpisodeHandle, plan: FaultPlan | null): void {
    const d = this.of(episode);
    d.plan = plan ?? undefined;
    d.hits = [];
  }

  /** The episode starts again: its journal is emptied and limited faults count from zero; its plan stays. */
  reset(episode: EpisodeHandle): void {
    const d = this.of(episode);
    d.journal.clear();
    d.hits = [];
    d.prng = hashSeed(`apptwin-faults:${episode.id}:${episode.seed}`);
  }

  /** The plan in force, one sentence per part, for the control plane. */
  describe(episode: EpisodeHandle): string[] {
    const { plan } = this.planOf(episode);
    const lines = plan.latency ? [`every request: ${explainLatency(plan.latency)}`] : [];
    for (const r of plan.routes) {
      const parts = [r.latency ? explainLatency(r.latency) : null, r.fault ? `fault ${r.fault.kind}` : null];
      const when = [
        r.probability !== undefined ? `probability ${r.probability}` : null,
        r.times ? `the next ${r.times} times` : null,
      ];
      lines.push(`${r.route}: ${[...parts, ...when].filter((x) => x !== null).join(", ")}`);
    }
    return lines;
  }

  /**
   * Answers one request on the episode: delay, then a fault or the runtime's answer; journals it. At once, without a
   * promise, when nothing has to wait (no delay, and a store whose steps run in this process).
   */
  serve(episode: EpisodeHandle, req: TwinRequest, meta: RequestMeta): DoubleOutcome | Promise<DoubleOutcome> {
    const started = meta.started ?? this.now();
    const d = this.of(episode);
    const { plan } = this.planOf(episode);
    const m = matchRoute(this.model, req.method, req.path);
    const tool = m?.route.endpoint.tool_name ?? meta.tool ?? null;
    const index = ruleFor(plan, req, tool, m?.route.endpoint.template ?? null);
    const rule = index >= 0 ? plan.routes[index] : undefined;
    const delay = drawDelay(rule?.latency ?? plan.latency, d.prng);
    const fault = rule?.fault && this.hits(d, index, rule) ? rule.fault : undefined;
    const served: Served = { episode, d, req, meta, m, tool, fault, delay, started };
    if (delay > 0) return this.sleep(delay).then(() => this.answer(served));
    return this.answer(served);
  }

  /** The outcome of a request once its delay is over: the fault's, or the runtime's answer; journaled. */
  private answer(s: Served): DoubleOutcome | Promise<DoubleOutcome> {
    const { fault, tool } = s;
    if (fault?.kind === "drop") return this.journaled(s, { kind: "drop" });
    if (fault?.kind === "status") {
      const a = faultAnswer(this.model, fault.status, tool, fault.body);
      const headers = { ...a.headers, "x-apptwin-fault": "status", "x-apptwin-fault-body": a.source };
      return this.journaled(s, {
        kind: "answer",
        answer: { status: a.status, headers, body: a.body, served_by: "fault", rule: tool },
      });
    }
    const ran = s.episode.run((e) => handleRequest(this.model, e, s.req, s.m));
    if (ran instanceof Promise)
      return ran.then((answer: DoubleAnswer) => this.journaled(s, this.ran(s, answer)));
    return this.journaled(s, this.ran(s, ran));
  }

  /** The runtime's answer as the outcome: flagged when its body was not recorded, cut off by a truncate fault. */
  private ran(s: Served, answer: DoubleAnswer): DoubleOutcome {
    Object.assign(answer.headers, unrecordedBodyHeaders(this.model, s.req, answer));
    if (s.fault?.kind === "truncate") {
      answer.headers["x-apptwin-fault"] = "truncate";
      return { kind: "truncate", answer, keep: s.fault.keep ?? DEFAULT_TRUNCATE_KEEP };
    }
    return { kind: "answer", answer };
  }

  /** Writes the request's journal entry (and hands it to `onEntry`); returns the outcome. */
  private journaled(s: Served, outcome: DoubleOutcome): DoubleOutcome {
    const { req, meta } = s;
    const answered = outcome.kind === "drop" ? null : outcome.answer;
    const entry = s.d.journal.record({
      time: isoNow(),
      episode: s.episode.id,
      via: meta.via,
      tool: meta.tool ?? null,
      method: req.method.toUpperCase(),
      path: req.path,
      query: req.query.length === 0 ? "" : new URLSearchParams(req.query).toString(),
      body: requestBody(req),
      status: answered?.status ?? null,
      served_by: answered?.served_by ?? "fault",
      rule: answered?.rule ?? s.tool,
      fault: s.fault?.kind ?? null,
      latency_ms: s.delay,
      ms: Math.round((this.now() - s.started) * 10) / 10,
    });
    this.opts.onEntry?.(entry);
    return outcome;
  }

  /** True when the rule's fault hits this request (probability, then the count left); counts the hit. */
  private hits(d: EpisodeDouble, index: number, rule: RouteRule): boolean {
    if (rule.probability !== undefined && uniform(d.prng) >= rule.probability) return false;
    const used = d.hits[index] ?? 0;
    if (rule.times !== undefined && used >= rule.times) return false;
    d.hits[index] = used + 1;
    return true;
  }
}

/** The request body as the journal keeps it. */
function requestBody(req: TwinRequest): unknown {
  const b = req.body;
  if (b === null) return null;
  if (b.kind === "json") return journalBody(b.value);
  if (b.kind === "form") return journalBody(Object.fromEntries(b.fields));
  return journalBody(b.text);
}
