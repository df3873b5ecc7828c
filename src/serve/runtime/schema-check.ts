/**
 * Checks a value against the JSON Schema subset the twin publishes (type,
 * properties, required, additionalProperties, items, enum; `format` is an
 * annotation, as JSON Schema reads it by default). The same check serves MCP
 * tool arguments (against the tool's `inputSchema`) and the HTTP twin's
 * request bodies (against the learned request schema), so both refuse the
 * same requests. Never quotes a value back: it may be the caller's secret.
 */
import type { PathSegment } from "../../errors/document-issue.js";
import type { JsonSchema } from "../../model/model-schema.js";

/** One way a value breaks its schema: where (`["body", "name"]`) and what would be valid. */
export interface SchemaProblem {
  path: PathSegment[];
  message: string;
}

/** Options: `textual` lets a string that reads as the type pass, and a number or boolean pass as a string (URL parameters are text on the wire). */
export interface CheckOptions {
  textual?: boolean;
  /**
   * Whether a field every recorded request sent must be there (default true).
   * The HTTP twin passes false: that every recorded body had a field does not
   * show the app refuses one without it (a UI may send fewer); a recorded
   * refusal is learned as a validation rule instead.
   */
  required?: boolean;
}

const ARTICLE: Record<string, string> = {
  string: "a string",
  integer: "an integer",
  number: "a number",
  boolean: "true or false",
  object: "a JSON object",
  array: "a JSON array",
  null: "null",
};

/** What kind of JSON value a value is, without its content. */
export function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number") return Number.isInteger(value) ? "an integer" : "a number";
  if (typeof value === "boolean") return "a boolean";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

function isType(value: unknown, type: string, textual: boolean): boolean {
  switch (type) {
    case "null":
      return value === null;
    case "boolean":
      return typeof value === "boolean" || (textual && (value === "true" || value === "false"));
    case "integer":
      return Number.isInteger(value) || (textual && typeof value === "string" && /^-?\d+$/.test(value));
    case "number":
      return (
        (typeof value === "number" && Number.isFinite(value)) ||
        (textual && typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value)))
      );
    case "string":
      // a number or a boolean given for a URL parameter is sent as its text
      return (
        typeof value === "string" ||
        (textual && (typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value))))
      );
    case "array":
      return Array.isArray(value);
    case "object":
      return value !== null && typeof value === "object" && !Array.isArray(value);
    default:
      return true;
  }
}

function typesOf(schema: JsonSchema): string[] | null {
  const t = schema["type"];
  if (typeof t === "string") return [t];
  if (Array.isArray(t) && t.every((x) => typeof x === "string")) return t as string[];
  return null;
}

const isSchema = (v: unknown): v is JsonSchema => v !== null && typeof v === "object" && !Array.isArray(v);

function check(
  schema: JsonSchema,
  value: unknown,
  path: PathSegment[],
  opts: CheckOptions,
  out: SchemaProblem[],
): void {
  const types = typesOf(schema);
  const textual = opts.textual === true;
  if (types && !types.some((t) => isType(value, t, textual))) {
    const want = types.map((t) => ARTICLE[t] ?? t).join(" or ");
    out.push({ path, message: `must be ${want} (got ${kindOf(value)})` });
    return;
  }
  const choices = schema["enum"];
  const same = (c: unknown) =>
    JSON.stringify(c) === JSON.stringify(value) || (textual && typeof c === "string" && c === String(value));
  if (Array.isArray(choices) && !choices.some(same)) {
    out.push({ path, message: `must be one of ${choices.map((c) => JSON.stringify(c)).join(", ")}` });
    return;
  }
  if (isType(value, "object", false)) checkObject(schema, value as Record<string, unknown>, path, opts, out);
  const items = schema["items"];
  if (Array.isArray(value) && isSchema(items))
    value.forEach((item, i) => {
      check(items, item, [...path, i], opts, out);
    });
}

function checkObject(
  schema: JsonSchema,
  value: Record<string, unknown>,
  path: PathSegment[],
  opts: CheckOptions,
  out: SchemaProblem[],
): void {
  const properties = isSchema(schema["properties"]) ? (schema["properties"] as Record<string, unknown>) : {};
  const required =
    opts.required !== false && Array.isArray(schema["required"]) ? (schema["required"] as unknown[]) : [];
  for (const name of required)
    if (typeof name === "string" && !Object.hasOwn(value, name))
      out.push({ path: [...path, name], message: "is required" });
  const extra = schema["additionalProperties"];
  for (const [name, v] of Object.entries(value)) {
    const own = properties[name];
    if (isSchema(own)) check(own, v, [...path, name], opts, out);
    else if (extra === false) {
      const known = Object.keys(properties);
      out.push({
        path: [...path, name],
        message: `is not a known field (expected ${known.length > 0 ? known.join(", ") : "none"})`,
      });
    } else if (isSchema(extra)) check(extra, v, [...path, name], opts, out);
  }
}

/** Every way `value` breaks `schema`, in document order (empty when it fits). */
export function checkSchema(
  schema: JsonSchema,
  value: unknown,
  path: PathSegment[] = [],
  opts: CheckOptions = {},
): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  check(schema, value, path, opts, out);
  return out;
}
