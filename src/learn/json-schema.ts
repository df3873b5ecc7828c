/**
 * JSON Schemas inferred from every observation of a body, merged (never
 * first-wins): a property is `required` only when every observed object had
 * it, a type list grows with every type seen, and `format` is kept only when
 * every string agreed on it.
 */
import type { JsonSchema } from "../model/model-schema.js";
import { isUuid, readTime } from "./value-kinds.js";

type TypeName = "null" | "boolean" | "integer" | "number" | "string" | "array" | "object";

/** A mergeable summary of observed values; turn it into a JSON Schema with `toJsonSchema`. */
export interface Shape {
  types: Set<TypeName>;
  objects: number;
  props: Map<string, Shape & { seen: number }>;
  items: Shape | null;
  format: string | null | undefined;
}

/** A shape that has seen nothing. */
export function emptyShape(): Shape {
  return { types: new Set(), objects: 0, props: new Map(), items: null, format: undefined };
}

function stringFormat(value: string): string | null {
  if (isUuid(value)) return "uuid";
  // RFC 3339 date-time: seconds and a zone (a local time without one is no JSON Schema date-time).
  const t = readTime(value);
  if (t?.layout?.includes(":ss") && t.offsetMin !== null && /T/.test(t.layout)) return "date-time";
  return null;
}

/** Adds one observed value to `shape` (mutating it), to a bounded depth. */
export function observe(shape: Shape, value: unknown, depth = 0): void {
  if (value === null) shape.types.add("null");
  else if (typeof value === "boolean") shape.types.add("boolean");
  else if (typeof value === "number") shape.types.add(Number.isInteger(value) ? "integer" : "number");
  else if (typeof value === "string") {
    shape.types.add("string");
    const f = stringFormat(value);
    shape.format = shape.format === undefined ? f : shape.format === f ? f : null;
  } else if (Array.isArray(value)) {
    shape.types.add("array");
    if (depth >= 8) return;
    for (const item of value) {
      if (!shape.items) shape.items = emptyShape();
      observe(shape.items, item, depth + 1);
    }
  } else if (typeof value === "object") {
    shape.types.add("object");
    shape.objects++;
    if (depth >= 8) return;
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      let prop = shape.props.get(k);
      if (!prop) {
        prop = { ...emptyShape(), seen: 0 };
        shape.props.set(k, prop);
      }
      prop.seen++;
      observe(prop, v, depth + 1);
    }
  }
}

/** The JSON Schema of a shape, with sorted properties and types. */
export function toJsonSchema(shape: Shape): JsonSchema {
  const types = [...shape.types];
  if (types.includes("integer") && types.includes("number")) types.splice(types.indexOf("integer"), 1);
  types.sort();
  const out: JsonSchema = {};
  if (types.length === 1) out["type"] = types[0];
  else if (types.length > 1) out["type"] = types;
  if (shape.types.has("string") && shape.format) out["format"] = shape.format;
  if (shape.types.has("object")) {
    const keys = [...shape.props.keys()].sort();
    const properties: Record<string, JsonSchema> = {};
    for (const k of keys) properties[k] = toJsonSchema(shape.props.get(k)!);
    out["properties"] = properties;
    out["required"] = keys.filter((k) => shape.props.get(k)!.seen === shape.objects);
  }
  if (shape.types.has("array")) out["items"] = shape.items ? toJsonSchema(shape.items) : {};
  return out;
}
