/**
 * Every place a raw scenario takes a value (a literal or a reference): fill
 * and select values, request header values, query, form and path-param
 * values, `{ "$value": … }` objects (and the one-key `{ "secret": id }`)
 * inside JSON bodies, and the HTTP Basic credentials. The rules that check
 * references walk these, so a new place needs adding here only.
 */
import { isRecord, type PathSegment } from "../errors/document-issue.js";

/** One value position: where it is and what the file holds there. */
export interface ValuePosition {
  at: PathSegment[];
  value: unknown;
  /** The index of the step holding it, or null for a top-level field. */
  step: number | null;
}

/** The key of a reference inside a JSON body: `{ "$value": <reference> }`. */
export const JSON_VALUE_KEY = "$value";

/** True for the one-key `{ "secret": id }` a JSON body has always accepted as a secret reference. */
export function isJsonSecret(v: unknown): v is { secret: string } {
  return isRecord(v) && typeof v["secret"] === "string" && Object.keys(v).length === 1;
}

/** True for a JSON body object that stands for a value: `{ "$value": … }` or the one-key `{ "secret": id }`. */
export function isJsonReference(v: unknown): boolean {
  return isRecord(v) && (Object.hasOwn(v, JSON_VALUE_KEY) || isJsonSecret(v));
}

/** Visits the references inside a JSON body: the reference of each `$value` object, and each one-key secret. */
export function jsonValuePositions(
  json: unknown,
  at: PathSegment[],
  step: number | null,
  out: ValuePosition[],
): void {
  if (Array.isArray(json)) {
    json.forEach((x, i) => {
      jsonValuePositions(x, [...at, i], step, out);
    });
  } else if (isRecord(json)) {
    if (Object.hasOwn(json, JSON_VALUE_KEY))
      out.push({ at: [...at, JSON_VALUE_KEY], value: json[JSON_VALUE_KEY], step });
    else if (isJsonSecret(json)) out.push({ at, value: json, step });
    else for (const [k, x] of Object.entries(json)) jsonValuePositions(x, [...at, k], step, out);
  }
}

function entries(list: unknown, at: PathSegment[], step: number, out: ValuePosition[]): void {
  if (!Array.isArray(list)) return;
  list.forEach((e, j) => {
    if (isRecord(e) && e["value"] !== undefined)
      out.push({ at: [...at, j, "value"], value: e["value"], step });
  });
}

function record(map: unknown, at: PathSegment[], step: number, out: ValuePosition[]): void {
  if (!isRecord(map)) return;
  for (const [k, v] of Object.entries(map)) out.push({ at: [...at, k], value: v, step });
}

/** Every value position of a raw scenario, in file order. */
export function valuePositions(raw: Record<string, unknown>): ValuePosition[] {
  const out: ValuePosition[] = [];
  const basic = raw["http_credentials"];
  if (isRecord(basic))
    for (const k of ["username", "password"] as const)
      if (basic[k] !== undefined) out.push({ at: ["http_credentials", k], value: basic[k], step: null });
  const steps = raw["steps"];
  if (!Array.isArray(steps)) return out;
  steps.forEach((step, i) => {
    if (!isRecord(step)) return;
    const at: PathSegment[] = ["steps", i];
    if ((step["action"] === "fill" || step["action"] === "select") && step["value"] !== undefined)
      out.push({ at: [...at, "value"], value: step["value"], step: i });
    if (step["action"] !== "request") return;
    record(step["params"], [...at, "params"], i, out);
    record(step["headers"], [...at, "headers"], i, out);
    entries(step["query"], [...at, "query"], i, out);
    entries(step["form"], [...at, "form"], i, out);
    jsonValuePositions(step["json"], [...at, "json"], i, out);
  });
  return out;
}
