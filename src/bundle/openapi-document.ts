/**
 * An OpenAPI 3.1 description of the learned API: one operation per endpoint
 * (operationId = tool name), its parameters, request body and one response
 * per recorded status, and how the twin serves it (`x-apptwin-serving`).
 * Withheld endpoints are described too, marked with their reason and hint.
 */
import type { Endpoint, JsonSchema, Model } from "../model/model-schema.js";
import { toolDescription, toolTitle } from "./tool-definitions.js";

const REASONS: Record<string, string> = {
  "200": "OK",
  "201": "Created",
  "202": "Accepted",
  "204": "No Content",
  "400": "Bad Request",
  "401": "Unauthorized",
  "403": "Forbidden",
  "404": "Not Found",
  "409": "Conflict",
  "422": "Unprocessable Content",
};

function isEmptySchema(schema: JsonSchema): boolean {
  return Object.keys(schema).length === 0;
}

function responses(e: Endpoint): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const status of Object.keys(e.response_schemas).sort()) {
    const schema = e.response_schemas[status]!;
    const description = `${REASONS[status] ?? `Status ${status}`} (as recorded)`;
    out[status] =
      status === "204" || isEmptySchema(schema)
        ? { description }
        : { description, content: { "application/json": { schema } } };
  }
  if (Object.keys(out).length === 0) out["default"] = { description: "No answer was recorded" };
  return out;
}

function operation(e: Endpoint): Record<string, unknown> {
  const op: Record<string, unknown> = {
    operationId: e.tool_name,
    summary: toolTitle(e),
    description:
      e.serving === "withheld"
        ? `${e.explain} Withheld by the twin: ${e.withheld?.hint ?? ""}`.trim()
        : toolDescription(e),
    parameters: e.params.map((p) => ({
      name: p.name,
      in: p.in,
      required: p.in === "path",
      schema: p.schema,
    })),
    responses: responses(e),
    "x-apptwin-serving": e.serving,
  };
  if (e.request_body !== null) {
    const mime = e.request_body === "form" ? "application/x-www-form-urlencoded" : "application/json";
    const schema =
      e.request_body === "form"
        ? { type: "object", additionalProperties: { type: "string" } }
        : (e.request_schema ?? {});
    op["requestBody"] = { required: true, content: { [mime]: { schema } } };
  }
  if (e.withheld !== null) op["x-apptwin-withheld"] = { reason: e.withheld.reason, hint: e.withheld.hint };
  return op;
}

/** The OpenAPI 3.1 document of a model, paths and methods in sorted order. */
export function openApiFromModel(model: Model, name: string, version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const sorted = [...model.endpoints].sort((a, b) =>
    a.template === b.template ? (a.method < b.method ? -1 : 1) : a.template < b.template ? -1 : 1,
  );
  for (const e of sorted) {
    paths[e.template] = { ...paths[e.template], [e.method.toLowerCase()]: operation(e) };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: `${name} (apptwin environment)`,
      version,
      description: `The HTTP API of ${model.app_origin} as learned from a recording; served by \`apptwin serve\`.`,
    },
    servers: [{ url: "/", description: "the twin started by apptwin serve" }],
    paths,
  };
}
