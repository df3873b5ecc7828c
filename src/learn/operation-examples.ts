/**
 * One recorded example per endpoint, for the OpenAPI document: the first
 * JSON (or form) request body, and per status the first JSON answer. The
 * recording is redacted, so examples are too; arrays are cut to their first
 * items so a long list stays a readable example.
 */
import type { Examples } from "../model/model-schema.js";
import type { EndpointGroup } from "./endpoint-index.js";

/** Items an example array keeps. */
const EXAMPLE_ITEMS = 2;

/** Distinct values of a query parameter an example keeps. */
const QUERY_VALUES = 20;

/** A JSON value with every array cut to its first items. */
export function shorten(value: unknown, depth = 0): unknown {
  if (depth > 32 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.slice(0, EXAMPLE_ITEMS).map((v) => shorten(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shorten(v, depth + 1)]));
}

/** The type every value of a query parameter has: integers, booleans (true/false), else strings. */
function valueType(values: string[]): "integer" | "boolean" | "string" {
  if (values.every((v) => /^-?(0|[1-9]\d{0,14})$/.test(v))) return "integer";
  if (values.every((v) => v === "true" || v === "false")) return "boolean";
  return "string";
}

/** Each endpoint's examples, by tool name. */
export function operationExamples(groups: readonly EndpointGroup[]): Record<string, Examples> {
  const out: Record<string, Examples> = {};
  for (const g of groups) {
    const ex: Examples = { responses: {} };
    const query = new Map<string, { values: Set<string>; seen: number }>();
    for (const o of g.observations) {
      for (const [name, value] of o.query) {
        const q = query.get(name) ?? { values: new Set<string>(), seen: 0 };
        q.values.add(value);
        q.seen++;
        query.set(name, q);
      }
      if (ex.request === undefined && (o.request.kind === "json" || o.request.kind === "form"))
        ex.request = shorten(o.request.value);
      const status = String(o.status);
      if (!(status in ex.responses) && o.response.kind === "json")
        ex.responses[status] = shorten(o.response.value);
    }
    if (query.size > 0) {
      ex.query = Object.fromEntries(
        [...query.entries()]
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .map(([name, q]) => [
            name,
            {
              values: [...q.values].sort().slice(0, QUERY_VALUES),
              seen: q.seen,
              type: valueType([...q.values]),
            },
          ]),
      );
    }
    out[g.toolName] = ex;
  }
  return out;
}
