/**
 * Latency and faults as data (`schema_version: 1`), the way test doubles
 * (WireMock, Toxiproxy) describe them: a delay for every request and, per
 * route, a delay and a fault — a status answered with the app's own error
 * body, a dropped connection, or a truncated body — optionally with a
 * probability and a number of times. Parsed here with every problem at
 * once; the twin server applies it (test-double.ts).
 */
import { z } from "zod";
import { DocumentError, UserError } from "../errors/user-error.js";
import { zodIssues } from "../errors/zod-issues.js";

/** The newest faults document version this apptwin reads. */
export const FAULTS_SCHEMA_VERSION = 1;

/** The longest delay a plan may ask for: 10 minutes (a client's own timeout is tested well below it). */
export const MAX_DELAY_MS = 600_000;

const Ms = z.number().int().nonnegative().max(MAX_DELAY_MS);

/** A delay: fixed, uniform between two bounds, or log-normal around a median (WireMock's shapes). */
export const LatencySchema = z.union([
  z.strictObject({ fixed_ms: Ms }),
  z
    .strictObject({ min_ms: Ms, max_ms: Ms })
    .refine((l) => l.min_ms <= l.max_ms, { message: "min_ms must not exceed max_ms" }),
  z.strictObject({ median_ms: Ms, sigma: z.number().positive().max(4), min_ms: Ms.optional() }),
]);

/** What goes wrong instead of (or on the way back from) the app's answer. */
export const FaultSchema = z.discriminatedUnion("kind", [
  /** The app answers this status; the body is the app's own recorded one for it unless given. */
  z.strictObject({
    kind: z.literal("status"),
    status: z.number().int().min(400).max(599),
    body: z.unknown().optional(),
  }),
  /** The connection closes before any answer; the app never sees the request. */
  z.strictObject({ kind: z.literal("drop") }),
  /** The app handles the request, then its answer is cut off after this share of the body's bytes. */
  z.strictObject({ kind: z.literal("truncate"), keep: z.number().min(0).lt(1).optional() }),
]);

/**
 * Which requests a route rule applies to: a tool name (`post_items`), or `METHOD PATH` where METHOD may be `*` and
 * PATH is a template of the twin (`/api/items/{id}`), an exact path, or a prefix ending in `/*`.
 */
const RouteSelector = z
  .string()
  .regex(/^(?:[a-z][a-z0-9_]*|(?:\*|[A-Z]+) \/\S*)$/, 'a tool name or "METHOD /path" (METHOD may be *)');

export const RouteRuleSchema = z
  .strictObject({
    route: RouteSelector,
    latency: LatencySchema.optional(),
    fault: FaultSchema.optional(),
    /** The share of matching requests the fault hits (default 1: every one). */
    probability: z.number().min(0).max(1).optional(),
    /** The fault hits only the next N matching requests (default: no limit). */
    times: z.number().int().positive().optional(),
  })
  .refine((r) => r.latency !== undefined || r.fault !== undefined, {
    message: "a route rule needs a latency, a fault, or both",
  });

export const FaultPlanSchema = z.strictObject({
  schema_version: z.literal(FAULTS_SCHEMA_VERSION),
  /** The delay of every request no route rule gives its own. */
  latency: LatencySchema.optional(),
  /** The first rule whose route matches a request decides its delay and fault. */
  routes: z.array(RouteRuleSchema).default([]),
});

export type Latency = z.infer<typeof LatencySchema>;
export type Fault = z.infer<typeof FaultSchema>;
export type RouteRule = z.infer<typeof RouteRuleSchema>;
export type FaultPlan = z.infer<typeof FaultPlanSchema>;

/** The plan that changes nothing. */
export const NO_FAULTS: FaultPlan = { schema_version: FAULTS_SCHEMA_VERSION, routes: [] };

/** Parses a faults document; every problem at once, each naming `file` and the field. */
export function parseFaultPlan(value: unknown, file: string): FaultPlan {
  if (
    value !== null &&
    typeof value === "object" &&
    typeof (value as { schema_version?: unknown }).schema_version === "number" &&
    (value as { schema_version: number }).schema_version > FAULTS_SCHEMA_VERSION
  ) {
    throw new UserError(
      "unsupported_version",
      `${file}: schema_version ${(value as { schema_version: number }).schema_version} is newer than this apptwin reads (${FAULTS_SCHEMA_VERSION}); upgrade apptwin to read it`,
    );
  }
  const parsed = FaultPlanSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new DocumentError(
    file,
    zodIssues(file, parsed.error.issues, { schema: FaultPlanSchema, raw: value, subject: "the faults file" }),
  );
}

/**
 * `--latency`: `200` (fixed), `100-300` (uniform), or `lognormal:200:0.5` (median ms and sigma). A malformed value
 * is a UserError naming the flag and the three forms.
 */
export function parseLatencyFlag(text: string): Latency {
  const t = text.trim();
  const range = /^(\d+)\s*-\s*(\d+)$/.exec(t);
  const lognormal = /^lognormal:(\d+):(\d+(?:\.\d+)?)$/.exec(t);
  let latency: unknown;
  if (/^\d+$/.test(t)) latency = { fixed_ms: Number(t) };
  else if (range) latency = { min_ms: Number(range[1]), max_ms: Number(range[2]) };
  else if (lognormal) latency = { median_ms: Number(lognormal[1]), sigma: Number(lognormal[2]) };
  const parsed = LatencySchema.safeParse(latency);
  if (parsed.success) return parsed.data;
  throw new UserError(
    "invalid_latency",
    `--latency ${JSON.stringify(text)} is not a delay: give milliseconds (200), a range (100-300) or lognormal:<median ms>:<sigma> (lognormal:200:0.5), each at most ${MAX_DELAY_MS} ms`,
  );
}

/** One sentence saying what a delay is, for logs and the control plane. */
export function explainLatency(l: Latency): string {
  if ("fixed_ms" in l) return `${l.fixed_ms} ms`;
  if ("median_ms" in l) return `log-normal around ${l.median_ms} ms (sigma ${l.sigma})`;
  return `${l.min_ms}-${l.max_ms} ms (uniform)`;
}
