/**
 * An OpenAPI 3.1 description of the learned API that tools accept as it is
 * (Redocly's recommended rules, Prism in front of the twin): one operation
 * per endpoint (operationId = tool name), tagged by its collection; the
 * security schemes the recording shows (bearer, Basic, an opaque
 * Authorization header, API-key headers, cookies, query keys), applied per
 * operation as the alternatives its requests sent; every recorded status as
 * a response with its body's schema and a redacted recorded example; query
 * parameters typed by the values sent (integers, booleans, enums of a small
 * repeated set). `x-apptwin-serving` says how the twin serves each one;
 * withheld endpoints are described too, with their reason and hint.
 */
import { emptyShape, observe, toJsonSchema } from "../learn/json-schema.js";
import type {
  AuthScheme,
  Collection,
  Endpoint,
  Examples,
  JsonSchema,
  Model,
  Param,
} from "../model/model-schema.js";
import { GREEDY_PARAM_TEXT, isGreedyParam } from "../util/fill-template.js";
import { toolDescription, toolTitle } from "./tool-definitions.js";

const REASONS: Record<string, string> = {
  "200": "OK",
  "201": "Created",
  "202": "Accepted",
  "204": "No Content",
  "301": "Moved Permanently",
  "302": "Found",
  "303": "See Other",
  "307": "Temporary Redirect",
  "400": "Bad Request",
  "401": "Unauthorized",
  "403": "Forbidden",
  "404": "Not Found",
  "405": "Method Not Allowed",
  "409": "Conflict",
  "412": "Precondition Failed",
  "422": "Unprocessable Content",
  "429": "Too Many Requests",
  "500": "Internal Server Error",
  "503": "Service Unavailable",
};

/** Most distinct values a query parameter may show and still be described as an enum. */
const ENUM_MAX = 8;

/** Path segments that name no collection (a tag falls back to the first other segment). */
const NOT_A_TAG = /^(api|rest|v\d+(\.\d+)?|json|\{.*\})$/i;

function isEmptySchema(schema: JsonSchema): boolean {
  return Object.keys(schema).length === 0;
}

/** Endpoint kinds the twin answers with the collection's not-found answer when the id is not in the episode. */
const BY_ID = new Set(["item", "update", "patch", "delete"]);

/** The schema of one recorded value. */
function schemaOf(value: unknown): JsonSchema {
  const shape = emptyShape();
  observe(shape, value);
  return toJsonSchema(shape);
}

/**
 * The answer the twin gives a state-served request by id when the id is not in the episode (the collection's
 * recorded not-found answer, else its own `404 {"error":"not_found"}`), for an endpoint the recording never
 * showed it on: the twin serves it, so the document says so.
 */
function notFoundResponse(e: Endpoint, c: Collection | undefined): [string, unknown] | null {
  if (e.serving !== "state" || !c || !BY_ID.has(e.kind)) return null;
  const nf = c.not_found ?? { status: 404, content_type: "application/json", body: { error: "not_found" } };
  const status = String(nf.status);
  if (status in e.response_schemas) return null;
  const recorded = c.not_found
    ? `the app's answer to an unknown id, as recorded on ${c.item_endpoint}`
    : "the twin's answer to an unknown id (the recording shows none)";
  const description = `${REASONS[status] ?? `Status ${status}`} (${recorded})`;
  const json = nf.content_type === null || /json/i.test(nf.content_type);
  if (!json) return [status, { description }];
  return [
    status,
    { description, content: { "application/json": { schema: schemaOf(nf.body), example: nf.body } } },
  ];
}

function responses(
  e: Endpoint,
  examples: Examples | undefined,
  c: Collection | undefined,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const status of Object.keys(e.response_schemas).sort()) {
    const schema = e.response_schemas[status]!;
    const description = `${REASONS[status] ?? `Status ${status}`} (as recorded)`;
    if (status === "204" || isEmptySchema(schema)) {
      out[status] = { description };
      continue;
    }
    const media: Record<string, unknown> = { schema };
    if (examples && status in examples.responses) media["example"] = examples.responses[status];
    out[status] = { description, content: { "application/json": media } };
  }
  const notFound = notFoundResponse(e, c);
  if (notFound) out[notFound[0]] = notFound[1];
  if (Object.keys(out).length === 0) out["default"] = { description: "No answer was recorded" };
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** A query parameter's schema from the values the recording sent: typed, an enum for a small repeated set. */
function querySchema(p: Param, seen: NonNullable<Examples["query"]>[string] | undefined): JsonSchema {
  if (!seen) return p.schema;
  if (seen.type !== "string") return { type: seen.type };
  const closed =
    seen.values.length >= 2 && seen.values.length <= ENUM_MAX && seen.seen >= 2 * seen.values.length;
  return closed ? { ...p.schema, type: "string", enum: seen.values } : p.schema;
}

function parameter(p: Param, examples: Examples | undefined, template: string): Record<string, unknown> {
  if (p.in === "path" && isGreedyParam(template, p.name))
    return {
      name: p.name,
      in: "path",
      required: true,
      schema: p.schema,
      description: GREEDY_PARAM_TEXT,
      "x-apptwin-multi-segment": true,
    };
  if (p.in === "path") return { name: p.name, in: "path", required: true, schema: p.schema };
  const seen = examples?.query?.[p.name];
  const out: Record<string, unknown> = {
    name: p.name,
    in: "query",
    required: false,
    schema: querySchema(p, seen),
  };
  if (seen) {
    out["description"] = `Sent in ${seen.seen} recorded request${seen.seen === 1 ? "" : "s"}.`;
    out["example"] =
      seen.type === "integer"
        ? Number(seen.values[0])
        : seen.type === "boolean"
          ? seen.values[0] === "true"
          : seen.values[0];
  }
  return out;
}

/** The tag of an endpoint: its collection, else the first path segment that names something. */
function tagOf(e: Endpoint): string {
  if (e.collection !== null) return e.collection;
  const seg = e.template.split("/").find((s) => s !== "" && !NOT_A_TAG.test(s));
  return seg ?? "root";
}

/** The security requirement alternatives of an operation: each set its requests sent (an empty one: anonymous). */
function security(model: Model, e: Endpoint): Record<string, string[]>[] {
  const sets = model.auth?.endpoints[e.tool_name] ?? [];
  if (sets.every((s) => s.length === 0)) return [];
  return sets.map((ids) => Object.fromEntries(ids.map((id) => [id, []])));
}

function operation(model: Model, e: Endpoint): Record<string, unknown> {
  const examples = model.examples?.[e.tool_name];
  const op: Record<string, unknown> = {
    operationId: e.tool_name,
    summary: toolTitle(e),
    description:
      e.serving === "withheld"
        ? `${e.explain} Withheld by the twin: ${e.withheld?.hint ?? ""}`.trim()
        : toolDescription(e),
    tags: [tagOf(e)],
    security: security(model, e),
    parameters: e.params.map((p) => parameter(p, examples, e.template)),
    responses: responses(
      e,
      examples,
      model.collections.find((c) => c.name === e.collection),
    ),
    "x-apptwin-serving": e.serving,
  };
  if (e.request_body !== null) {
    const mime = e.request_body === "form" ? "application/x-www-form-urlencoded" : "application/json";
    const schema =
      e.request_body === "form"
        ? { type: "object", additionalProperties: { type: "string" } }
        : (e.request_schema ?? {});
    const media: Record<string, unknown> = { schema };
    if (examples?.request !== undefined) media["example"] = examples.request;
    op["requestBody"] = { required: true, content: { [mime]: media } };
  }
  if (e.withheld !== null) op["x-apptwin-withheld"] = { reason: e.withheld.reason, hint: e.withheld.hint };
  return op;
}

/** An OpenAPI security scheme object for a learned scheme. */
function securityScheme(s: AuthScheme): Record<string, unknown> {
  const description = `${s.explain}, as the recording shows it (values redacted).`;
  if (s.kind === "bearer" || s.kind === "basic") return { type: "http", scheme: s.kind, description };
  const where = s.kind === "cookie" ? "cookie" : s.kind === "query" ? "query" : "header";
  return { type: "apiKey", in: where, name: s.name, description };
}

/** The OpenAPI 3.1 document of a model, paths and methods in sorted order. */
export function openApiFromModel(model: Model, name: string, version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const sorted = [...model.endpoints].sort((a, b) =>
    a.template === b.template ? (a.method < b.method ? -1 : 1) : a.template < b.template ? -1 : 1,
  );
  for (const e of sorted) {
    // OpenAPI has no greedy parameter: `{id+}` is written `{id}`, its parameter says it may hold `/`.
    const path = e.template.replace(/\{([^{}]+)\+\}/g, "{$1}");
    paths[path] = { ...paths[path], [e.method.toLowerCase()]: operation(model, e) };
  }
  const collections = new Set(model.collections.map((c) => c.name));
  const tags = [...new Set(sorted.map(tagOf))].sort().map((t) => ({
    name: t,
    description: collections.has(t) ? `The ${t} collection` : `Requests under ${t}`,
  }));
  const schemes = model.auth?.schemes ?? [];
  return {
    openapi: "3.1.0",
    info: {
      title: `${name} (apptwin environment)`,
      version,
      description: `The HTTP API of ${model.app_origin} as learned from a recording; served by \`apptwin serve\`.`,
    },
    servers: [{ url: "/", description: "the twin started by apptwin serve" }],
    tags,
    paths,
    ...(schemes.length > 0
      ? { components: { securitySchemes: Object.fromEntries(schemes.map((s) => [s.id, securityScheme(s)])) } }
      : {}),
  };
}
