/**
 * Turns an MCP tool call into a twin request through the tool's binding
 * (path params into the template, query params in binding order, `body` as
 * JSON or form), checking the arguments against the parts of the input
 * schema the binding relies on, and reporting every problem at once.
 */
import { formatPath } from "../../errors/document-issue.js";
import type { JsonSchema } from "../../model/model-schema.js";
import { fillParam } from "../../util/fill-template.js";
import { checkSchema } from "../runtime/schema-check.js";
import type { TwinRequest } from "../runtime/twin-types.js";
import type { TwinTool } from "../twin-bundle.js";

/** A request, or the list of problems with the arguments. */
export type ToolRequestResult = { request: TwinRequest } | { problems: string[] };

function scalar(v: unknown): string | undefined {
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return undefined;
}

/**
 * The problems of one argument against its schema in the tool's `inputSchema`, as messages naming the field
 * (`argument "body.name" is required`). URL parameters are read as text: `"3"` is an integer.
 */
function schemaProblems(tool: TwinTool, name: string, value: unknown): string[] {
  const properties = tool.input_schema.properties as Record<string, JsonSchema> | undefined;
  const schema = properties?.[name];
  if (schema === undefined || schema === null || typeof schema !== "object") return [];
  return checkSchema(schema, value, [name], { textual: name !== "body" }).map(
    (p) => `${tool.name}: argument "${formatPath(p.path)}" ${p.message}`,
  );
}

/** Builds the twin request for a call of `tool` with `args`, checked against the schema the tool publishes. */
export function toolRequest(tool: TwinTool, args: Record<string, unknown>): ToolRequestResult {
  const problems: string[] = [];
  const b = tool.binding;
  const required = Array.isArray(tool.input_schema.required) ? (tool.input_schema.required as string[]) : [];
  for (const name of required) {
    if (args[name] === undefined) problems.push(`${tool.name}: argument "${name}" is required`);
  }
  const known = new Set([...b.path_params, ...b.query_params, ...(b.body ? ["body"] : [])]);
  for (const name of Object.keys(args).sort()) {
    if (!known.has(name)) {
      problems.push(
        `${tool.name}: unknown argument "${name}" (expected ${[...known].join(", ") || "no arguments"})`,
      );
    }
  }
  let path = b.template;
  for (const name of b.path_params) {
    // An empty segment is named as such below, whatever the schema says.
    const wrong = args[name] === undefined || args[name] === "" ? [] : schemaProblems(tool, name, args[name]);
    if (wrong.length > 0) {
      problems.push(...wrong);
      continue;
    }
    const v = scalar(args[name]);
    if (v === undefined) {
      if (args[name] !== undefined)
        problems.push(`${tool.name}: argument "${name}" must be a string or a number`);
      continue;
    }
    if (v === "") {
      // An empty segment would route to another endpoint (`/api/items/` is the list).
      problems.push(`${tool.name}: argument "${name}" must not be empty (it is a path segment)`);
      continue;
    }
    path = fillParam(path, name, v);
  }
  const query: [string, string][] = [];
  for (const name of b.query_params) {
    if (args[name] === undefined || args[name] === null) continue;
    const wrong = schemaProblems(tool, name, args[name]);
    if (wrong.length > 0) {
      problems.push(...wrong);
      continue;
    }
    const v = scalar(args[name]);
    if (v === undefined)
      problems.push(`${tool.name}: argument "${name}" must be a string, number or boolean`);
    else query.push([name, v]);
  }
  let body: TwinRequest["body"] = null;
  const raw = args.body;
  const wrongBody = b.body !== null && raw !== undefined ? schemaProblems(tool, "body", raw) : [];
  problems.push(...wrongBody);
  if (b.body === "json" && raw !== undefined) body = { kind: "json", value: raw };
  if (b.body === "form" && raw !== undefined && wrongBody.length === 0) {
    if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
      problems.push(`${tool.name}: argument "body" must be an object of form fields`);
    } else {
      body = {
        kind: "form",
        fields: Object.entries(raw).map(([k, v]) => [k, scalar(v) ?? JSON.stringify(v)]),
      };
    }
  }
  if (problems.length > 0) return { problems };
  const headers: Record<string, string> = {};
  if (body?.kind === "json") headers["content-type"] = "application/json";
  if (body?.kind === "form") headers["content-type"] = "application/x-www-form-urlencoded";
  // An MCP session is the recording's signed-in user: its calls are never asked for credentials.
  return { request: { method: b.method, path, query, headers, body, signed_in: true } };
}
