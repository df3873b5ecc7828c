/**
 * MCP tool definitions from the learned model: one tool per endpoint the twin
 * serves (from state or by replay), with a JSON Schema input whose properties
 * are the path parameters, the query parameters and the body, and a binding
 * that says how serve turns the arguments back into an HTTP request. The
 * tools' names are the model's `tool_name`s, chosen at learning
 * (src/learn/tool-name.ts), since the model's rules are keyed by them.
 */
import { singular } from "../learn/value-kinds.js";
import type { Endpoint, JsonSchema, Model } from "../model/model-schema.js";
import { GREEDY_PARAM_TEXT, isGreedyParam } from "../util/fill-template.js";
import type { ToolDefinition } from "./bundle-schema.js";

const WRITE_VERBS: Record<string, string> = {
  create: "Create",
  update: "Replace",
  patch: "Update",
  delete: "Delete",
};

/** A short human title: "List items", "Get item", "Create item", or the method and template. */
export function toolTitle(e: Endpoint): string {
  const noun = e.collection ?? null;
  if (noun === null) return `${e.method} ${e.template}`;
  if (e.kind === "list") return `List ${noun}`;
  if (e.kind === "item") return `Get ${singular(noun)}`;
  const verb = WRITE_VERBS[e.kind];
  return verb ? `${verb} ${singular(noun)}` : `${e.method} ${e.template}`;
}

function what(e: Endpoint): string {
  const noun = e.collection;
  const route = `${e.method} ${e.template}`;
  const pathParams = e.params.filter((p) => p.in === "path").map((p) => p.name);
  const by = pathParams.length > 0 ? ` by ${pathParams.join(" and ")}` : "";
  if (noun === null) return `Calls ${route} and returns the app's answer.`;
  switch (e.kind) {
    case "list":
      return `Lists the ${noun} (${route}).`;
    case "item":
      return `Reads one ${singular(noun)}${by} (${route}).`;
    case "create":
      return `Creates a ${singular(noun)} in ${noun} from \`body\` (${route}).`;
    case "update":
      return `Replaces the ${singular(noun)}${by} with \`body\` (${route}).`;
    case "patch":
      return `Changes the given fields of the ${singular(noun)}${by} (${route}).`;
    case "delete":
      return `Deletes the ${singular(noun)}${by} (${route}).`;
    default:
      return `Calls ${route} on ${noun}.`;
  }
}

function statuses(e: Endpoint): string {
  const codes = Object.keys(e.response_schemas).sort();
  return codes.length > 0 ? ` The app answered with status ${codes.join(", ")}.` : "";
}

/** A description an agent can act on: what the tool does, what it returns, and how the twin serves it. */
export function toolDescription(e: Endpoint): string {
  const served = e.inferred
    ? `Inferred, never recorded: the app's ${e.inferred.from} reads its collection this way, so this route is served from the environment's state in the same style; the app may not have it.`
    : e.serving === "state"
      ? "Served from the environment's state: writes change it for the rest of the episode and reads see those changes."
      : e.serving === "acknowledged"
        ? "Acknowledged: answered as the app answered it, changing nothing in the environment's state (the recording showed no effect of it)."
        : "Replayed: answers are the responses recorded for exactly this request, in recorded order; other arguments are not answered.";
  const query = e.params.filter((p) => p.in === "query").map((p) => p.name);
  const q = query.length > 0 ? ` Optional query parameters: ${query.join(", ")}.` : "";
  return `${what(e)} Returns {status, body} with the HTTP status and the JSON body.${statuses(e)}${q} ${served}`;
}

function inputSchema(e: Endpoint): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const p of e.params) {
    const where = p.in === "path" ? "Path parameter" : "Query parameter";
    const greedy = p.in === "path" && isGreedyParam(e.template, p.name) ? ` ${GREEDY_PARAM_TEXT}` : "";
    properties[p.name] = {
      ...p.schema,
      description: `${where} \`${p.name}\` of ${e.template}.${greedy}`,
    };
    if (p.in === "path") required.push(p.name);
  }
  if (e.request_body !== null) {
    const schema: JsonSchema =
      e.request_body === "form"
        ? { type: "object", additionalProperties: { type: "string" } }
        : (e.request_schema ?? { type: "object" });
    const encoding = e.request_body === "form" ? "form-encoded (string values)" : "JSON";
    properties["body"] = { ...schema, description: `The request body, sent ${encoding}.` };
    required.push("body");
  }
  return { type: "object", properties, required, additionalProperties: false };
}

const OUTPUT_SCHEMA: JsonSchema = {
  type: "object",
  properties: {
    status: { type: "integer", description: "The HTTP status the app would answer with." },
    body: { description: "The response body (JSON), or null when the answer has none." },
  },
  required: ["status", "body"],
};

/** The tool for one served endpoint. */
export function toolFromEndpoint(e: Endpoint): ToolDefinition {
  const method = e.method.toUpperCase();
  const readOnly = method === "GET" || method === "HEAD";
  return {
    name: e.tool_name,
    title: toolTitle(e),
    description: toolDescription(e),
    input_schema: inputSchema(e),
    output_schema: OUTPUT_SCHEMA,
    annotations: {
      readOnlyHint: readOnly,
      destructiveHint: method === "DELETE" || method === "PUT",
      idempotentHint: readOnly || method === "PUT" || method === "DELETE",
      openWorldHint: false,
    },
    binding: {
      method,
      template: e.template,
      path_params: e.params.filter((p) => p.in === "path").map((p) => p.name),
      query_params: e.params.filter((p) => p.in === "query").map((p) => p.name),
      body: e.request_body,
    },
  };
}

/** One tool per endpoint served from state or by replay (withheld ones are not offered), sorted by name. */
export function toolsFromModel(model: Model): ToolDefinition[] {
  return model.endpoints
    .filter((e) => e.serving !== "withheld")
    .map(toolFromEndpoint)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
